package mockserver

import (
	"github.com/petstore/contract/mockserver/journal"
	"github.com/petstore/contract/mockserver/steer"
)

// Subscription receives the changes of a server, and of those that take
// over from it (see TakeOver), until it is closed.
type Subscription struct {
	srv *Server
	sub *journal.Subscriber
	// seen is the server whose stores Take last looked at, and version
	// their version then.
	seen    *Server
	version uint64
}

// Subscribe returns a subscription to the changes of s. Close it once
// done with it.
func (s *Server) Subscribe() *Subscription {
	latest := s.Latest()
	return &Subscription{srv: s, sub: s.events.Subscribe(), seen: latest, version: latest.items.Version()}
}

// Changed receives a value when a change may have come: then Take says
// which.
func (sub *Subscription) Changed() <-chan struct{} { return sub.sub.Changed() }

// Done is closed when the server closes (see Server.Close).
func (sub *Subscription) Done() <-chan struct{} { return sub.srv.events.Done() }

// Take returns the kinds of change since it was last called. A write of
// the API, which nothing announces, shows as ChangeStore once Take is
// called after it: the stores' version is looked at on every call, those
// of the server that serves now.
func (sub *Subscription) Take() journal.Change {
	c := sub.sub.Take()
	srv := sub.srv.Latest()
	if v := srv.items.Version(); srv != sub.seen || v != sub.version {
		sub.seen, sub.version, c = srv, v, c|journal.ChangeStore
	}
	return c
}

// Close ends the subscription.
func (sub *Subscription) Close() { sub.srv.events.Unsubscribe(sub.sub) }

// Close ends the server's subscriptions, and any made later, so that
// http.Server.Shutdown, which waits for every request to end, need not
// wait for the event streams that read them. Register it with
// http.Server.RegisterOnShutdown. The rest of the server keeps answering.
func (s *Server) Close() {
	s.events.Close()
}

// FlushLog writes the lines of the request log that wait, and returns
// once they are written: the request log is written a moment after the
// answers (see journal.RequestLog). Call it before the log's writer is
// closed, and before a test reads the log.
func (s *Server) FlushLog() {
	if r := s.Latest().requests; r != nil {
		r.Flush()
	}
}

// Journal returns the journal of the last requests of the API, and
// outside its base path, and their answers.
func (s *Server) Journal() *journal.Journal { return s.journal }

// Violations returns the backend's answers that broke the document, each
// with its request and every rule it broke; it keeps none unless petmock
// proxies (Config.Proxy).
func (s *Server) Violations() *journal.Journal { return s.violations }

// Steering returns what steers the answers of the API: the settings, the
// forced answers and the expectations.
func (s *Server) Steering() *steer.Steering { return s.steer }
