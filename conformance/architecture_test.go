package conformance

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/petstore/contract/conformance/judge"
)

// The suite is built of packages of one idea each, which import down:
// the floors below say, for each package under conformance, the packages
// of the suite it may import. A package missing here fails
// TestPackagesImportDown until it is given its floor.
const suitePath = "github.com/petstore/contract/conformance"

var floors = map[string][]string{
	// The specs, the run and its reports: above everything.
	".": {"check", "request", "judge"},
	// The checks, which return verdicts.
	"check": {"request", "judge"},
	// The requests made from the document.
	"request": {"judge"},
	// One answer judged, and the client that judges every answer.
	"judge": {},
	// Servers that test the judge, which only tests import.
	"conformancetest": {},
	// The requests of an app's journal replayed and judged, one by one.
	"replay": {"judge"},
}

// decisionPackages are the packages that decide, and know nothing of
// Ginkgo or Gomega: a verdict is a value a table test checks in-process.
var decisionPackages = []string{"check", "request", "judge"}

// TestSpeaksHTTPOnly: the suite judges servers over the wire, so no code of
// any of its packages imports the mock it is often pointed at, nor the
// servers it is tested on. Only tests may, and conformancetest, the
// servers the judge is tested on, is built of petmock.
func TestSpeaksHTTPOnly(t *testing.T) {
	for _, pkg := range suitePackages(t) {
		if pkg == "conformancetest" {
			continue
		}
		for _, f := range goFiles(t, pkg, false) {
			for _, path := range imports(t, f) {
				if strings.HasSuffix(path, "/mockserver") || strings.Contains(path, "/mockserver/") || strings.HasSuffix(path, "/conformancetest") {
					t.Errorf("%s imports %s", f, path)
				}
			}
		}
	}
}

// TestPackagesImportDown: each package of the suite imports only those
// below its floor, tests included, so that no package knows one above it
// or beside it: the checks do not know the specs that run them, the
// requests do not know the checks, and the judge knows neither.
func TestPackagesImportDown(t *testing.T) {
	for _, pkg := range suitePackages(t) {
		allowed, ok := floors[pkg]
		if !ok {
			t.Errorf("conformance/%s has no floor: say in floors which packages of the suite it may import", pkg)
			continue
		}
		for _, f := range goFiles(t, pkg, true) {
			for _, path := range imports(t, f) {
				rest, inSuite := strings.CutPrefix(path, suitePath)
				if !inSuite || strings.HasSuffix(f, "_test.go") && rest == "/conformancetest" {
					continue
				}
				if rest == "" {
					rest = "."
				}
				if to := strings.TrimPrefix(rest, "/"); to != pkg && !slices.Contains(allowed, to) {
					t.Errorf("%s imports %s: conformance/%s may import only %v", f, path, pkg, allowed)
				}
			}
		}
	}
}

// TestOnlySpecsMeetGinkgo: the code that decides returns verdicts, and
// only the spec layer, the *_specs.go files and run.go (which registers
// and runs them), imports Ginkgo or Gomega to turn them into failures and
// skips. The packages that decide, check, request and judge, import
// neither, tests included. So every check can be judged in-process, by a
// table test. The files that write a run's reports from Ginkgo's may read
// its report types.
func TestOnlySpecsMeetGinkgo(t *testing.T) {
	reportWriters := []string{"coverage.go", "junit.go", "behaviour.go"}
	for _, f := range goFiles(t, ".", false) {
		specLayer := strings.HasSuffix(f, "_specs.go") || f == "run.go"
		for _, path := range imports(t, f) {
			switch {
			case specLayer:
			case path == "github.com/onsi/ginkgo/v2/types" && slices.Contains(reportWriters, f):
			case strings.HasPrefix(path, "github.com/onsi/"):
				t.Errorf("%s imports %s: only the spec layer (*_specs.go, run.go) may; return a verdict instead", f, path)
			}
		}
	}
	for _, pkg := range decisionPackages {
		for _, f := range goFiles(t, pkg, true) {
			for _, path := range imports(t, f) {
				if strings.HasPrefix(path, "github.com/onsi/") {
					t.Errorf("%s imports %s: a package that decides returns verdicts, and the specs of package conformance meet Ginkgo", f, path)
				}
			}
		}
	}
}

// TestEveryPackageSaysItsIdea: each package of the suite has a doc.go
// whose package comment says its one idea.
func TestEveryPackageSaysItsIdea(t *testing.T) {
	for _, pkg := range suitePackages(t) {
		f := filepath.Join(pkg, "doc.go")
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Errorf("conformance/%s: %v", pkg, err)
			continue
		}
		if doc := parsed.Doc.Text(); !strings.HasPrefix(doc, "Package "+parsed.Name.Name+" ") {
			t.Errorf("%s: the package comment does not begin %q:\n%s", f, "Package "+parsed.Name.Name, doc)
		}
	}
}

// TestNoMatcherMessages: no check fails through a stock Gomega matcher,
// whose message would print server values unredacted. Checks compare in Go
// and return verdicts; the one assertion, in verdict_specs.go, goes through
// holdTheContract, whose message is the verdict's redacted report.
func TestNoMatcherMessages(t *testing.T) {
	for _, f := range goFiles(t, ".", false) {
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

// suitePackages lists the packages of the suite, as directories below
// this one: "." for conformance itself.
func suitePackages(tb testing.TB) []string {
	tb.Helper()
	var out []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && path != ".") {
			return filepath.SkipDir
		}
		if d.IsDir() {
			if files, _ := filepath.Glob(filepath.Join(path, "*.go")); len(files) > 0 {
				out = append(out, filepath.ToSlash(path))
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// goFiles lists the Go files of the package in dir, tests with tests.
func goFiles(tb testing.TB, dir string, tests bool) []string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		tb.Fatal(err)
	}
	return slices.DeleteFunc(files, func(f string) bool { return !tests && strings.HasSuffix(f, "_test.go") })
}

// imports returns the paths f imports.
func imports(tb testing.TB, f string) []string {
	tb.Helper()
	parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, imp := range parsed.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		out = append(out, path)
	}
	return out
}
