package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/corpus"
)

// The corpus is public documents nobody on this project wrote (see
// testdata/corpus/documents.json). The suite judges petmock serving each
// of them, by the document alone: it passes, in default and strict mode,
// and a petmock whose answers break the document fails.

// servedAt serves h and returns the base URL of a document whose server
// is at base.
func servedAt(tb testing.TB, h http.Handler, base string) string {
	tb.Helper()
	hs := httptest.NewServer(h)
	tb.Cleanup(hs.Close)
	return hs.URL + base
}

// wrongType answers each success in JSON with a value of another type
// than the one sent: an array for an object, an object for anything else.
var wrongType = ct.RewriteResponse(func(_ *http.Request, rec *httptest.ResponseRecorder) {
	if rec.Code/100 != 2 || !strings.Contains(rec.Header().Get("Content-Type"), "json") {
		return
	}
	body := bytes.TrimSpace(rec.Body.Bytes())
	if len(body) == 0 || !json.Valid(body) {
		return
	}
	rec.Body.Reset()
	if body[0] == '{' {
		rec.Body.WriteString(`["not", "the", "object"]`)
		return
	}
	rec.Body.WriteString(`{"not": "the value"}`)
})

func TestCorpusPetmockPasses(t *testing.T) {
	t.Parallel()
	for _, f := range corpus.Documents(t) {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			c, err := spec.ReadFile(f.Path)
			if err != nil {
				t.Fatalf("%s (%s): %v", f.Name, f.Source, err)
			}
			url := servedAt(t, ct.PetmockOf(t, f.Path), c.Base)
			for _, mode := range [][]string{nil, {"--strict"}} {
				r := judge(t, url, append([]string{"--spec", f.Path}, mode...)...)
				if r.code != 0 {
					t.Errorf("petmock serving %s (%s), %v: exit %d, want 0\n%s", f.Name, f.Source, mode, r.code, r)
				}
				assertNoKey(t, r)
				// A pass is only as good as what was judged: every
				// operation at least once, and no more skipped than run.
				if len(c.Operations) == 0 {
					continue // only webhooks: nothing to judge
				}
				var passed, skipped int
				for _, jc := range parseJUnit(t, r.junit) {
					switch {
					case jc.Skipped != nil:
						skipped++
					case jc.Failure == nil:
						passed++
					}
				}
				t.Logf("%s %v: %d operations, %d checks passed, %d skipped", f.Name, mode, len(c.Operations), passed, skipped)
				if passed < len(c.Operations) || skipped > passed {
					t.Errorf("petmock serving %s, %v: %d checks passed and %d skipped for %d operations; the run judged too little\n%s", f.Name, mode, passed, skipped, len(c.Operations), r.stdout)
				}
			}
		})
	}
}

// corpusBreaks are the ways a petmock of a corpus document is broken,
// each where the document has what it breaks.
var corpusBreaks = []struct {
	name    string
	applies func(c *spec.Contract) bool
	fault   func(tb testing.TB, c *spec.Contract) ct.Fault
}{
	{"answers of the wrong type", answersJSON, func(testing.TB, *spec.Contract) ct.Fault { return wrongType }},
	{"successes of a status not documented", hasUndocumentedSuccess, otherSuccess},
}

func TestCorpusBrokenPetmockFails(t *testing.T) {
	t.Parallel()
	for _, f := range corpus.Documents(t) {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			c, err := spec.ReadFile(f.Path)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Operations) == 0 {
				t.Skipf("%s describes no operation to break", f.Name)
			}
			var broken int
			for _, b := range corpusBreaks {
				if !b.applies(c) {
					continue
				}
				broken++
				url := servedAt(t, b.fault(t, c)(t, ct.PetmockOf(t, f.Path)), c.Base)
				r := judge(t, url, "--spec", f.Path)
				if r.code != 1 {
					t.Errorf("petmock serving %s with %s: exit %d, want 1\n%s", f.Name, b.name, r.code, r)
					continue
				}
				var named bool
				for _, fc := range failures(parseJUnit(t, r.junit)) {
					if strings.Contains(fc.Failure.Text+fc.Failure.Message, "broken rule ") {
						named = true
					}
				}
				if !named {
					t.Errorf("petmock serving %s with %s: no failed check names the rule broken\n%s", f.Name, b.name, r)
				}
			}
			if broken == 0 {
				t.Errorf("%s: no way to break petmock serving it applies", f.Name)
			}
		})
	}
}

