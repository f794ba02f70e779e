package conformancetest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/petstore/contract/spec"
)

// EventuallyConsistent wraps next, a server of the document of c, into
// one whose reads and lists show each item created only lag after its
// create answered, as a store read from replicas does: until then a read
// of it answers the 404 next answers an id no item has, and lists leave
// it out of their pages, whose next links still count it, so that a page
// falls short of its limit and links to a page that holds nothing. The
// interface allows it: a check that looks for a write must look again
// within the settle window.
func EventuallyConsistent(tb testing.TB, c *spec.Contract, next http.Handler, lag time.Duration) http.Handler {
	tb.Helper()
	return hiding(tb, c, next, func(created time.Time) bool { return time.Since(created) < lag })
}

// Forgetful wraps next, a server of the document of c, into one that
// loses each item created after its create answered: from then on a read
// of it answers the 404 next answers an id no item has, and lists leave it
// out, as a store that drops a write it took, or a cache that expires it,
// does. It breaks resource.kept.
func Forgetful(tb testing.TB, c *spec.Contract, next http.Handler, after time.Duration) http.Handler {
	tb.Helper()
	return hiding(tb, c, next, func(created time.Time) bool { return time.Since(created) > after })
}

// hiding wraps next, a server of the document of c, into one that hides
// each item created while hidden says so of when it was created: a read of
// it answers the 404 next answers an id no item has, and lists leave it
// out of their pages, whose next links still count it.
func hiding(tb testing.TB, c *spec.Contract, next http.Handler, hides func(created time.Time) bool) http.Handler {
	tb.Helper()
	router, err := spec.NewRouter(c.Doc)
	if err != nil {
		tb.Fatal(err)
	}
	var mu sync.Mutex
	created := map[string]time.Time{} // by resource name and id
	hidden := func(res *spec.Resource, id string) bool {
		mu.Lock()
		defer mu.Unlock()
		at, ok := created[res.Name+"\x00"+id]
		return ok && hides(at)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route, params, err := router.FindRoute(r)
		if err != nil {
			next.ServeHTTP(w, r)
			return
		}
		op := c.RouteOperation(route)
		res := op.Resource
		if res == nil {
			next.ServeHTTP(w, r)
			return
		}
		switch {
		case op == res.Read && hidden(res, params[res.IDParam]):
			// next's own answer to an id no item has.
			unknown := r.Clone(r.Context())
			none := "999999999"
			if res.IDIsString {
				none = "conformance-not-yet-shown"
			}
			unknown.URL.Path = strings.TrimSuffix(r.URL.Path, params[res.IDParam]) + none
			unknown.URL.RawPath = ""
			next.ServeHTTP(w, unknown)
		case op == res.List || op == res.CreateOp:
			var sent []byte
			if op == res.CreateOp && r.Body != nil {
				// A create that answers no item keeps the id it sent.
				sent, _ = io.ReadAll(r.Body)
				r = r.Clone(r.Context())
				r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(sent)), int64(len(sent))
			}
			Intercept(next, func(_ *http.Request, rec *httptest.ResponseRecorder) {
				if rec.Code/100 != 2 {
					return
				}
				if op == res.CreateOp {
					for _, body := range []struct {
						text    []byte
						wrapper *spec.Wrapper // how it holds the item
					}{{rec.Body.Bytes(), res.Wrapped[op]}, {sent, res.BodyWrapped[op]}} {
						var v any
						dec := json.NewDecoder(bytes.NewReader(body.text))
						dec.UseNumber()
						if dec.Decode(&v) != nil {
							continue
						}
						if w := body.wrapper; w != nil {
							m, _ := v.(map[string]any)
							v = m[w.Property]
						}
						if item, _ := v.(map[string]any); item[res.IDProperty] != nil {
							mu.Lock()
							created[res.Name+"\x00"+spec.ValueText(item[res.IDProperty])] = time.Now()
							mu.Unlock()
							break
						}
					}
					return
				}
				EditJSON(rec, func(v any) any {
					return withItems(c, res, v, func(items []any) []any {
						kept := []any{}
						for _, it := range items {
							if m, ok := it.(map[string]any); ok && hidden(res, spec.ValueText(m[res.IDProperty])) {
								continue
							}
							kept = append(kept, it)
						}
						return kept
					})
				})
			}).ServeHTTP(w, r)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// withItems returns v, an answer of the list of res, with its items, the
// array answered or the one its envelope holds, as edit changes them. No
// items left, an envelope's items property that takes at least one and
// is not required is left out, as Twitter's lists leave out data.
func withItems(c *spec.Contract, res *spec.Resource, v any, edit func(items []any) []any) any {
	items, ok := res.ListEnvelope.ItemsOf(v)
	if !ok {
		return v
	}
	e := res.ListEnvelope
	if e == nil {
		return edit(items)
	}
	m := v.(map[string]any)
	if items = edit(items); len(items) == 0 && e.LeavesOutNone(c) {
		delete(m, e.Items)
		return v
	}
	m[e.Items] = items
	return v
}
