package judge

import (
	"net/http"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/spec"
)

// TestMissing: a 404 or a 405 to a valid request says that its operation
// is missing, unless the operation documents it, as sendNotes of
// ct.Notes documents only "405: Invalid input", or the path names
// something the suite made up where a 404 is called for.
func TestMissing(t *testing.T) {
	t.Parallel()
	c, err := spec.ReadFile(ct.WriteDocument(t, ct.Notes))
	if err != nil {
		t.Fatal(err)
	}
	h := NewClient(Config{Contract: c})
	for _, tc := range []struct {
		op     string
		status int
		madeUp bool
		want   bool
	}{
		{"sendNotes", 405, false, false},
		{"sendNotes", 404, false, true},
		{"listNotes", 405, false, true},
		{"getNote", 404, false, true},
		{"getNote", 404, true, false}, // an item operation calls for 404
		{"listNotes", 404, true, true},
	} {
		r := &Request{op: tc.op, MustExist: true, MadeUp: tc.madeUp}
		if tc.op == "getNote" {
			CallingFor(http.StatusNotFound)(r) // as a request of an item does
		}
		if got := h.missing(r, tc.status); got != tc.want {
			t.Errorf("%s answered %d, path made up %v: missing %v, want %v", tc.op, tc.status, tc.madeUp, got, tc.want)
		}
	}
}