// otherSuccess answers each success with a 2xx its operation does not
// document, as a server does that answers a create 200 where its document
// says 201.
func otherSuccess(tb testing.TB, c *spec.Contract) ct.Fault {
	router, err := spec.NewRouter(c.Doc)
	if err != nil {
		tb.Fatal(err)
	}
	return ct.RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
		if rec.Code/100 != 2 {
			return
		}
		route, _, err := router.FindRoute(r)
		if err != nil {
			return
		}
		if status, ok := undocumentedSuccess(c.RouteOperation(route)); ok {
			rec.Code = status
		}
	})
}

// undocumentedSuccess returns a 2xx that op does not document, one a body
// may come with, or false where op documents a default response, which
// takes any status.
func undocumentedSuccess(op *spec.Operation) (int, bool) {
	if op == nil || op.Op.Responses.Default() != nil {
		return 0, false
	}
	for _, s := range []int{http.StatusOK, http.StatusCreated, http.StatusAccepted} {
		if !op.Documents(s) {
			return s, true
		}
	}
	return 0, false
}

// hasUndocumentedSuccess says whether an operation of c documents a
// success, and a 2xx it does not.
func hasUndocumentedSuccess(c *spec.Contract) bool {
	for _, op := range c.Operations {
		if _, ok := undocumentedSuccess(op); ok && op.Success != 0 {
			return true
		}
	}
	return false
}

// answersJSON says whether an operation of c answers a success in JSON
// with a schema that refuses what wrongType sends instead.
func answersJSON(c *spec.Contract) bool {
	for _, op := range c.Operations {
		s := op.JSONSchema(op.Success)
		if s == nil {
			continue
		}
		opts := spec.SchemaOptions(c.Doc)
		if s.VisitJSON([]any{"not", "the", "object"}, opts...) != nil && s.VisitJSON(map[string]any{"not": "the value"}, opts...) != nil {
			return true
		}
	}
	return false
}

// TestCorpusOtherwiseCorrectPasses: a correct server of each document of
// the corpus that answers otherwise than petmock where the document
// leaves it open passes, in default and strict runs: errors of codes and
// messages of its own, no Location, JSON with a charset, and
// the errors the document gives no body, such as a 401 it does not
// document, empty. The runs meet each of those answers.
func TestCorpusOtherwiseCorrectPasses(t *testing.T) {
	t.Parallel()
	var met struct {
		sync.Mutex
		charset, ownWords, empty map[string]bool // by document
	}
	met.charset, met.ownWords, met.empty = map[string]bool{}, map[string]bool{}, map[string]bool{}
	documents := corpus.Documents(t)
	// The runs are parallel within a group of their own, so that what
	// they met is known once the group has ended.
	t.Run("documents", func(t *testing.T) {
		for _, f := range documents {
			t.Run(f.Name, func(t *testing.T) {
				t.Parallel()
				c, err := spec.ReadFile(f.Path)
				if err != nil {
					t.Fatal(err)
				}
				seen := ct.Intercept(ct.OtherwiseCorrect(t, c, ct.PetmockOf(t, f.Path)), func(_ *http.Request, rec *httptest.ResponseRecorder) {
					met.Lock()
					defer met.Unlock()
					met.charset[f.Name] = met.charset[f.Name] || strings.Contains(rec.Header().Get("Content-Type"), "charset=utf-8")
					met.ownWords[f.Name] = met.ownWords[f.Name] || strings.Contains(rec.Body.String(), "this server's own")
					met.empty[f.Name] = met.empty[f.Name] || rec.Code >= 400 && rec.Body.Len() == 0
				})
				url := servedAt(t, seen, c.Base)
				for _, mode := range [][]string{nil, {"--strict"}} {
					r := judge(t, url, append([]string{"--spec", f.Path}, mode...)...)
					if r.code != 0 {
						t.Errorf("a correct server of %s, otherwise than petmock, %v: exit %d, want 0\n%s", f.Name, mode, r.code, r)
					}
				}
			})
		}
	})
	for _, want := range []struct {
		doc  string
		what string
		met  map[string]bool
	}{
		{"oai-petstore-expanded", "JSON with a charset", met.charset},
		{"oai-petstore-expanded", "an error of a code and message of its own", met.ownWords},
		{"swagger-petstore-v2-oas3", "an empty error body", met.empty},
		{"swagger-petstore-v3", "an error of a code and message of its own", met.ownWords},
	} {
		if !want.met[want.doc] {
			t.Errorf("the runs of %s met no answer of %s", want.doc, want.what)
		}
	}
}
