package admin

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/edge"
)

// guardedRequest is a request of the admin API from addr.
func guardedRequest(addr string) *http.Request {
	r := httptest.NewRequest("GET", "http://127.0.0.1/__petmock/requests", nil)
	r.RemoteAddr = addr + ":50000"
	return r
}

// TestKeyGuardSlowsDownAnAddress: past the free failures, each request of
// an address whose keys were refused waits twice as long as the one
// before, up to the most; other addresses wait nothing, and a key taken
// clears the count, as does the time.
func TestKeyGuardSlowsDownAnAddress(t *testing.T) {
	g := newKeyGuard()
	var slept []time.Duration
	g.sleep = func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }
	now := time.Unix(0, 0)
	g.now = func() time.Time { return now }
	fail := func(addr string) {
		t.Helper()
		checked, err := g.guard(guardedRequest(addr))
		if err != nil {
			t.Fatalf("guard: %v", err)
		}
		checked(false)
	}
	for range 12 {
		fail("192.0.2.1")
	}
	want := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond,
		1600 * time.Millisecond, 3200 * time.Millisecond, 5 * time.Second}
	if !slices.Equal(slept, want) {
		t.Errorf("12 refused keys waited %v, want nothing for the first %d, then %v", slept, freeFailures, want)
	}
	slept = nil
	fail("192.0.2.2")
	if len(slept) != 0 {
		t.Errorf("another address waited %v", slept)
	}
	checked, _ := g.guard(guardedRequest("192.0.2.1"))
	checked(true)
	if len(slept) != 1 || slept[0] != maxDelay {
		t.Errorf("the key taken after 12 refused waited %v, want %s, as the count stood", slept, maxDelay)
	}
	slept = nil
	for range freeFailures {
		fail("192.0.2.1")
	}
	if len(slept) != 0 {
		t.Errorf("after a key was taken, %d refused keys waited %v, want nothing", freeFailures, slept)
	}
	fail("192.0.2.1")
	if len(slept) != 1 || slept[0] != firstDelay {
		t.Errorf("the next refused key waited %v, want %s", slept, firstDelay)
	}
	now = now.Add(forgetAfter + time.Second)
	slept = nil
	fail("192.0.2.1")
	if len(slept) != 0 {
		t.Errorf("after %s without a failure, a refused key waited %v, want nothing", forgetAfter, slept)
	}
}

// TestKeyGuardTakesOneAtATime: the requests of an address held back wait
// their turn, so that sending many at once guesses no faster, and past
// maxWaiting the next is refused at once, saying how long to wait.
func TestKeyGuardTakesOneAtATime(t *testing.T) {
	g := newKeyGuard()
	var mu sync.Mutex
	sleeping, most := 0, 0
	release := make(chan struct{})
	g.sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		sleeping++
		most = max(most, sleeping)
		mu.Unlock()
		<-release
		mu.Lock()
		sleeping--
		mu.Unlock()
		return nil
	}
	for range freeFailures {
		checked, _ := g.guard(guardedRequest("192.0.2.1"))
		checked(false)
	}
	var wg sync.WaitGroup
	for range maxWaiting {
		wg.Go(func() {
			checked, err := g.guard(guardedRequest("192.0.2.1"))
			if err != nil {
				t.Errorf("guard: %v", err)
				return
			}
			checked(false)
		})
	}
	for {
		g.mu.Lock()
		n := g.addrs["192.0.2.1"].waiting
		g.mu.Unlock()
		if n == maxWaiting {
			break
		}
		time.Sleep(time.Millisecond)
	}
	_, err := g.guard(guardedRequest("192.0.2.1"))
	var e *edge.Error
	if !errors.As(err, &e) || e.Status != http.StatusUnauthorized {
		t.Errorf("request %d of an address held back: %v, want a 401", maxWaiting+1, err)
	}
	close(release)
	wg.Wait()
	if most != 1 {
		t.Errorf("%d requests of one address waited at once, want 1", most)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g.sleep = sleepCtx
	if _, err := g.guard(guardedRequest("192.0.2.1").WithContext(ctx)); err == nil {
		t.Error("a request whose client went away was let through")
	}
}
