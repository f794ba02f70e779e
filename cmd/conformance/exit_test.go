package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
)

// TestBrokenContractsExit1: exit status 2 is for a run that could not
// judge; a deployment whose answers break the contract from the first one
// on exits 1, with the checks that say how. A JSON answer labelled
// text/html is not an HTML page, and a key refused as the document asks
// but taken in another form is the deployment's fault.
func TestBrokenContractsExit1(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		fault ct.Fault
		says  string
	}{
		{"JSON labelled text/html", ct.RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
			rec.Header().Set("Content-Type", "text/html; charset=utf-8")
		}), "broken rule contract.response:"},
		{"the key taken only as X-API-Key", func(_ testing.TB, next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				r = r.Clone(r.Context())
				r.Header.Del("Authorization")
				if k := r.Header.Get("X-API-Key"); k != "" {
					r.Header.Set("Authorization", "Bearer "+k)
				}
				next.ServeHTTP(w, r)
			})
		}, "broken rule operation.success:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := judge(t, serve(t, tc.fault(t, ct.Petmock(t))), "--settle", "200ms")
			if r.code != 1 {
				t.Fatalf("exit %d, want 1: the deployment breaks the contract\n%s", r.code, r)
			}
			if !strings.Contains(r.stdout, tc.says) {
				t.Errorf("the output does not say %q\n%s", tc.says, r)
			}
			assertNoKey(t, r)
		})
	}
}

// TestAnyDocumentIsJudged: a document without the Petstore's operations
// is judged by the generic rules, not refused: petmock serving it passes,
// the run names each of its operations in the coverage summary, and its
// reports name the suite after the document's title.
func TestAnyDocumentIsJudged(t *testing.T) {
	t.Parallel()
	doc := ct.WriteDocument(t, ct.Widgets)
	url := strings.TrimSuffix(serve(t, ct.PetmockOf(t, doc)), "/v1") + "/api"
	r := judge(t, url, "--spec", doc)
	if r.code != 0 {
		t.Fatalf("exit %d, want 0\n%s", r.code, r)
	}
	for _, op := range []string{"listWidgets GET /widgets", "makeWidget POST /widgets", "getWidget GET /widgets/{widgetId}"} {
		if !strings.Contains(r.stdout, "\n  "+op) {
			t.Errorf("the coverage summary does not name %s\n%s", op, r.stdout)
		}
	}
	for name, out := range map[string]string{"the log": r.stdout, "the JUnit report": string(r.junit)} {
		if !strings.Contains(out, "Widgets conformance") || strings.Contains(out, "Petstore") {
			t.Errorf("%s does not name the suite after the document, Widgets conformance\n%s", name, out)
		}
	}
	assertNoKey(t, r)
}

// TestCoverageSaysBehaviour: the coverage summary says, for each
// operation, which behaviour checks ran, and why the others did not, in
// words: a read that documents no 404, a list without a filter, an
// operation of no resource.
func TestCoverageSaysBehaviour(t *testing.T) {
	t.Parallel()
	doc := ct.WriteDocument(t, ct.Notes)
	url := strings.TrimSuffix(serve(t, ct.PetmockOf(t, doc)), "/v1") + "/n"
	r := judge(t, url, "--spec", doc)
	if r.code != 0 {
		t.Fatalf("exit %d, want 0\n%s", r.code, r)
	}
	lines := strings.Split(r.stdout, "\n")
	behaviour := func(op string) string {
		for i, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), op+" ") {
				for _, next := range lines[i+1:] {
					next = strings.TrimSpace(next)
					if after, ok := strings.CutPrefix(next, "behaviour: "); ok {
						return after
					}
					if !strings.HasPrefix(next, "skipped:") && !strings.HasPrefix(next, "sampled:") {
						break
					}
				}
			}
		}
		return ""
	}
	for _, tc := range []struct{ op, says string }{
		{"listNotes", "read after create and listed ran"},
		{"listNotes", "limit bounds the list ran"},
		{"listNotes", "filters match not checked: the list has no query parameter that matches a property of its items"},
		{"getNote", "an unknown id 404s skipped: getNote documents no 404"},
		{"deleteNote", "delete, then 404 and unlisted ran"},
		{"sendNotes", "none: not part of a resource"},
	} {
		if got := behaviour(tc.op); !strings.Contains(got, tc.says) {
			t.Errorf("%s: the coverage summary says %q, want %q\n%s", tc.op, got, tc.says, r.stdout)
		}
	}
}
