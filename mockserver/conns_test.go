package mockserver_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/edge"
)

// cappedServer serves a mock through a Listener with the given caps of
// connections; a request to /block waits until release is closed.
func cappedServer(t *testing.T, limits edge.WireLimits, release chan struct{}) (string, *edge.WireListener) {
	t.Helper()
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	wl := srv.Listener(ln, limits)
	hs := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/block" {
				<-release
				return
			}
			srv.ServeHTTP(w, r)
		}),
		ReadHeaderTimeout: 10 * time.Second,
		ConnState:         wl.ConnState,
	}
	go hs.Serve(wl)
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String(), wl
}

// rawGet sends a GET of path on conn and reads the answer's head and body.
func rawGet(t *testing.T, conn net.Conn, path string) (*http.Response, []byte) {
	t.Helper()
	io.WriteString(conn, "GET "+path+" HTTP/1.1\r\nHost: petmock\r\nAuthorization: Bearer "+key+"\r\n\r\n")
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

// TestIdleConnectionsMakeRoom: connections that sit idle, far more than
// the caps, never keep a new client out: the one idle longest is closed
// to make room, and the idle ones never pass their cap.
func TestIdleConnectionsMakeRoom(t *testing.T) {
	addr, wl := cappedServer(t, edge.WireLimits{MaxConns: 8, MaxIdleConns: 4}, nil)
	var idle []net.Conn
	for range 50 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		idle = append(idle, c)
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if resp, body := rawGet(t, c, "/v1/pets?limit=1"); resp.StatusCode != 200 {
		t.Errorf("a client after 50 idle connections: %d %s, want 200", resp.StatusCode, body)
	}
	if open, idle := wl.Conns(); open > 8 || idle > 4 {
		t.Errorf("%d connections open, %d idle; want at most 8 and 4", open, idle)
	}
	// The oldest idle ones were closed.
	idle[0].SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := idle[0].Read(make([]byte, 1)); err == nil {
		t.Errorf("the first idle connection is still open: read %d bytes", n)
	}
}

// TestBusyConnectionsRefuse: while every connection held is busy with a
// request, a new one is answered 503 in the document's error body, with
// Retry-After, and closed; once one is done, a new one is served.
func TestBusyConnectionsRefuse(t *testing.T) {
	release := make(chan struct{})
	addr, wl := cappedServer(t, edge.WireLimits{MaxConns: 3}, release)
	for range 3 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, "GET /block HTTP/1.1\r\nHost: petmock\r\n\r\n")
	}
	for deadline := time.Now().Add(10 * time.Second); ; {
		if open, idle := wl.Conns(); open == 3 && idle == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the three blocking requests were not all taken")
		}
		time.Sleep(5 * time.Millisecond)
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	resp, body := rawGet(t, c, "/v1/pets?limit=1")
	var e edge.Error
	if resp.StatusCode != 503 || json.Unmarshal(body, &e) != nil || e.Code != "unavailable" || e.Status != 503 ||
		!strings.Contains(e.Message, "connections: petmock holds 3 connections") || resp.Header.Get("Retry-After") != "1" {
		t.Errorf("a connection while 3 of 3 are busy: %d %s (Retry-After %q), want a 503 Error naming the cap", resp.StatusCode, body, resp.Header.Get("Retry-After"))
	}
	close(release)
	for deadline := time.Now().Add(10 * time.Second); ; {
		if _, idle := wl.Conns(); idle > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no connection became idle once the requests were done")
		}
		time.Sleep(5 * time.Millisecond)
	}
	c2, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if resp, body := rawGet(t, c2, "/v1/pets?limit=1"); resp.StatusCode != 200 {
		t.Errorf("a connection once the requests were done: %d %s", resp.StatusCode, body)
	}
}
