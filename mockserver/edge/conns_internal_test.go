package edge

import (
	"net/http"
	"testing"
)

// TestIdleListKeepsOrderWithoutAllocating holds the idle connections in
// the order they became idle, whichever leaves, and a connection's going
// idle and busy again, after every request, to allocate nothing.
func TestIdleListKeepsOrderWithoutAllocating(t *testing.T) {
	cs := &conns{}
	c := make([]*wireConn, 4)
	for i := range c {
		c[i] = &wireConn{conns: cs}
		if _, ok := cs.admit(c[i]); !ok {
			t.Fatal("refused with no cap")
		}
	}
	order := func() (ids []int) {
		for w := cs.idle.front; w != nil; w = w.next {
			for i := range c {
				if c[i] == w {
					ids = append(ids, i)
				}
			}
		}
		return ids
	}
	for _, tt := range []struct {
		conn  int
		state http.ConnState
		want  []int
	}{
		{1, http.StateActive, []int{0, 2, 3}},
		{0, http.StateActive, []int{2, 3}},
		{3, http.StateActive, []int{2}},
		{1, http.StateIdle, []int{2, 1}},
		{1, http.StateIdle, []int{2, 1}},
		{0, http.StateIdle, []int{2, 1, 0}},
		{1, http.StateClosed, []int{2, 0}},
		{2, http.StateHijacked, []int{0}},
		{0, http.StateActive, nil},
	} {
		cs.state(c[tt.conn], tt.state)
		if got := order(); !equalInts(got, tt.want) || cs.idle.n != len(tt.want) {
			t.Fatalf("connection %d %v: idle %v (%d), want %v", tt.conn, tt.state, got, cs.idle.n, tt.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() {
		cs.state(c[3], http.StateIdle)
		cs.state(c[3], http.StateActive)
	}); n > 0 {
		t.Errorf("a request's idle and active allocate %.0f times, want none", n)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
