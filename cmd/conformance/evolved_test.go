package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/spec"
)

// The evolved documents of testdata add to the Petstore's: a field of
// NewPet, and store orders with an inventory report. petmock serves them
// and the suite judges them with no change to either.

// TestEvolvedDocumentsPass: petmock, serving an evolved document, passes
// a strict run of the suite judging by it, and every operation is judged.
// Package conformance runs every check of both documents against petmock
// in-process, strict or not.
func TestEvolvedDocumentsPass(t *testing.T) {
	t.Parallel()
	for _, name := range []string{ct.EvolvedField, ct.EvolvedOps} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			doc := ct.Testdata(t, name)
			r := judge(t, serve(t, ct.PetmockOf(t, doc)), "--spec", doc, "--strict")
			if r.code != 0 {
				t.Fatalf("exit %d, want 0\n%s", r.code, r)
			}
			c, err := spec.ReadFile(doc)
			if err != nil {
				t.Fatal(err)
			}
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

// TestBrokenEvolvedServersFail judges the first broken server of an
// evolved document of each family of rules by its document, with a full
// run, and expects the run to fail on the rule it breaks, naming what is
// wrong. Package conformance judges each of them in-process.
func TestBrokenEvolvedServersFail(t *testing.T) {
	t.Parallel()
	judged := map[string]bool{}
	for _, tc := range ct.BrokenEvolvedServers {
		if judged[ruleFamily(tc.Rule)] {
			continue
		}
		judged[ruleFamily(tc.Rule)] = true
		t.Run(tc.Name, func(t *testing.T) {
			t.Parallel()
			doc := ct.Testdata(t, tc.Doc)
			url := serve(t, tc.Fault(t, ct.PetmockOf(t, doc)))
			r := judge(t, url, "--spec", doc, "--settle", "200ms")
			if r.code != 1 {
				t.Fatalf("exit %d, want 1\n%s", r.code, r)
			}
			var named bool
			for _, c := range failures(parseJUnit(t, r.junit)) {
				text := c.Failure.Text + c.Failure.Message
				if strings.Contains(c.Name, tc.Check) && strings.Contains(text, "broken rule "+tc.Rule+":") && strings.Contains(text, tc.Words) {
					named = true
				}
			}
			if !named {
				var failed []string
				for _, c := range failures(parseJUnit(t, r.junit)) {
					failed = append(failed, c.Name)
				}
				t.Errorf("no failed check named %q breaks rule %s saying %q; failed:\n  %s\n%s", tc.Check, tc.Rule, tc.Words, strings.Join(failed, "\n  "), r.stdout)
			}
			assertNoKey(t, r)
		})
	}
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
		start func(tb testing.TB, doc string) http.Handler
	}{
		{"orders, their gaps filled otherwise", ct.EvolvedOps, func(tb testing.TB, doc string) http.Handler {
			return ct.GapsFilledDifferently(ct.PetmockOf(tb, doc))
		}},
		{"orders read a moment after they are written", ct.EvolvedOps, func(tb testing.TB, doc string) http.Handler {
			return ct.Lagging(ct.PetmockOf(tb, doc), 300*time.Millisecond)
		}},
		{"a tagged pet read a moment after it is written", ct.EvolvedField, func(tb testing.TB, doc string) http.Handler {
			return ct.Lagging(ct.GapsFilledDifferently(ct.PetmockOf(tb, doc)), 300*time.Millisecond)
		}},
		{"orders replaced with defaults of its own", ct.EvolvedOps, func(tb testing.TB, doc string) http.Handler {
			return ct.RewriteRequest(ct.DefaultsOnReplace(map[string]any{
				"status": "approved", "complete": true, "shipDate": time.Now().UTC().Format(time.RFC3339),
			}))(tb, ct.PetmockOf(tb, doc))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			doc := ct.Testdata(t, tc.doc)
			r := judge(t, serve(t, tc.start(t, doc)), "--spec", doc)
			if r.code != 0 {
				t.Fatalf("exit %d, want 0: the server conforms\n%s", r.code, r)
			}
		})
	}
}
