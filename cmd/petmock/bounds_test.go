package main

import (
	"bufio"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

// The bounds are tested with short timeouts, and every test only asks
// that a connection be closed well within a generous multiple of them: it
// detects a missing bound, it does not time one.

var testBounds = bounds{
	readHeader:     200 * time.Millisecond,
	read:           400 * time.Millisecond,
	write:          400 * time.Millisecond,
	idle:           300 * time.Millisecond,
	maxHeaderBytes: 4 << 10,
}

const hangDetector = 10 * time.Second

func boundedServer(t *testing.T) string {
	t.Helper()
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	handler, err := admin.New(srv, admin.Config{})
	if err != nil {
		t.Fatal(err)
	}
	// The admin API is made on its first request: made here, rather than
	// by a test's first request, whose answer must be written within
	// testBounds.write, which making it took longer than under the race
	// detector on a busy machine (the connection closed unanswered).
	handler.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "http://petmock/__petmock/health", nil))
	hs := newHTTPServer(handler, testBounds, log.New(io.Discard, "", 0))
	go hs.Serve(wireListener(srv, ln, testBounds, connLimits{}))
	t.Cleanup(func() { hs.Close() })
	return ln.Addr().String()
}

// closedWithin reports how long the server took to close conn, failing
// the test if it did not within hangDetector.
func closedWithin(t *testing.T, conn net.Conn, trickle func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	done := make(chan struct{})
	go func() {
		defer close(done)
		io.Copy(io.Discard, conn)
	}()
	for {
		select {
		case <-done:
			return time.Since(start)
		case <-time.After(50 * time.Millisecond):
			if time.Since(start) > hangDetector {
				t.Fatalf("the server still holds the connection after %s", hangDetector)
			}
			if trickle != nil && !trickle() {
				trickle = nil
			}
		}
	}
}

func TestDefaultBoundsAreSet(t *testing.T) {
	hs := newHTTPServer(http.NotFoundHandler(), defaultBounds, nil)
	if hs.ReadHeaderTimeout <= 0 || hs.ReadTimeout <= 0 || hs.WriteTimeout <= 0 || hs.IdleTimeout <= 0 || hs.MaxHeaderBytes <= 0 {
		t.Errorf("an unbounded server: %+v", defaultBounds)
	}
	if hs.WriteTimeout <= steer.MaxDelay || hs.ReadTimeout < hs.ReadHeaderTimeout {
		t.Errorf("the write timeout %s leaves no room for a delay of %s", hs.WriteTimeout, steer.MaxDelay)
	}
}

func TestSlowHeadersAreCut(t *testing.T) {
	conn, err := net.Dial("tcp", boundedServer(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "GET /v1/pets HTTP/1.1\r\nHost: petmock\r\n")
	sent := 0
	took := closedWithin(t, conn, func() bool {
		sent++
		_, err := io.WriteString(conn, "X-Slow: a\r\n")
		return err == nil
	})
	t.Logf("a client trickling headers was cut after %s (%d header lines)", took, sent)
}

func TestSlowBodyIsCut(t *testing.T) {
	conn, err := net.Dial("tcp", boundedServer(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "POST /v1/pets HTTP/1.1\r\nHost: petmock\r\nAuthorization: Bearer "+mockserver.DefaultAPIKey+
		"\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"name\":\"")
	took := closedWithin(t, conn, func() bool {
		_, err := io.WriteString(conn, "x")
		return err == nil
	})
	t.Logf("a client trickling its body was cut after %s", took)
}

func TestIdleConnectionsAreClosed(t *testing.T) {
	conn, err := net.Dial("tcp", boundedServer(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "GET /__petmock/health HTTP/1.1\r\nHost: petmock\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	closedWithin(t, conn, nil)
}

func TestLargeHeadersAreRefused(t *testing.T) {
	conn, err := net.Dial("tcp", boundedServer(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "GET /v1/pets HTTP/1.1\r\nHost: petmock\r\nX-Big: "+strings.Repeat("b", 64<<10)+"\r\n\r\n")
	conn.SetReadDeadline(time.Now().Add(hangDetector))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a 64 KiB header: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge || resp.Header.Get("Content-Type") != "application/json" ||
		!strings.Contains(string(body), `"message":"headers: larger than 4096 bytes"`) {
		t.Errorf("a 64 KiB header with a 4 KiB limit: %d %s, want a 431 Error", resp.StatusCode, body)
	}
}

// TestSlowAnswersAreCut checks the write timeout: an answer that takes
// longer than it is never written, and the connection is freed.
func TestSlowAnswersAreCut(t *testing.T) {
	conn, err := net.Dial("tcp", boundedServer(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "GET /v1/pets HTTP/1.1\r\nHost: petmock\r\nAuthorization: Bearer "+mockserver.DefaultAPIKey+"\r\nPrefer: delay=2000\r\n\r\n")
	conn.SetReadDeadline(time.Now().Add(hangDetector))
	start := time.Now()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("an answer delayed past the write timeout was written: %d", resp.StatusCode)
	}
	if took := time.Since(start); took >= hangDetector {
		t.Fatalf("the connection was held for %s", took)
	}
}

// TestServeSendsErrorsForTheServersOwnAnswers checks that petmock serves
// through the server's Listener: an answer Go's HTTP server makes by itself
// is an Error body.
func TestServeSendsErrorsForTheServersOwnAnswers(t *testing.T) {
	s := start(t, "--pets", "0")
	conn, err := net.Dial("tcp", strings.TrimPrefix(strings.TrimSuffix(s.url, "/v1"), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "GET /v1/pets HTTP/2.0\r\nHost: petmock\r\n\r\n")
	conn.SetReadDeadline(time.Now().Add(hangDetector))
	got, _ := io.ReadAll(conn)
	if !strings.HasPrefix(string(got), "HTTP/1.1 505 ") || !strings.Contains(string(got), `"code":"http_version_not_supported"`) {
		t.Errorf("an HTTP/2.0 request line: %q, want a 505 Error", got)
	}
}
