package spec_test

import (
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// TestPatternsGoCannotRun: a pattern that looks ahead, which Go's regexp
// cannot run, is left out with a warning naming its place, strict or not,
// and the document is served; a code point escaped as ECMA-262 writes it,
// \u002F, is read as Go writes it, and held to.
func TestPatternsGoCannotRun(t *testing.T) {
	doc := "openapi: 3.0.3\ninfo: {title: Small, version: 1.0.0}\n" + get(`{type: object, properties: {
        bucket: {type: string, pattern: '^(?!xn--)[a-z0-9-]+$'},
        path: {type: string, pattern: '^\u002Fdata\u002F.+$'}}}`)
	for _, strict := range []bool{false, true} {
		c, err := spec.ReadOptions{Strict: strict}.Read([]byte(doc))
		if err != nil {
			t.Fatalf("strict %v: %v", strict, err)
		}
		var said string
		for _, w := range c.Warnings {
			if strings.Contains(w, "pattern") {
				said += w + "\n"
			}
		}
		if !strings.Contains(said, thing+".properties.bucket.pattern") || !strings.Contains(said, "looks ahead") {
			t.Errorf("strict %v: warnings %q, want the look-ahead of bucket named", strict, said)
		}
		if strings.Contains(said, "properties.path") {
			t.Errorf("strict %v: warnings %q, want path's \\u002F read as Go writes it", strict, said)
		}
		s := c.Doc.Paths.Value("/things").Get.Responses.Status(200).Value.Content.Get("application/json").Schema.Value
		if err := s.VisitJSON(map[string]any{"bucket": "xn--a", "path": "/data/x"}); err != nil {
			t.Errorf("strict %v: a value of the schema without the pattern left out: %v", strict, err)
		}
		if err := s.VisitJSON(map[string]any{"path": "data/x"}); err == nil {
			t.Errorf("strict %v: path data/x passed a pattern that asks for /data/", strict)
		}
	}
}
