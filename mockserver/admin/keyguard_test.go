package admin_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

// TestAdminKeyGuessesSlowDown: of 2,000 wrong admin keys sent at once
// from one address, which were all checked in 1.25 s, only a handful are
// checked before the clients give up: the rest wait their turn, or are
// refused at once, saying how long to wait. Health, which needs no key,
// still answers, and another address's key is checked.
func TestAdminKeyGuessesSlowDown(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{}, admin.Config{})
	client := &http.Client{Timeout: 1500 * time.Millisecond}
	var checked, refusedForNow, gaveUp atomic.Int32
	work := make(chan int)
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() {
			for range work {
				req, _ := http.NewRequest("GET", ts.root+admin.Prefix+"requests", nil)
				req.Header.Set("Authorization", "Bearer wrong-guess")
				resp, err := client.Do(req)
				if err != nil {
					gaveUp.Add(1)
					continue
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				switch {
				case resp.StatusCode != http.StatusUnauthorized:
					t.Errorf("a wrong key: %d %s", resp.StatusCode, body)
				case strings.Contains(string(body), "too many keys from this address"):
					if resp.Header.Get("Retry-After") == "" {
						t.Errorf("refused for now without Retry-After: %s", body)
					}
					refusedForNow.Add(1)
				default:
					checked.Add(1)
				}
			}
		})
	}
	for i := range 2000 {
		work <- i
	}
	close(work)
	wg.Wait()
	t.Logf("2,000 wrong admin keys at once from one address: %d checked, %d refused at once, %d given up on while they waited",
		checked.Load(), refusedForNow.Load(), gaveUp.Load())
	if n := checked.Load(); n > 20 {
		t.Errorf("%d of 2,000 wrong keys were checked, want the guesses slowed down to a handful", n)
	}
	if health := ts.admin(t, "GET", "health", "", ""); health.StatusCode != 200 {
		t.Errorf("health after the guesses: %s", health)
	}
	// The guesses came from 127.0.0.1; a key from 127.0.0.2 is checked at
	// once.
	other := clientAt("127.0.0.2")
	req, _ := http.NewRequestWithContext(context.Background(), "GET", ts.root+admin.Prefix+"requests", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := other.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("the key from another address: %d", resp.StatusCode)
	}
}

// clientAt returns a client whose connections come from the loopback
// address ip.
func clientAt(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}, Timeout: 10 * time.Second}
}
