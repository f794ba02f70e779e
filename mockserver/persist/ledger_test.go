package persist

import "testing"

// TestLedgerCountsAcknowledgedWritesNoSaveHolds plays the writes of both
// ways of keeping the stores against the ledger: writes acknowledged at
// once are counted until a save holds them, and writes that waited are
// counted only when their save failed and they were acknowledged all the
// same.
func TestLedgerCountsAcknowledgedWritesNoSaveHolds(t *testing.T) {
	var l ledger
	check := func(when string, want uint64) {
		t.Helper()
		if got := l.count(); got != want {
			t.Errorf("%s: %d acknowledged writes unsaved, want %d", when, got, want)
		}
	}
	check("at first", 0)

	// --save-interval: writes 1 to 3 answered at once; a save holds
	// them, and writes 4 and 5 come while it runs.
	for n := uint64(1); n <= 3; n++ {
		l.acknowledged(n, n)
	}
	check("after 3 writes answered at once", 3)
	l.acknowledged(4, 4)
	l.acknowledged(5, 5)
	l.saved(3)
	check("after a save that held the first 3", 2)
	l.saved(5)
	check("after a save that held them all", 0)

	// Writes that wait: a batch saved is never counted; a batch whose
	// save failed, and which --on-save-error serve acknowledged, is.
	l.acknowledged(6, 8)
	check("after a batch of 3 whose save failed was acknowledged", 3)
	l.saved(6)
	check("after a save that held the first of them", 2)
	l.saved(8)
	check("after a save that held them all", 0)
}
