package admin_test

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

// clientFrom returns a client whose connections come from the loopback
// address ip, so that a test can be two clients.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// streamStatus opens GET /__petmock/events and returns the status and
// Retry-After of its answer, leaving a stream open until the test ends.
func streamStatus(t *testing.T, client *http.Client, root string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", root+admin.Prefix+"events", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		resp.Body.Close()
	} else {
		t.Cleanup(func() { resp.Body.Close() })
	}
	return resp.StatusCode, resp.Header.Get("Retry-After")
}

// TestEventStreamsAreCapped opens streams up to the caps, of one client
// and of all: the next is refused with 503 and Retry-After, and health and
// the API still answer; once a stream closes, another may open.
func TestEventStreamsAreCapped(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{}, admin.Config{MaxStreams: 4, MaxStreamsPerClient: 3})
	a, b := clientFrom("127.0.0.1"), clientFrom("127.0.0.2")
	ctx, closeFirst := context.WithCancel(context.Background())
	first, _ := http.NewRequestWithContext(ctx, "GET", ts.root+admin.Prefix+"events", nil)
	first.Header.Set("Authorization", "Bearer "+key)
	resp, err := a.Do(first)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("the first stream: %v %v", resp, err)
	}
	for i := 2; i <= 3; i++ {
		if status, _ := streamStatus(t, a, ts.root); status != 200 {
			t.Fatalf("stream %d of one client, under its cap of 3: %d", i, status)
		}
	}
	if status, retry := streamStatus(t, a, ts.root); status != 503 || retry == "" {
		t.Errorf("a 4th stream of one client, past its cap of 3: %d with Retry-After %q, want 503 with it", status, retry)
	}
	if status, _ := streamStatus(t, b, ts.root); status != 200 {
		t.Errorf("another client's first stream, the 4th in all: %d", status)
	}
	if status, retry := streamStatus(t, b, ts.root); status != 503 || retry == "" {
		t.Errorf("a 5th stream in all, past the cap of 4: %d with Retry-After %q, want 503 with it", status, retry)
	}
	if resp := ts.admin(t, "GET", "health", ""); resp.StatusCode != 200 {
		t.Errorf("health with every stream open: %s", resp)
	}
	if resp := ts.do(t, "GET", "/pets?limit=1", ""); resp.StatusCode != 200 {
		t.Errorf("the API with every stream open: %s", resp)
	}
	closeFirst()
	resp.Body.Close()
	// The server notices the closed stream as soon as it reads the
	// connection's end: give it the time it takes.
	deadline := time.Now().Add(10 * time.Second)
	for {
		status, _ := streamStatus(t, a, ts.root)
		if status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("once a stream closed, another is still refused: %d", status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
