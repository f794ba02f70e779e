package mockserver_test

import (
	"maps"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// module is the import path of the project.
const module = "github.com/petstore/contract/"

// rooms says, of each package of the house, the packages of the project it
// may import: rooms import down, never across or up. The gate knows the
// document and nothing of what answers; each room below the root knows
// the rooms under it; no room knows the root, which wires them; spec,
// the contract, knows nothing of the project. A package of the project
// that rooms does not name, such as the commands, may import any.
var rooms = map[string][]string{
	"spec":                 {"spec"},
	"mockserver/store":     {},
	"mockserver/proxy":     {},
	"mockserver/shape":     {"spec"},
	"mockserver/edge":      {"spec", "mockserver/shape"},
	"mockserver/journal":   {"spec"},
	"mockserver/answer":    {"spec", "mockserver/shape", "mockserver/edge"},
	"mockserver/catalogue": {"spec", "mockserver/shape", "mockserver/store", "mockserver/edge", "mockserver/journal"},
	"mockserver/steer":     {"spec", "mockserver/edge", "mockserver/answer", "mockserver/journal"},
	"mockserver/persist":   {"spec", "mockserver/store", "mockserver/journal", "mockserver/catalogue", "mockserver/steer"},
	"mockserver": {"spec", "mockserver/store", "mockserver/proxy", "mockserver/shape", "mockserver/edge",
		"mockserver/journal", "mockserver/answer", "mockserver/catalogue", "mockserver/steer"},
}

// roomOf returns the room of a package of the project, a name of rooms,
// or "" for none: the contract's packages, such as spec/fake, are spec's.
func roomOf(pkg string) string {
	if strings.HasPrefix(pkg, "spec/") {
		return "spec"
	}
	if _, ok := rooms[pkg]; ok {
		return pkg
	}
	return ""
}

// houseBreaks returns each import of imports, of a package of the project
// to the packages of the project it imports, that rooms does not allow.
func houseBreaks(imports map[string][]string) []string {
	var breaks []string
	for _, pkg := range slices.Sorted(maps.Keys(imports)) {
		room := roomOf(pkg)
		if room == "" {
			continue
		}
		for _, imp := range imports[pkg] {
			if to := roomOf(imp); to != "" && (to == room || slices.Contains(rooms[room], to)) {
				continue
			}
			breaks = append(breaks, pkg+" imports "+imp)
		}
	}
	return breaks
}

// projectImports returns the packages of the project, each with the
// packages of the project it imports, without the module's prefix; tests
// are left out, as they may wire rooms together.
func projectImports(tb testing.TB) map[string][]string {
	tb.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", module+"...").Output()
	if err != nil {
		tb.Fatalf("go list: %v", err)
	}
	imports := map[string][]string{}
	for line := range strings.Lines(strings.TrimSpace(string(out))) {
		fields := strings.Fields(line)
		var own []string
		for _, imp := range fields[1:] {
			if strings.HasPrefix(imp, module) {
				own = append(own, strings.TrimPrefix(imp, module))
			}
		}
		imports[strings.TrimPrefix(fields[0], module)] = own
	}
	if len(imports) < 20 {
		tb.Fatalf("go list listed %d packages; the test cannot judge the house:\n%s", len(imports), out)
	}
	return imports
}

// TestRoomsImportDown holds every package of the house to rooms.
func TestRoomsImportDown(t *testing.T) {
	imports := projectImports(t)
	for name := range rooms {
		if _, ok := imports[name]; !ok {
			t.Errorf("rooms names %s, which is no package of the project", name)
		}
	}
	for _, b := range houseBreaks(imports) {
		t.Errorf("%s, which its room may not", b)
	}
}

// TestHouseBreaksAreFound holds the judge of the house to imports that
// break it: the gate importing the answers or the steering, a room
// importing the root, spec importing the server.
func TestHouseBreaksAreFound(t *testing.T) {
	for _, bad := range []map[string][]string{
		{"mockserver/edge": {"mockserver/answer"}},
		{"mockserver/edge": {"mockserver/steer"}},
		{"mockserver/catalogue": {"mockserver"}},
		{"mockserver/persist": {"mockserver"}},
		{"mockserver/journal": {"mockserver/edge"}},
		{"spec/fake": {"mockserver/shape"}},
		{"spec": {"conformance"}},
		{"mockserver": {"mockserver/admin"}},
	} {
		if got := houseBreaks(bad); len(got) != 1 {
			t.Errorf("%v: breaks %v, want the one import", bad, got)
		}
	}
	if got := houseBreaks(map[string][]string{"mockserver/steer": {"mockserver/edge", "spec/fake"}, "cmd/petmock": {"mockserver/admin"}}); len(got) != 0 {
		t.Errorf("allowed imports found to break the house: %v", got)
	}
}
