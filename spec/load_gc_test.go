package spec_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// TestLargeDocumentGivesItsGarbageBack holds the reading of a document of
// 4 MiB or more to collecting its garbage twice on the way, after its parse
// and before it is returned, so that the peak memory of a start on it is
// about what it holds rather than twice that; a document smaller than that,
// as every one of the public corpus is, is read without a collection.
func TestLargeDocumentGivesItsGarbageBack(t *testing.T) {
	doc := func(padding int) []byte {
		return []byte("openapi: 3.0.3\ninfo: {title: Padded, version: 1.0.0}\n" +
			"x-padding: " + strings.Repeat("a", padding) + "\n" +
			"paths:\n  /x:\n    get:\n      responses:\n        '200': {description: ok}\n")
	}
	forced := func() uint32 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.NumForcedGC
	}
	for _, tt := range []struct {
		name    string
		padding int
		want    uint32
	}{
		{"a small document", 1 << 10, 0},
		{"a document just under 4 MiB", 4<<20 - 1<<10, 0},
		{"a document of 4 MiB", 4 << 20, 2},
	} {
		before := forced()
		if _, err := spec.Read(doc(tt.padding)); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := forced() - before; got != tt.want {
			t.Errorf("%s: %d collections forced while reading it, want %d", tt.name, got, tt.want)
		}
	}
}
