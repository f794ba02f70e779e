package conformance

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/conformance/request"
	"github.com/petstore/contract/spec"
)

// testHarness builds the harness of a run of cfg, as BeforeSuite does.
func testHarness(tb testing.TB, cfg Config, seed uint64) *harness {
	tb.Helper()
	if err := cfg.validateFields(); err != nil {
		tb.Fatal(err)
	}
	return newHarness(cfg.settings(nil), preparedFor(tb, cfg), seed)
}

// preparedRuns holds what prepare read for each document and strictness
// the tests judge by, as a prepareKey: it does not change, and its router
// is safe for concurrent use, so the many harnesses of the tests share it.
var preparedRuns sync.Map

// prepareKey is a document and whether a run holds answers to all of it.
type prepareKey struct {
	contract *spec.Contract
	strict   bool
}

// preparedFor returns what prepare reads for a run of cfg.
func preparedFor(tb testing.TB, cfg Config) prepared {
	tb.Helper()
	key := prepareKey{cfg.Contract, cfg.Strict}
	if p, ok := preparedRuns.Load(key); ok {
		return p.(prepared)
	}
	p, err := prepare(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	preparedRuns.Store(key, p)
	return p
}

// TestPastSunset: getPet's specs stop requiring answers from the removal
// date of the document on, and not before.
func TestPastSunset(t *testing.T) {
	for _, tc := range []struct {
		now  string
		past bool
	}{
		{"2030-12-04T23:59:59Z", false},
		{"2030-12-05T00:00:00Z", true},
		{"2031-01-01T00:00:00Z", true},
	} {
		now, _ := time.Parse(time.RFC3339, tc.now)
		h := testHarness(t, Config{BaseURL: "http://h/v1", APIKey: "k", Now: func() time.Time { return now }}, 1)
		if got := h.pastSunset(); got != tc.past {
			t.Errorf("at %s: pastSunset() = %v, want %v", tc.now, got, tc.past)
		}
	}
}

// TestRunsRepeat: the same seed gives the same run id and the same random
// choices; names carry the prefix and the run id.
func TestRunsRepeat(t *testing.T) {
	now := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	a := testHarness(t, Config{BaseURL: "http://h/v1", APIKey: "k", Now: now}, 42)
	b := testHarness(t, Config{BaseURL: "http://h/v1", APIKey: "k", Now: now}, 42)
	if a.RunID() != b.RunID() || a.absentID() != b.absentID() {
		t.Errorf("two harnesses of seed 42 differ: run ids %s, %s", a.RunID(), b.RunID())
	}
	if name := a.PetName(); !strings.HasPrefix(name, request.NamePrefix+a.RunID()+"-") {
		t.Errorf("PetName() = %q, want the prefix %s%s-", name, request.NamePrefix, a.RunID())
	}
	if id := a.absentID(); id < 1<<53 {
		t.Errorf("absentID() = %d, want one in a range no catalogue fills", id)
	}
}

// TestSpeaksHTTPOnly: the suite judges servers over the wire, so its code
// does not import the mock it is often pointed at, nor the servers it is
// tested on. Only tests may.
func TestSpeaksHTTPOnly(t *testing.T) {
	for _, f := range sourceFiles(t) {
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); strings.HasSuffix(path, "/mockserver") || strings.HasSuffix(path, "/conformancetest") {
				t.Errorf("%s imports %s", f, path)
			}
		}
	}
}

// TestOnlySpecsMeetGinkgo: the code that decides returns verdicts, and
// only the spec layer, the *_specs.go files and run.go (which registers
// and runs them), imports Ginkgo or Gomega to turn them into failures and
// skips. So every check can be judged in-process, by a table test. The
// files that write a run's reports from Ginkgo's may read its report
// types.
func TestOnlySpecsMeetGinkgo(t *testing.T) {
	reportWriters := []string{"coverage.go", "junit.go"}
	for _, f := range sourceFiles(t) {
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		specLayer := strings.HasSuffix(f, "_specs.go") || f == "run.go"
		for _, imp := range parsed.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			switch {
			case specLayer:
			case path == "github.com/onsi/ginkgo/v2/types" && slices.Contains(reportWriters, f):
			case strings.HasPrefix(path, "github.com/onsi/"):
				t.Errorf("%s imports %s: only the spec layer (*_specs.go, run.go) may; return a verdict instead", f, path)
			}
		}
	}
}

// TestNoMatcherMessages: no check fails through a stock Gomega matcher,
// whose message would print server values unredacted. Checks compare in Go
// and return verdicts; the one assertion, in verdict_specs.go, goes through
// holdTheContract, whose message is the verdict's redacted report.
func TestNoMatcherMessages(t *testing.T) {
	for _, f := range sourceFiles(t) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(src)
		if f == "verdict_specs.go" {
			text = strings.Replace(text, "Expect(err).To(holdTheContract())", "", 1)
		}
		for _, call := range []string{"Expect(", "Ω(", "Eventually(", "RegisterFailHandler("} {
			if strings.Contains(text, call) {
				t.Errorf("%s calls Gomega's %s", f, call)
			}
		}
	}
}

// TestVerdictMatcher: the spec layer's matcher passes a nil verdict and
// fails any other with the verdict's report as its message.
func TestVerdictMatcher(t *testing.T) {
	m := holdTheContract()
	if ok, err := m.Match(nil); !ok || err != nil {
		t.Errorf("Match(nil) = %v, %v; want true, nil", ok, err)
	}
	b := &judge.Skipped{Reason: "broken rule x: status 200, want 401"}
	if ok, err := m.Match(error(b)); ok || err != nil {
		t.Errorf("Match(a verdict) = %v, %v; want false, nil", ok, err)
	}
	if got := m.FailureMessage(error(b)); got != b.Error() {
		t.Errorf("FailureMessage = %q, want the verdict's report %q", got, b.Error())
	}
	if _, err := m.Match("not a verdict"); err == nil {
		t.Error("Match of a string: no error, want one")
	}
}

// sourceFiles lists the package's Go files, tests left out.
func sourceFiles(tb testing.TB) []string {
	tb.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		tb.Fatal(err)
	}
	return slices.DeleteFunc(files, func(f string) bool { return strings.HasSuffix(f, "_test.go") })
}
