package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// The evolved documents of testdata add to the Petstore's: a field of
// NewPet, and store orders with an inventory report. petmock serves them
// and the suite judges them with no change to either.
// The paths are absolute: the command runs in a directory of its own.
var (
	evolvedField = testdata("evolved-field.yaml")
	evolvedOps   = testdata("evolved-ops.yaml")
)

func testdata(name string) string {
	path, err := filepath.Abs(filepath.Join("..", "..", "testdata", name))
	if err != nil {
		panic(err)
	}
	return path
}

// newPetmockOf returns a petmock of the document at path that accepts
// testKey.
func newPetmockOf(tb testing.TB, path string) http.Handler {
	tb.Helper()
	c, err := spec.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	srv, err := mockserver.New(mockserver.Config{Contract: c, APIKeys: []string{testKey}})
	if err != nil {
		tb.Fatalf("mockserver.New: %v", err)
	}
	return srv
}

// TestEvolvedDocumentsPass: petmock, serving an evolved document, passes
// the suite judging by it, strict or not, and every operation is judged.
func TestEvolvedDocumentsPass(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{evolvedField, evolvedOps} {
		for _, strict := range []bool{false, true} {
			t.Run(filepath.Base(doc)+map[bool]string{false: "", true: " --strict"}[strict], func(t *testing.T) {
				t.Parallel()
				args := []string{"--spec", doc}
				if strict {
					args = append(args, "--strict")
				}
				r := judge(t, serve(t, newPetmockOf(t, doc)), args...)
				if r.code != 0 {
					t.Fatalf("exit %d, want 0\n%s", r.code, r)
				}
				c, _ := spec.ReadFile(doc)
				for _, op := range c.Operations {
					if !strings.Contains(r.stdout, "\n  "+op.ID+" "+op.Method+" "+op.Path) {
						t.Errorf("the coverage summary does not name %s\n%s", op.ID, r.stdout)
					}
				}
				if strings.Contains(r.stdout, "skipped: ") || strings.Contains(r.stdout, "not run: ") {
					t.Errorf("a check of an evolved document did not run\n%s", r.stdout)
				}
			})
		}
	}
}

// brokenEvolved are servers of an evolved document that each break one
// rule of it, with the check that must fail, the rule it must name, and
// words its message must hold, such as the operation at fault.
var brokenEvolved = []struct {
	name  string
	doc   string
	fault fault
	check string
	rule  string
	words string
}{
	{
		name: "has no store orders",
		doc:  evolvedOps,
		fault: func(_ testing.TB, next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/v1/store/orders" && r.Method == http.MethodGet {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusNotFound)
					w.Write([]byte(`{"code":"not_found","message":"no such path","status":404}`))
					return
				}
				next.ServeHTTP(w, r)
			})
		},
		check: "operation listOrders", rule: "operation.exists", words: "the operation listOrders, which the document describes, is missing",
	},
	{
		name:  "drops the new tag of a pet",
		doc:   evolvedField,
		fault: rewriteRequest(dropMember("tag")),
		check: "resource pets", rule: "resource.create", words: "tag is missing",
	},
	{
		name: "cancels no order",
		doc:  evolvedOps,
		fault: func(_ testing.TB, next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodDelete && r.Header.Get("Authorization") == "Bearer "+testKey {
					w.WriteHeader(http.StatusNoContent)
					return
				}
				next.ServeHTTP(w, r)
			})
		},
		check: "resource orders deletes an item", rule: "resource.delete", words: "getOrder of the item deleted: status 200, want 404",
	},
	{
		name: "answers a replace with the order as it was",
		doc:  evolvedOps,
		fault: rewriteRequest(func(r *http.Request) {
			if r.Method == http.MethodPut {
				r.Method = http.MethodGet
				r.Body, r.ContentLength = http.NoBody, 0
			}
		}),
		check: "resource orders replaces an item", rule: "resource.replace", words: "differs from what was sent",
	},
	{
		name:  "changes nothing on an update",
		doc:   evolvedOps,
		fault: rewriteRequest(replaceBody(http.MethodPatch, `{}`)),
		check: "resource orders updates an item", rule: "resource.update", words: "differs from what was written",
	},
	{
		name: "takes any quantity of an order",
		doc:  evolvedOps,
		fault: rewriteRequest(func(r *http.Request) {
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/store/orders") {
				body, _ := io.ReadAll(r.Body)
				body = bytes.ReplaceAll(body, []byte(`"quantity":11`), []byte(`"quantity":10`))
				r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
			}
		}),
		check: "operation placeOrder", rule: "operation.invalid-request", words: "placeOrder with body: quantity above its maximum: status 201, want 400",
	},
	{
		name: "tells the inventory to anyone",
		doc:  evolvedOps,
		fault: rewriteRequest(func(r *http.Request) {
			if strings.HasSuffix(r.URL.Path, "/store/inventory") {
				r.Header.Set("Authorization", "Bearer "+testKey)
			}
		}),
		check: "operation getInventory", rule: "operation.auth", words: "getInventory with no key: status 200, want 401",
	},
	{
		name: "counts the inventory in words",
		doc:  evolvedOps,
		fault: rewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			if strings.HasSuffix(r.URL.Path, "/store/inventory") && rec.Code == http.StatusOK {
				rec.Body = bytes.NewBufferString(`{"available":"many"}`)
			}
		}),
		check: "operation getInventory", rule: "contract.response", words: "getInventory answered 200",
	},
}

