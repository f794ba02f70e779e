package spec

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/getkin/kin-openapi/openapi3"
)

// decode decodes the JSON of a document with kin-openapi, its paths apart
// from the rest. kin-openapi decodes a document whole into generic maps,
// for its extensions, and then its paths again, each written back to JSON
// and decoded a third time: for a document of 60,000 paths those maps
// held gigabytes at once. Here the rest of the document is decoded with
// its paths left empty, and each path item from where its JSON is, the
// items shared out among the processors.
func decode(ctx context.Context, t text) (*openapi3.T, error) {
	doc := &openapi3.T{}
	if t.paths == (span{}) {
		return doc, doc.UnmarshalJSON(t.json)
	}
	rest := slices.Concat(t.json[:t.paths.start], []byte("{}"), t.json[t.paths.end:])
	if err := doc.UnmarshalJSON(rest); err != nil {
		return nil, err
	}
	items := make([]*openapi3.PathItem, len(t.items))
	errs := make([]error, len(t.items))
	var next atomic.Int64 // the index of the next item to decode
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for k := int(next.Add(1) - 1); k < len(t.items); k = int(next.Add(1) - 1) {
				if err := ctx.Err(); err != nil {
					errs[k] = err
					return
				}
				m := t.items[k]
				if strings.HasPrefix(m.key, "x-") {
					continue // an extension, below
				}
				item := &openapi3.PathItem{}
				if err := item.UnmarshalJSON(t.json[m.value.start:m.value.end]); err != nil {
					errs[k] = fmt.Errorf("paths.%s: %w", m.key, err)
					continue
				}
				items[k] = item
			}
		})
	}
	wg.Wait()
	paths := openapi3.NewPaths()
	extensions := map[string]any{}
	for k, m := range t.items {
		if errs[k] != nil {
			return nil, errs[k]
		}
		if strings.HasPrefix(m.key, "x-") {
			var v any
			if err := json.Unmarshal(t.json[m.value.start:m.value.end], &v); err != nil {
				return nil, fmt.Errorf("paths.%s: %w", m.key, err)
			}
			extensions[m.key] = v
			continue
		}
		paths.Set(m.key, items[k])
	}
	if len(extensions) > 0 {
		paths.Extensions = extensions
	}
	doc.Paths = paths
	return doc, nil
}
