package mockserver_test

import (
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver"
)

// TestJournalIsBoundedInBytes sends requests with large headers to a
// journal that may keep many of them by number: it keeps the newest
// whose headers and bodies fit its budget of bytes, and drops the oldest.
func TestJournalIsBoundedInBytes(t *testing.T) {
	const budget = 1 << 20
	ts := newTestServer(t, mockserver.Config{JournalSize: steer.MaxJournalSize, JournalBytes: budget})
	large := strings.Repeat("x", 60<<10)
	const sent = 50 // 3 MiB of headers
	for i := range sent {
		ts.do(t, "GET", "/pets?limit=1", "", "X-Large", large, "X-Nth", string(rune('A'+i%26))+strings.Repeat("n", i))
	}
	kept := ts.Journal().Recent(0)
	var bytes int
	for _, e := range kept {
		for _, m := range []journal.Message{e.Request, e.Response} {
			for name, values := range m.Header {
				bytes += len(name)
				for _, v := range values {
					bytes += len(v)
				}
			}
			bytes += len(m.Body)
		}
	}
	if bytes > budget {
		t.Errorf("the journal holds %d bytes of headers and bodies, over its budget of %d", bytes, budget)
	}
	if len(kept) == 0 || len(kept) >= sent {
		t.Fatalf("the journal holds %d of %d requests of 60 KiB, want the newest that fit 1 MiB", len(kept), sent)
	}
	if got := len(kept[0].Request.Header.Get("X-Nth")); got != sent {
		t.Errorf("the newest request journaled is the one with %d bytes of X-Nth, want the last sent, %d", got, sent)
	}
	// Ordinary requests still fill it by number.
	ts.Journal().Clear()
	for range 30 {
		ts.do(t, "GET", "/pets?limit=1", "")
	}
	if got := len(ts.Journal().Recent(0)); got != 30 {
		t.Errorf("after 30 ordinary requests, the journal holds %d", got)
	}
}
