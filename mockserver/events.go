package mockserver

import (
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// GET /__petmock/events streams Server-Sent Events to the console: a
// named event, with an empty JSON object as its data, whenever what an
// admin endpoint shows has changed, so that the page asks for it again.
// It takes the key in Authorization like every admin endpoint; a browser's
// EventSource cannot send that header, so the console reads the stream
// with fetch.
//
//	event: journal    a request under the base path was answered
//	event: store      the items of a resource changed
//	event: settings   a setting changed
//	event: forced     the answers forced from the admin API changed
//
// Events of one kind that come in a burst are sent once: a stream sends at
// most one batch every eventGap. A comment line every heartbeat keeps
// proxies from closing a quiet stream.

// Kinds of events, as bits, so that a burst of them folds into one.
const (
	eventJournal uint32 = 1 << iota
	eventStore
	eventSettings
	eventForced
)

// eventNames are the names of the kinds, in the order a batch sends them.
var eventNames = []struct {
	kind uint32
	name string
}{
	{eventSettings, "settings"},
	{eventForced, "forced"},
	{eventStore, "store"},
	{eventJournal, "journal"},
}

const (
	eventGap  = 200 * time.Millisecond
	heartbeat = 15 * time.Second
	// storeCheck is how often a stream looks at the stores for a change
	// no event announced: a write of the API.
	storeCheck = time.Second
	// eventWriteTimeout bounds each write of a stream, in place of the
	// HTTP server's WriteTimeout, which a long stream would outlive.
	eventWriteTimeout = 30 * time.Second
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
	var next []*subscriber
	for _, s := range *h.subs.Load() {
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

// Close ends the server's event streams, and any opened later, so that
// http.Server.Shutdown, which waits for every request to end, need not wait
// for them. Register it with http.Server.RegisterOnShutdown. The rest of
// the server keeps answering.
func (s *Server) Close() {
	s.events.closeOnce.Do(func() { close(s.events.closed) })
}

// serveEvents answers GET /__petmock/events with a stream that lasts until
// the client goes away or the server closes.
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) error {
	rc := http.NewResponseController(w)
	// The stream outlives the HTTP server's WriteTimeout, which is meant
	// for answers: each write has a deadline of its own instead. (Its
	// ReadTimeout ends once the request is read.)
	rc.SetWriteDeadline(time.Now().Add(eventWriteTimeout))
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // tells a proxy such as nginx not to buffer it
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return nil
	}
	sub := s.events.subscribe()
	defer s.events.unsubscribe(sub)
	if _, err := w.Write([]byte("retry: 2000\n\n")); err != nil {
		return nil
	}
	if rc.Flush() != nil {
		return nil
	}
	version := s.Version()
	check := time.NewTicker(s.storeCheck)
	defer check.Stop()
	quiet := time.Now()
	for {
		select {
		case <-r.Context().Done():
			return nil
		case <-s.events.closed:
			return nil
		case <-sub.wake:
		case <-check.C:
		}
		kinds := sub.pending.Swap(0)
		if v := s.Version(); v != version {
			version, kinds = v, kinds|eventStore
		}
		var batch []byte
		for _, ev := range eventNames {
			if kinds&ev.kind != 0 {
				batch = append(batch, "event: "+ev.name+"\ndata: {}\n\n"...)
			}
		}
		if batch == nil {
			if time.Since(quiet) < heartbeat {
				continue
			}
			batch = []byte(": still here\n\n")
		}
		quiet = time.Now()
		rc.SetWriteDeadline(time.Now().Add(eventWriteTimeout))
		if _, err := w.Write(batch); err != nil {
			return nil
		}
		if rc.Flush() != nil {
			return nil
		}
		// What changes during the gap goes out in the next batch.
		gap := time.NewTimer(eventGap)
		select {
		case <-r.Context().Done():
			gap.Stop()
			return nil
		case <-s.events.closed:
			gap.Stop()
			return nil
		case <-gap.C:
		}
	}
}
