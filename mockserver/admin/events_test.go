package admin_test

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

// eventStream is an open GET /__petmock/events, read line by line.
type eventStream struct {
	events chan string // the names of the events, as they come
	done   chan error  // the end of the stream
}

// openEvents opens the event stream of the server at root with the key.
// The stream is closed when the test ends.
func openEvents(t testing.TB, client *http.Client, root string) *eventStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", root+admin.Prefix+"events", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET events: %s %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	s := &eventStream{events: make(chan string, 100), done: make(chan error, 1)}
	go func() {
		defer resp.Body.Close()
		lines := bufio.NewScanner(resp.Body)
		for lines.Scan() {
			if name, ok := strings.CutPrefix(lines.Text(), "event: "); ok {
				s.events <- name
			}
		}
		s.done <- lines.Err()
	}()
	return s
}

// waitFor reads events until one named name comes. Events come within a
// fraction of a second; the bound only stops a broken stream from hanging
// the test.
func (s *eventStream) waitFor(t testing.TB, name string) {
	t.Helper()
	bound := time.After(10 * time.Second)
	for {
		select {
		case got := <-s.events:
			if got == name {
				return
			}
		case err := <-s.done:
			t.Fatalf("the stream ended (%v) before a %s event", err, name)
		case <-bound:
			t.Fatalf("no %s event within 10s", name)
		}
	}
}

// TestEventsTellWhatChanged checks that each change the console shows is
// announced on the stream. The streams' look at the stores, which finds
// the writes of the API, is put off for the test, so that it cannot stand
// in for an announcement.
func TestEventsTellWhatChanged(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{}, admin.Config{StoreCheck: time.Hour})
	stream := openEvents(t, &http.Client{}, ts.root)
	for _, tt := range []struct {
		what  string
		do    func()
		event string
	}{
		{"a request", func() { ts.do(t, "GET", "/pets", "") }, "journal"},
		{"a setting", func() { ts.admin(t, "PATCH", "settings", `{"latency":"1ms"}`) }, "settings"},
		{"an expectation", func() {
			ts.admin(t, "PUT", "expectations", `{"when":{"method":"GET","path":"/pets"},"answer":{"status":200,"body":[]}}`)
		}, "expectations"},
		{"a request an expectation answers", func() { ts.do(t, "GET", "/pets", "") }, "expectations"},
		{"no expectation", func() { ts.admin(t, "DELETE", "expectations", "") }, "expectations"},
		{"a forced answer", func() { ts.admin(t, "POST", "forced", `{"code":503}`) }, "forced"},
		{"a fixture", func() { ts.admin(t, "PUT", "pets", `[]`) }, "store"},
		{"a reset", func() { ts.admin(t, "POST", "reset", "") }, "store"},
		{"an empty catalogue", func() { ts.admin(t, "POST", "empty", "") }, "store"},
	} {
		tt.do()
		stream.waitFor(t, tt.event)
	}
	ts.Close()
	select {
	case <-stream.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the stream is still open 10s after Close")
	}
	if resp := ts.admin(t, "GET", "events", "", ""); resp.StatusCode != 401 {
		t.Errorf("GET events without a key: %s, want 401", resp)
	}
}

// TestEventsFindWritesOfTheAPI checks that a write of the API, which no
// handler announces, reaches the stream as a store event all the same.
func TestEventsFindWritesOfTheAPI(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{}, admin.Config{StoreCheck: 10 * time.Millisecond})
	stream := openEvents(t, &http.Client{}, ts.root)
	ts.do(t, "POST", "/pets", `{"name":"Rex","categoryId":1}`)
	stream.waitFor(t, "store")
	ts.Close()
}

// TestEventsOutliveServerTimeouts checks that a stream is not cut by the
// HTTP server's read and write timeouts, which petmock's command sets for
// requests and answers: the stream waits past both, then still gets an
// event.
func TestEventsOutliveServerTimeouts(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	h, err := admin.New(srv, admin.Config{})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(h)
	const timeout = 100 * time.Millisecond
	hs.Config.ReadTimeout, hs.Config.WriteTimeout = timeout, timeout
	hs.Start()
	t.Cleanup(hs.Close)
	t.Cleanup(srv.Close)
	stream := openEvents(t, hs.Client(), hs.URL)
	// Time passing is what is tested here: a stream cut by either
	// timeout ends within it.
	select {
	case err := <-stream.done:
		t.Fatalf("the stream ended after the server's timeouts: %v", err)
	case <-time.After(5 * timeout):
	}
	req, _ := http.NewRequest("GET", hs.URL+"/v1/pets", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := hs.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	stream.waitFor(t, "journal")
}
