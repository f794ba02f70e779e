package persist

import "sync"

// A ledger counts the writes that were acknowledged but are not in the
// state file yet, so that a shutdown whose last save fails can say how
// many it could not keep. Every write takes a ticket, in order, once it
// has changed the stores; a save that starts after a ticket was taken
// holds that write. With every write waiting for its save none is ever
// counted, but --save-interval acknowledges writes at once, and
// --on-save-error serve acknowledges them while saves fail.
type ledger struct {
	mu      sync.Mutex // guards last and unsaved
	last    uint64     // the last ticket taken
	unsaved []span     // tickets acknowledged that no save holds, in order
}

// span is the tickets from first to last, both included.
type span struct{ first, last uint64 }

// ticket returns a ticket for a write that has changed the stores.
func (l *ledger) ticket() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last++
	return l.last
}

// acknowledge counts a write acknowledged at once, before any save holds
// it, and returns its ticket.
func (l *ledger) acknowledge() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.last++
	l.add(span{l.last, l.last})
	return l.last
}

// acknowledged counts the writes of tickets first to last as acknowledged
// although no save holds them. Tickets are acknowledged in order.
func (l *ledger) acknowledged(first, last uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.add(span{first, last})
}

// add appends s to the unsaved tickets, as one span with the last one when
// they follow each other, as they do when writes are acknowledged at once.
func (l *ledger) add(s span) {
	if n := len(l.unsaved); n > 0 && l.unsaved[n-1].last+1 == s.first {
		l.unsaved[n-1].last = s.last
		return
	}
	l.unsaved = append(l.unsaved, s)
}

// mark returns the last ticket taken: a save that starts after mark holds
// every write up to it.
func (l *ledger) mark() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last
}

// saved records that a save holds every write up to the ticket upTo.
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
