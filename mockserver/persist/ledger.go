package persist

import "sync"

// A ledger counts the writes that were acknowledged but are not in the log
// yet, so that a shutdown whose last save fails can say how many it could
// not keep. Every write has a number, in order (Saver.Wrote); a save that
// holds the writes up to a number holds every write before it. With every
// write waiting for its save none is ever counted, but --save-interval
// acknowledges writes at once, and --on-save-error serve acknowledges them
// while saves fail.
type ledger struct {
	mu      sync.Mutex // guards unsaved
	unsaved []span     // writes acknowledged that no save holds, in order
}

// span is the writes numbered from first to last, both included.
type span struct{ first, last uint64 }

// acknowledged counts the writes numbered first to last as acknowledged
// although no save holds them. Writes are acknowledged in order.
func (l *ledger) acknowledged(first, last uint64) {
	if first == 0 || last < first {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := len(l.unsaved); n > 0 && l.unsaved[n-1].last+1 >= first {
		l.unsaved[n-1].last = max(l.unsaved[n-1].last, last)
		return
	}
	l.unsaved = append(l.unsaved, span{first, last})
}

// saved records that a save holds every write up to upTo.
func (l *ledger) saved(upTo uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	kept := l.unsaved[:0]
	for _, s := range l.unsaved {
		switch {
		case s.last <= upTo:
			continue
		case s.first <= upTo:
			s.first = upTo + 1
		}
		kept = append(kept, s)
	}
	l.unsaved = kept
}

// count returns how many acknowledged writes no save holds.
func (l *ledger) count() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	var n uint64
	for _, s := range l.unsaved {
		n += s.last - s.first + 1
	}
	return n
}
