package admin

import (
	"net"
	"net/http"
	"strconv"
	"sync"

	"github.com/petstore/contract/mockserver/edge"
)

// An event stream holds its connection, and so a file descriptor, for as
// long as it lasts: 4,086 streams once took every descriptor of a petmock
// limited to 4,096, and the API and the health check could take no more
// connections until they closed. So the streams open at once are capped,
// in all and for each client (each remote address), well below the
// descriptors the process may open, and a stream past a cap is refused at
// once with 503 and Retry-After. The API never waits for a stream.
//
// The streams counted are those of GET /__petmock/events: a Subscription
// of the server's own (mockserver.Server.Subscribe), such as petmock
// --state's saver, holds no connection, and is never refused.

// Default caps of the event streams, for a process that may open the
// usual 1,024 descriptors or more: cmd/petmock sets lower ones when it
// may open fewer.
const (
	DefaultMaxStreams          = 256
	DefaultMaxStreamsPerClient = 16
)

// streamRetrySeconds is the Retry-After of a refused stream.
const streamRetrySeconds = 5

// streams counts the open event streams.
type streams struct {
	max, perClient int

	mu       sync.Mutex // guards open and byClient
	open     int
	byClient map[string]int
}

// client names the client of r for the cap of each: its remote address,
// without the port, so that one client's many connections count together.
func client(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// take counts a stream of r in, or refuses it. The caller calls release
// once the stream ends.
func (s *streams) take(r *http.Request) (release func(), err error) {
	c := client(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.open >= s.max:
		return nil, edge.NewError(http.StatusServiceUnavailable, "events",
			"%d event streams are open, as many as petmock keeps at once; retry once one has closed", s.open).
			WithHeader("Retry-After", strconv.Itoa(streamRetrySeconds))
	case s.byClient[c] >= s.perClient:
		return nil, edge.NewError(http.StatusServiceUnavailable, "events",
			"%d event streams of %s are open, as many as petmock keeps for one client; close one, such as a console tab, or retry later", s.byClient[c], c).
			WithHeader("Retry-After", strconv.Itoa(streamRetrySeconds))
	}
	if s.byClient == nil {
		s.byClient = map[string]int{}
	}
	s.open++
	s.byClient[c]++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.open--
		if s.byClient[c]--; s.byClient[c] == 0 {
			delete(s.byClient, c)
		}
	}, nil
}
