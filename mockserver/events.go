package mockserver

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

// The kinds as the hub publishes them.
const (
	eventJournal  = uint32(ChangeJournal)
	eventStore    = uint32(ChangeStore)
	eventSettings = uint32(ChangeSettings)
	eventForced   = uint32(ChangeForced)

	eventViolations   = uint32(ChangeViolations)
	eventExpectations = uint32(ChangeExpectations)
	eventDocument     = uint32(ChangeDocument)
)

// hub hands events to the open streams.
type hub struct {
	// subs is the list of streams, replaced whole on every change, so
	// that publishing reads it with one atomic load: with no stream
	// open, the request pipeline pays nothing more.
	subs atomic.Pointer[[]*subscriber]

	mu sync.Mutex // serialises changes of subs

	closed    chan struct{} // closed by Close
	closeOnce sync.Once
}

// subscriber is one open stream.
type subscriber struct {
	pending atomic.Uint32 // kinds of events not yet sent
	wake    chan struct{} // holds a token when pending may have changed
}

func newHub() *hub {
	return &hub{closed: make(chan struct{})}
}

// publish tells every open stream that kinds of things changed.
func (h *hub) publish(kinds uint32) {
	subs := h.subs.Load()
	if subs == nil {
		return
	}
	for _, sub := range *subs {
		sub.pending.Or(kinds)
		select {
		case sub.wake <- struct{}{}:
		default:
		}
	}
}

func (h *hub) subscribe() *subscriber {
	sub := &subscriber{wake: make(chan struct{}, 1)}
	h.mu.Lock()
	defer h.mu.Unlock()
	var next []*subscriber
	if cur := h.subs.Load(); cur != nil {
		next = append(next, *cur...)
	}
	next = append(next, sub)
	h.subs.Store(&next)
	return sub
}

func (h *hub) unsubscribe(sub *subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	cur := h.subs.Load()
	if cur == nil {
		return // unsubscribed already
	}
	var next []*subscriber
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

// Subscription receives the changes of a server, and of those that take
// over from it (see TakeOver), until it is closed.
type Subscription struct {
	srv *Server
	sub *subscriber
	// seen is the server whose stores Take last looked at, and version
	// their version then.
	seen    *Server
	version uint64
}

// Subscribe returns a subscription to the changes of s. Close it once
// done with it.
func (s *Server) Subscribe() *Subscription {
	latest := s.Latest()
	return &Subscription{srv: s, sub: s.events.subscribe(), seen: latest, version: latest.Version()}
}

// Changed receives a value when a change may have come: then Take says
// which.
func (sub *Subscription) Changed() <-chan struct{} { return sub.sub.wake }

// Done is closed when the server closes (see Server.Close).
func (sub *Subscription) Done() <-chan struct{} { return sub.srv.events.closed }

// Take returns the kinds of change since it was last called. A write of
// the API, which nothing announces, shows as ChangeStore once Take is
// called after it: the stores' version is looked at on every call, those
// of the server that serves now.
func (sub *Subscription) Take() Change {
	c := Change(sub.sub.pending.Swap(0))
	srv := sub.srv.Latest()
	if v := srv.Version(); srv != sub.seen || v != sub.version {
		sub.seen, sub.version, c = srv, v, c|ChangeStore
	}
	return c
}

// Close ends the subscription.
func (sub *Subscription) Close() { sub.srv.events.unsubscribe(sub.sub) }

// Close ends the server's subscriptions, and any made later, so that
// http.Server.Shutdown, which waits for every request to end, need not
// wait for the event streams that read them. Register it with
// http.Server.RegisterOnShutdown. The rest of the server keeps answering.
func (s *Server) Close() {
	s.events.closeOnce.Do(func() { close(s.events.closed) })
}
