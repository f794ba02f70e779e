package main

import (
	"maps"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// judgePackages are the packages a mock server has no use for: the
// conformance suite, and the Ginkgo and Gomega it is written with; the
// comparison of two documents, and the oasdiff it is made with. Linked
// into petmock they would only grow the binary and run their
// initialisation in every petmock process.
var judgePackages = []string{
	"github.com/petstore/contract/conformance",
	"github.com/onsi/ginkgo",
	"github.com/onsi/gomega",
	"github.com/petstore/contract/spec/compat",
	"github.com/oasdiff/oasdiff",
}

// TestLinksNoJudge lists what petmock links, with go list, and fails for
// each package of the judge among them, naming the imports that bring it
// in.
func TestLinksNoJudge(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	imports := map[string][]string{} // package, to the packages it imports
	var main string
	for line := range strings.Lines(strings.TrimSpace(string(out))) {
		fields := strings.Fields(line)
		imports[fields[0]] = fields[1:]
		main = fields[0] // go list -deps lists the package itself last
	}
	if len(imports) < 10 {
		t.Fatalf("go list -deps listed %d packages; the test cannot judge the import graph:\n%s", len(imports), out)
	}
	// Each package of the judge is reported where petmock's own imports
	// reach it; those it brings in with it are only counted.
	var judged []string
	entries := map[string]bool{}
	for pkg, imps := range imports {
		if isJudge(pkg) {
			judged = append(judged, pkg)
			continue
		}
		for _, imp := range imps {
			if isJudge(imp) {
				entries[imp] = true
			}
		}
	}
	for _, pkg := range slices.Sorted(maps.Keys(entries)) {
		t.Errorf("petmock links %s, through %s", pkg, strings.Join(importPath(imports, main, pkg), " -> "))
	}
	if len(judged) > 0 {
		t.Errorf("petmock links %d packages of the judge in all", len(judged))
	}
}

// isJudge reports whether pkg is one of judgePackages, or below one.
func isJudge(pkg string) bool {
	return slices.ContainsFunc(judgePackages, func(p string) bool {
		return pkg == p || strings.HasPrefix(pkg, p+"/")
	})
}

// importPath returns the shortest chain of imports from one package to
// another, both ends included.
func importPath(imports map[string][]string, from, to string) []string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		pkg := queue[0]
		queue = queue[1:]
		if pkg == to {
			var chain []string
			for p := to; p != ""; p = prev[p] {
				chain = append(chain, p)
			}
			slices.Reverse(chain)
			return chain
		}
		for _, imp := range imports[pkg] {
			if _, seen := prev[imp]; !seen {
				prev[imp] = pkg
				queue = append(queue, imp)
			}
		}
	}
	return []string{from, "?", to}
}
