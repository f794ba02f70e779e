package persist

import "testing"

// TestLedgerCountsAcknowledgedWritesNoSaveHolds plays the writes of both
// ways of keeping the stores against the ledger: writes acknowledged at
// once are counted until a save that began after them, and writes that
// waited are counted only when their save failed and they were
// acknowledged all the same.
func TestLedgerCountsAcknowledgedWritesNoSaveHolds(t *testing.T) {
	var l ledger
	check := func(when string, want uint64) {
		t.Helper()
		if got := l.count(); got != want {
			t.Errorf("%s: %d acknowledged writes unsaved, want %d", when, got, want)
		}
	}
	check("at first", 0)

	// --save-interval: three writes answered at once; a save begins,
	// two more come while it runs, and it succeeds.
	for range 3 {
		l.acknowledge()
	}
	check("after 3 writes answered at once", 3)
	mark := l.mark()
	l.acknowledge()
	l.acknowledge()
	l.saved(mark)
	check("after a save that began before the last 2", 2)
	l.saved(l.mark())
	check("after a save that began after them all", 0)

	// Writes that wait: a batch saved is never counted; a batch whose
	// save failed, and which --on-save-error serve acknowledged, is.
	first, last := l.ticket(), l.ticket()
	l.saved(l.mark())
	check("after a batch was saved", 0)
	first, last = l.ticket(), l.ticket()
	last = l.ticket()
	l.acknowledged(first, last)
	check("after a batch of 3 whose save failed was acknowledged", 3)
	// A save that began after the first of them only holds that one.
	l.saved(first)
	check("after a save that held the first of them", 2)
	l.saved(l.mark())
	check("after a save that held them all", 0)
}
