package journal

import (
	"sync"
	"sync/atomic"
)

// A Subscription tells its reader the kinds of change since it last
// looked. The admin API's event stream, GET /__petmock/events, reads one,
// so that the console asks again for what has changed.

// Change is a set of kinds of change, as bits, so that a burst of changes
// folds into one.
type Change uint32

// Kinds of change.
const (
	ChangeJournal      Change = 1 << iota // a request the journal keeps was answered
	ChangeStore                           // the items of a resource changed
	ChangeSettings                        // a setting changed
	ChangeForced                          // the forced answers changed
	ChangeViolations                      // a backend's answer broke the document, or the view was emptied
	ChangeExpectations                    // an expectation was set, matched or dropped
	ChangeDocument                        // another server took over for a new version of the document, or a version was refused
)

// Hub hands the changes of a server to the open streams.
type Hub struct {
	// subs is the list of streams, replaced whole on every change, so
	// that publishing reads it with one atomic load: with no stream
	// open, the request pipeline pays nothing more.
	subs atomic.Pointer[[]*Subscriber]

	mu sync.Mutex // serialises changes of subs

	closed    chan struct{} // closed by Close
	closeOnce sync.Once
}

// Subscriber is one open stream: Changed receives a value when a change
// may have come, and Take says which.
type Subscriber struct {
	pending atomic.Uint32 // kinds of events not yet sent
	wake    chan struct{} // holds a token when pending may have changed
}

// NewHub returns a hub with no stream open.
func NewHub() *Hub {
	return &Hub{closed: make(chan struct{})}
}

// Publish tells every open stream that kinds of things changed.
func (h *Hub) Publish(kinds Change) {
	subs := h.subs.Load()
	if subs == nil {
		return
	}
	for _, sub := range *subs {
		sub.pending.Or(uint32(kinds))
		select {
		case sub.wake <- struct{}{}:
		default:
		}
	}
}

// Subscribe opens a stream.
func (h *Hub) Subscribe() *Subscriber {
	sub := &Subscriber{wake: make(chan struct{}, 1)}
	h.mu.Lock()
	defer h.mu.Unlock()
	var next []*Subscriber
	if cur := h.subs.Load(); cur != nil {
		next = append(next, *cur...)
	}
	next = append(next, sub)
	h.subs.Store(&next)
	return sub
}

// Unsubscribe closes the stream sub.
func (h *Hub) Unsubscribe(sub *Subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	cur := h.subs.Load()
	if cur == nil {
		return // unsubscribed already
	}
	var next []*Subscriber
	for _, s := range *cur {
		if s != sub {
			next = append(next, s)
		}
	}
	if len(next) == 0 {
		h.subs.Store(nil)
		return
	}
	h.subs.Store(&next)
}

// Changed receives a value when a change may have come: then Take says
// which.
func (sub *Subscriber) Changed() <-chan struct{} { return sub.wake }

// Take returns the kinds of change published since it was last called.
func (sub *Subscriber) Take() Change { return Change(sub.pending.Swap(0)) }

// Done is closed when the hub closes.
func (h *Hub) Done() <-chan struct{} { return h.closed }

// Close ends every stream, and any opened later: Done is closed.
func (h *Hub) Close() {
	h.closeOnce.Do(func() { close(h.closed) })
}