// dropMember returns an edit that removes a member from JSON request
// bodies.
func dropMember(name string) func(r *http.Request) {
	return func(r *http.Request) {
		if r.Body == nil || r.Method == http.MethodGet {
			return
		}
		body, _ := io.ReadAll(r.Body)
		var m map[string]json.RawMessage
		if json.Unmarshal(body, &m) == nil {
			delete(m, name)
			body, _ = json.Marshal(m)
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	}
}

// replaceBody returns an edit that replaces the body of requests of a
// method.
func replaceBody(method, body string) func(r *http.Request) {
	return func(r *http.Request) {
		if r.Method == method {
			r.Body, r.ContentLength = io.NopCloser(strings.NewReader(body)), int64(len(body))
		}
	}
}

// TestBrokenEvolvedServersFail judges each broken server by its document
// and expects the run to fail on the rule it breaks, naming what is wrong.
func TestBrokenEvolvedServersFail(t *testing.T) {
	t.Parallel()
	for _, tc := range brokenEvolved {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			url := serve(t, tc.fault(t, newPetmockOf(t, tc.doc)))
			r := judge(t, url, "--spec", tc.doc, "--settle", "200ms")
			if r.code != 1 {
				t.Fatalf("exit %d, want 1\n%s", r.code, r)
			}
			var named bool
			for _, c := range failures(parseJUnit(t, r.junit)) {
				text := c.Failure.Text + c.Failure.Message
				if strings.Contains(c.Name, tc.check) && strings.Contains(text, "broken rule "+tc.rule+":") && strings.Contains(text, tc.words) {
					named = true
				}
			}
			if !named {
				var failed []string
				for _, c := range failures(parseJUnit(t, r.junit)) {
					failed = append(failed, c.Name)
				}
				t.Errorf("no failed check named %q breaks rule %s saying %q; failed:\n  %s\n%s", tc.check, tc.rule, tc.words, strings.Join(failed, "\n  "), r.stdout)
			}
			assertNoKey(t, r)
		})
	}
}

// lagging keeps each item created out of every answer for lag: a
// deployment whose reads catch up with its writes a little later, as the
// interface allows.
func lagging(next http.Handler, lag time.Duration) http.Handler {
	var mu sync.Mutex
	created := map[string]time.Time{} // path of an item, to when it was created
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		at, ok := created[r.URL.Path]
		mu.Unlock()
		if ok && r.Method == http.MethodGet && time.Since(at) < lag {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"code":"E404","message":"not yet","status":404}`))
			return
		}
		intercept(next, func(r *http.Request, rec *httptest.ResponseRecorder) {
			if r.Method == http.MethodPost && rec.Code == http.StatusCreated {
				if loc := rec.Header().Get("Location"); loc != "" {
					if i := strings.Index(loc, "/v1/"); i >= 0 {
						mu.Lock()
						created[loc[i:]] = time.Now()
						mu.Unlock()
					}
				}
			}
		}).ServeHTTP(w, r)
	})
}

// TestEvolvedGapsFilledDifferently: servers of the evolved documents that
// fill the interface's gaps otherwise than petmock pass by default: other
// error codes, no links, locations or challenges, and reads that catch up
// with writes a moment later.
func TestEvolvedGapsFilledDifferently(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		doc   string
		start func(tb testing.TB) http.Handler
	}{
		{"orders, their gaps filled otherwise", evolvedOps, func(tb testing.TB) http.Handler {
			return gapsFilledDifferently(newPetmockOf(tb, evolvedOps))
		}},
		{"orders read a moment after they are written", evolvedOps, func(tb testing.TB) http.Handler {
			return lagging(newPetmockOf(tb, evolvedOps), 300*time.Millisecond)
		}},
		{"a tagged pet read a moment after it is written", evolvedField, func(tb testing.TB) http.Handler {
			return lagging(gapsFilledDifferently(newPetmockOf(tb, evolvedField)), 300*time.Millisecond)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := judge(t, serve(t, tc.start(t)), "--spec", tc.doc)
			if r.code != 0 {
				t.Fatalf("exit %d, want 0: the server conforms\n%s", r.code, r)
			}
		})
	}
}
