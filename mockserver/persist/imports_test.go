package persist

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// below are the packages of the project persist may import: the rooms
// under the server, whose items and steering a Saver keeps, and the
// document. The server itself, which imports persist's neighbours, is
// wired to a Saver by the command, through Source.
var below = []string{
	"github.com/petstore/contract/mockserver/catalogue",
	"github.com/petstore/contract/mockserver/steer",
	"github.com/petstore/contract/mockserver/journal",
	"github.com/petstore/contract/mockserver/store",
	"github.com/petstore/contract/spec",
}

// TestImportsNoServer lists what persist imports, its tests left out, with
// go list, and fails for each package of the project that is not below
// it, such as the root package mockserver.
func TestImportsNoServer(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports := strings.Fields(string(out))
	if len(imports) < 5 {
		t.Fatalf("go list listed %d imports; the test cannot judge them:\n%s", len(imports), out)
	}
	for _, imp := range imports {
		if strings.HasPrefix(imp, "github.com/petstore/contract/") && !slices.Contains(below, imp) {
			t.Errorf("persist imports %s, which is not below it", imp)
		}
	}
}
