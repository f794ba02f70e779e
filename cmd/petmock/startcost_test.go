package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// maxInitAllocs bounds the objects the packages of petmock allocate in
// their initialisation, which every start pays before main: 5,440 today,
// where the metaschemas kin-openapi's JSON Schema library compiled in its
// init took 21,000 more (see third_party/jsonschema). It counts
// allocations, not time, so that it holds on a machine of any speed.
const maxInitAllocs = 8_000

// TestPackageInitIsSmall starts the binary with GODEBUG=inittrace=1 and
// holds the allocations of every package's initialisation together, and
// of kin-openapi's JSON Schema library alone, to their bounds: a start
// that did the work of the first compiler, or of the admin API, before
// main would pass them.
func TestPackageInitIsSmall(t *testing.T) {
	cmd := exec.Command(petmockBinary(t), "--help")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, _ := cmd.CombinedOutput()
	line := regexp.MustCompile(`(?m)^init (\S+) @.* (\d+) allocs$`)
	total := 0
	for _, m := range line.FindAllStringSubmatch(string(out), -1) {
		n, _ := strconv.Atoi(m[2])
		total += n
		if strings.HasPrefix(m[1], "github.com/santhosh-tekuri/jsonschema") && n > 1_000 {
			t.Errorf("%s allocates %d objects in its init: its metaschemas are compiled before main again", m[1], n)
		}
	}
	if total == 0 {
		t.Fatalf("no init trace in the output:\n%s", out)
	}
	if total > maxInitAllocs {
		t.Errorf("the packages of petmock allocate %d objects in their init, more than %d", total, maxInitAllocs)
	}
	t.Logf("%d allocations in package initialisation", total)
}
