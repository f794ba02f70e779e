package main

import (
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
				// operation at least once, and no more skipped than run,
				// but for the checks only a strict run makes, which a
				// default run skips saying --strict holds them.
				if len(c.Operations) == 0 {
					continue // only webhooks: nothing to judge
				}
				var passed, skipped int
				for _, jc := range parseJUnit(t, r.junit) {
					switch {
					case jc.Skipped != nil && strings.Contains(jc.Skipped.Message, "--strict holds it to"):
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

// kitTally counts what the kit found over the corpus: faults that applied
// and were caught, or not, and correct variants that passed, or not.
type kitTally struct {
	sync.Mutex
	caught, missed, passed, alarms int
	notApplied                     map[string]int // by fault
}

// TestCorpusKit runs conformancetest's generic broken servers over every
// document of the corpus, each a petmock of the document broken one way:
// each fault the document has what it breaks of is caught, naming one of
// its rules, and each correct variant, a pass-through and one that writes
// its JSON otherwise, passes, in default and strict runs. The test says of
// each fault that did not apply to a document why.
func TestCorpusKit(t *testing.T) {
	t.Parallel()
	tally := &kitTally{notApplied: map[string]int{}}
	t.Run("documents", func(t *testing.T) {
		for _, f := range corpus.Documents(t) {
			t.Run(f.Name, func(t *testing.T) {
				t.Parallel()
				c, err := spec.ReadFile(f.Path)
				if err != nil {
					t.Fatal(err)
				}
				judgeKit(t, tally, f.Name, f.Path, c)
			})
		}
	})
	t.Logf("the kit over the corpus: %d faults caught, %d missed; %d runs of correct variants passed, %d false alarms; faults that did not apply: %v",
		tally.caught, tally.missed, tally.passed, tally.alarms, tally.notApplied)
}

// judgeKit judges petmock serving the document of c, at path, through
// each fault and each correct variant of the kit.
func judgeKit(t *testing.T, tally *kitTally, name, path string, c *spec.Contract) {
	t.Helper()
	for _, v := range ct.KitCorrect {
		url := servedAt(t, v.Wrap(t, c, ct.PetmockOf(t, path)), c.Base)
		for _, mode := range [][]string{nil, {"--strict"}} {
			r := judge(t, url, append([]string{"--spec", path}, mode...)...)
			tally.Lock()
			if r.code == 0 {
				tally.passed++
			} else {
				tally.alarms++
			}
			tally.Unlock()
			if r.code != 0 {
				t.Errorf("%s, a correct server that %s, %v: exit %d, want 0\n%s", name, v.Name, mode, r.code, r)
			}
			assertNoKey(t, r)
		}
	}
	for _, fault := range ct.Kit {
		if why := fault.NotApplied(c); why != "" {
			t.Logf("%s: the fault %q does not apply: %s", name, fault.Name, why)
			tally.Lock()
			tally.notApplied[fault.Name]++
			tally.Unlock()
			continue
		}
		url := servedAt(t, fault.Wrap(t, c, ct.PetmockOf(t, path)), c.Base)
		args := []string{"--spec", path, "--settle", "200ms"}
		if fault.Labels != "" {
			args = append(args, "--label-filter", fault.Labels)
		}
		r := judge(t, url, args...)
		caught := false
		for _, fc := range failures(parseJUnit(t, r.junit)) {
			for _, rule := range fault.Rules {
				if strings.Contains(fc.Failure.Text+fc.Failure.Message, "broken rule "+rule+":") {
					caught = true
				}
			}
		}
		tally.Lock()
		if caught && r.code == 1 {
			tally.caught++
		} else {
			tally.missed++
		}
		tally.Unlock()
		if !caught || r.code != 1 {
			t.Errorf("%s, petmock that %s: exit %d, want 1 and a failure of one of %v\n%s", name, fault.Name, r.code, fault.Rules, r)
		}
		assertNoKey(t, r)
	}
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
