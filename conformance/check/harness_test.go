package check

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/petstore/contract/conformance/request"
	"github.com/petstore/contract/spec"
)

// testHarness builds the harness of a run of cfg, as a run does.
func testHarness(tb testing.TB, cfg Settings, seed uint64) *Harness {
	tb.Helper()
	if _, err := ParseBaseURL(cfg.BaseURL); err != nil {
		tb.Fatal(err)
	}
	return New(cfg, preparedFor(tb, cfg), seed)
}

// preparedRuns holds what prepare read for each document and strictness
// the tests judge by, as a prepareKey: it does not change, and its router
// is safe for concurrent use, so the many harnesses of the tests share it.
var preparedRuns sync.Map

// prepareKey is a document and whether a run holds answers to all of it.
type prepareKey struct {
	contract *spec.Contract
	strict   bool
}

// preparedFor returns what prepare reads for a run of cfg.
func preparedFor(tb testing.TB, cfg Settings) Prepared {
	tb.Helper()
	key := prepareKey{cfg.Contract, cfg.Strict}
	if p, ok := preparedRuns.Load(key); ok {
		return p.(Prepared)
	}
	p, err := Prepare(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	preparedRuns.Store(key, p)
	return p
}

// TestPastSunset: getPet's specs stop requiring answers from the removal
// date of the document on, and not before.
func TestPastSunset(t *testing.T) {
	for _, tc := range []struct {
		now  string
		past bool
	}{
		{"2030-12-04T23:59:59Z", false},
		{"2030-12-05T00:00:00Z", true},
		{"2031-01-01T00:00:00Z", true},
	} {
		now, _ := time.Parse(time.RFC3339, tc.now)
		h := testHarness(t, Settings{BaseURL: "http://h/v1", APIKey: "k", Now: func() time.Time { return now }}, 1)
		if got := h.pastSunset(); got != tc.past {
			t.Errorf("at %s: pastSunset() = %v, want %v", tc.now, got, tc.past)
		}
	}
}

// TestRunsRepeat: the same seed gives the same run id and the same random
// choices; names carry the prefix and the run id.
func TestRunsRepeat(t *testing.T) {
	now := func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	a := testHarness(t, Settings{BaseURL: "http://h/v1", APIKey: "k", Now: now}, 42)
	b := testHarness(t, Settings{BaseURL: "http://h/v1", APIKey: "k", Now: now}, 42)
	if a.RunID() != b.RunID() || a.absentID() != b.absentID() {
		t.Errorf("two harnesses of seed 42 differ: run ids %s, %s", a.RunID(), b.RunID())
	}
	if name := a.PetName(); !strings.HasPrefix(name, request.NamePrefix+a.RunID()+"-") {
		t.Errorf("PetName() = %q, want the prefix %s%s-", name, request.NamePrefix, a.RunID())
	}
	if id := a.absentID(); id < 1<<53 {
		t.Errorf("absentID() = %d, want one in a range no catalogue fills", id)
	}
}
