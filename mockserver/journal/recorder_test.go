package journal_test

import (
	"net/http/httptest"
	"testing"

	"github.com/petstore/contract/mockserver/journal"
)

// TestWriteSharedKeepsTheBytesGiven holds that a body written with
// WriteShared is kept as it was given, not copied, when it fits what the
// recorder keeps, and copied otherwise: a write after it, or one too
// large, never writes into the bytes given.
func TestWriteSharedKeepsTheBytesGiven(t *testing.T) {
	for _, tt := range []struct {
		name   string
		limit  int
		writes []string // after the shared body
		shared bool     // whether the body kept is the bytes given
		want   string
	}{
		{"whole", 64, nil, true, "[1,2,3]"},
		{"then more", 64, []string{"\n"}, false, "[1,2,3]\n"},
		{"larger than kept", 4, nil, false, "[1,2"},
		{"nothing kept", 0, nil, false, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			rec := &journal.Recorder{ResponseWriter: w, Limit: tt.limit}
			given := make([]byte, 7, 64)
			copy(given, "[1,2,3]")
			rec.WriteShared(given)
			for _, s := range tt.writes {
				rec.Write([]byte(s))
			}
			if string(rec.Body) != tt.want {
				t.Errorf("kept %q, want %q", rec.Body, tt.want)
			}
			if shared := len(rec.Body) > 0 && &rec.Body[0] == &given[0]; shared != tt.shared {
				t.Errorf("kept the bytes given: %v, want %v", shared, tt.shared)
			}
			if string(given[:cap(given)][7:8]) != "\x00" {
				t.Error("a later write wrote past the bytes given, into their array")
			}
			if w.Body.String() != "[1,2,3]"+concat(tt.writes) || rec.Status != 200 {
				t.Errorf("answered %d %q", rec.Status, w.Body)
			}
		})
	}
}

func concat(ss []string) (s string) {
	for _, x := range ss {
		s += x
	}
	return s
}
