// Package conformancetest provides Petstore servers for testing the
// judge, package conformance, and its command: faults that make petmock
// break one rule each (BrokenServers, BrokenEvolvedServers), servers that
// fill the interface's gaps otherwise than petmock and must pass
// (GapsFilledDifferently, AltServer, Lagging, and OtherwiseCorrect of any
// document), servers that break HTTP
// itself (HostileServer), and a document of none of the Petstore's
// operations (Widgets). Only tests import it.
package conformancetest

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// Key is the only key the servers of this package accept. It is
// distinctive, so that a leak of it into any output is found.
const Key = "k3y-that-must-never-be-printed-7f3a"

// Petmock returns a petmock that accepts Key, with the default catalogue.
func Petmock(tb testing.TB) http.Handler {
	tb.Helper()
	return PetmockKeyed(tb, Key)
}

// PetmockKeyed returns a petmock that accepts key, with the default
// catalogue.
func PetmockKeyed(tb testing.TB, key string) http.Handler {
	tb.Helper()
	srv, err := mockserver.New(mockserver.Config{APIKeys: []string{key}})
	if err != nil {
		tb.Fatalf("mockserver.New: %v", err)
	}
	return srv
}

// PetmockOf returns a petmock of the document at path that accepts Key.
func PetmockOf(tb testing.TB, path string) http.Handler {
	tb.Helper()
	c, err := spec.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	srv, err := mockserver.New(mockserver.Config{Contract: c, APIKeys: []string{Key}})
	if err != nil {
		tb.Fatalf("mockserver.New: %v", err)
	}
	return srv
}

// The evolved documents of the repository's testdata add to the
// Petstore's: a field of NewPet, and store orders with an inventory
// report.
const (
	EvolvedField = "evolved-field.yaml"
	EvolvedOps   = "evolved-ops.yaml"
)

// Testdata returns the absolute path of a file of the repository's
// testdata folder, found above the working directory of the test: each
// test runs in the directory of its package.
func Testdata(tb testing.TB, name string) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata", name)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatalf("no go.mod above the working directory: cannot find testdata/%s", name)
		}
		dir = parent
	}
}
