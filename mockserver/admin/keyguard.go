package admin

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/petstore/contract/mockserver/edge"
)

// The admin key steers petmock, and petmock runs on shared machines, so
// a program that guesses it must not be able to guess fast: 2,000 wrong
// keys were once answered in 1.25 s. The keys of one remote address that
// the control plane refuses count against it: past freeFailures, each of
// its requests that needs a key waits, one at a time, a delay that
// doubles with each failure, from firstDelay up to maxDelay, before its
// key is even looked at; sending requests at once gains nothing, as they
// queue, and past maxWaiting waiting, the next is refused at once. A key
// taken clears the count, and so does forgetAfter without a failure.
// Other addresses, and requests that need no key (health), are never
// held back.

// Bounds of the key guard.
const (
	freeFailures = 5
	firstDelay   = 100 * time.Millisecond
	maxDelay     = 5 * time.Second
	maxWaiting   = 8
	forgetAfter  = 10 * time.Minute
	// maxAddresses caps the addresses the guard remembers.
	maxAddresses = 10_000
)

// keyGuard slows down the addresses whose admin keys keep failing.
type keyGuard struct {
	// sleep waits d, or until ctx is done; now is the clock. Tests set
	// them.
	sleep func(ctx context.Context, d time.Duration) error
	now   func() time.Time

	mu    sync.Mutex // guards addrs and each address's failures, last and waiting
	addrs map[string]*keyFailures
}

// keyFailures are the refused keys of one address.
type keyFailures struct {
	failures int
	last     time.Time // of the last failure
	waiting  int       // requests held back or checking
	turn     chan struct{}
}

func newKeyGuard() *keyGuard {
	return &keyGuard{sleep: sleepCtx, now: time.Now, addrs: map[string]*keyFailures{}}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// delayAfter is how long a request waits after n failures of its address.
func delayAfter(n int) time.Duration {
	if n < freeFailures {
		return 0
	}
	d := firstDelay
	for range n - freeFailures {
		if d >= maxDelay {
			break
		}
		d *= 2
	}
	return min(d, maxDelay)
}

// guard holds r back as its address's failures say, and returns what is
// told whether its key was taken; see above. It is mockserver's
// EdgeConfig.Guard.
func (g *keyGuard) guard(r *http.Request) (func(taken bool), error) {
	addr := remoteIP(r)
	g.mu.Lock()
	f := g.addrs[addr]
	if f != nil && f.waiting == 0 && g.now().Sub(f.last) > forgetAfter {
		delete(g.addrs, addr)
		f = nil
	}
	if f == nil || f.failures < freeFailures {
		g.mu.Unlock()
		return func(taken bool) { g.checked(addr, taken) }, nil
	}
	if f.waiting >= maxWaiting {
		wait := delayAfter(f.failures) * time.Duration(f.waiting)
		g.mu.Unlock()
		return nil, refusedForNow(wait)
	}
	f.waiting++
	g.mu.Unlock()
	release := func() {
		g.mu.Lock()
		f.waiting--
		g.mu.Unlock()
	}
	// One request of the address at a time: its turn, then its delay.
	select {
	case f.turn <- struct{}{}:
	case <-r.Context().Done():
		release()
		return nil, r.Context().Err()
	}
	g.mu.Lock()
	d := delayAfter(f.failures)
	g.mu.Unlock()
	if err := g.sleep(r.Context(), d); err != nil {
		<-f.turn
		release()
		return nil, err
	}
	return func(taken bool) {
		g.checked(addr, taken)
		<-f.turn
		release()
	}, nil
}

// checked counts a key of addr refused, or clears its count once one is
// taken.
func (g *keyGuard) checked(addr string, taken bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	f := g.addrs[addr]
	if taken {
		if f != nil {
			f.failures = 0
		}
		return
	}
	if f == nil {
		if len(g.addrs) >= maxAddresses {
			g.forget()
		}
		f = &keyFailures{turn: make(chan struct{}, 1)}
		g.addrs[addr] = f
	}
	f.failures++
	f.last = g.now()
}

// forget drops the addresses that failed longest ago, none waiting, to
// make room: every one past forgetAfter, or else the older half. The
// caller holds mu.
func (g *keyGuard) forget() {
	now := g.now()
	for addr, f := range g.addrs {
		if f.waiting == 0 && now.Sub(f.last) > forgetAfter {
			delete(g.addrs, addr)
		}
	}
	if len(g.addrs) < maxAddresses {
		return
	}
	var sum time.Duration
	for _, f := range g.addrs {
		sum += now.Sub(f.last) / time.Duration(len(g.addrs))
	}
	for addr, f := range g.addrs {
		if f.waiting == 0 && now.Sub(f.last) >= sum {
			delete(g.addrs, addr)
		}
	}
}

// refusedForNow is the answer to a request of an address that has as
// many held back already as it may.
func refusedForNow(wait time.Duration) *edge.Error {
	secs := max(1, int((wait+time.Second-1)/time.Second))
	return edge.NewError(http.StatusUnauthorized, "key",
		"too many keys from this address were refused; wait %ds before the next", secs).
		WithHeader("Retry-After", strconv.Itoa(secs))
}

// remoteIP is the address of r's client, without its port.
func remoteIP(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}
