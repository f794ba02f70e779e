package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the checked-in fixtures under testdata/")

// checkedIn are the demo catalogues under testdata/, with the arguments
// that make them.
var checkedIn = []struct {
	file string
	args []string
}{
	{"catalogue-small.json", []string{"--seed", "7", "--count", "20"}},
	{"catalogue-large.json", []string{"--seed", "7", "--count", "1000", "--status-mix", "60:30:10"}},
}

// TestCheckedInFixtures regenerates the demo catalogues and compares them
// with the checked-in files, so that they stay true. Run with -update to
// rewrite them.
func TestCheckedInFixtures(t *testing.T) {
	for _, c := range checkedIn {
		var out bytes.Buffer
		if err := fixtures(c.args, &out); err != nil {
			t.Fatalf("petmock fixtures %v: %v", c.args, err)
		}
		path := filepath.Join("..", "..", "testdata", c.file)
		if *update {
			if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), want) {
			t.Errorf("petmock fixtures %v differs from testdata/%s; run go test ./cmd/petmock -run TestCheckedInFixtures -update", c.args, c.file)
		}
		if _, err := readPets(want); err != nil {
			t.Errorf("testdata/%s: %v", c.file, err)
		}
	}
}

func TestFixturesRepeat(t *testing.T) {
	gen := func(args ...string) []byte {
		var out bytes.Buffer
		if err := fixtures(args, &out); err != nil {
			t.Fatalf("petmock fixtures %v: %v", args, err)
		}
		return out.Bytes()
	}
	a := gen("--seed", "7", "--count", "200", "--status-mix", "60:30:10")
	if b := gen("--seed", "7", "--count", "200", "--status-mix", "60:30:10"); !bytes.Equal(a, b) {
		t.Error("the same arguments gave different catalogues")
	}
	if b := gen("--seed", "8", "--count", "200", "--status-mix", "60:30:10"); bytes.Equal(a, b) {
		t.Error("seeds 7 and 8 gave the same catalogue")
	}
	onlySold := gen("--count", "30", "--status-mix", "0:0:1")
	if n := strings.Count(string(onlySold), `"status":"sold"`); n != 30 {
		t.Errorf("--status-mix 0:0:1: %d of 30 pets sold", n)
	}
	out := filepath.Join(t.TempDir(), "c.json")
	gen("--seed", "7", "--count", "200", "--status-mix", "60:30:10", "--out", out)
	if written, _ := os.ReadFile(out); !bytes.Equal(written, a) {
		t.Error("--out wrote something else than standard output shows")
	}
}

func TestFixturesUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--count", "0"},
		{"--status-mix", "60:40"},
		{"--status-mix", "a:b:c"},
		{"--status-mix", "0:0:0"},
		{"extra"},
	} {
		if err := fixtures(args, io.Discard); !errors.As(err, new(usageError)) {
			t.Errorf("petmock fixtures %v: err = %v, want a usage error", args, err)
		}
	}
}
