package catalogue

import (
	"strconv"
	"testing"
)

// TestKeptPagesAreBounded holds the pages kept of a resource within
// maxKeptPages and maxKeptBytes, however many are asked for and however
// large, and a page kept again for the same request counted once.
func TestKeptPagesAreBounded(t *testing.T) {
	for _, size := range []int{10, 1 << 10, 60 << 10} {
		var p pages
		for i := range 500 {
			k := pageKey{path: "/v1/pets", query: "limit=" + strconv.Itoa(i%200)}
			p.keep(k, &keptPage{body: make([]byte, size)})
			total := 0
			for _, kp := range p.kept {
				total += len(kp.body)
			}
			if len(p.kept) > maxKeptPages || p.bytes > maxKeptBytes || total != p.bytes {
				t.Fatalf("pages of %d bytes, after %d: %d kept of %d bytes, counted %d", size, i+1, len(p.kept), total, p.bytes)
			}
			if p.kept[k] == nil {
				t.Fatalf("pages of %d bytes: the page just kept is not", size)
			}
		}
	}
}
