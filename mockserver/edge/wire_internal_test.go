package edge

import (
	"fmt"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
)

// TestWirePassesOtherAnswers holds the recognition of the server's own
// answers to what only they look like: an answer of a handler, whatever
// its status and type, and whatever its body holds, passes as it is.
func TestWirePassesOtherAnswers(t *testing.T) {
	c := &wireConn{}
	for _, p := range []string{
		"HTTP/1.1 417 Expectation Failed\r\nAccess-Control-Allow-Origin: *\r\nContent-Type: application/json\r\n\r\n{}",
		"HTTP/1.1 400 Bad Request\r\nDate: Mon, 23 Nov 2026 00:53:02 GMT\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\nno",
		"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
		`{"name":"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"}`,
		"HTTP/1.1 4",
		"",
	} {
		if e := c.serversOwn([]byte(p)); e != nil {
			t.Errorf("%q taken for the server's own answer: %v", p, e)
		}
	}
	if e := c.serversOwn([]byte("HTTP/1.1 400 Bad Request" + serverPlain + "400 Bad Request")); e == nil || e.Status != 400 {
		t.Errorf("the server's own 400 not recognised: %v", e)
	}
}

// timeoutError is a timeout, as net's errors of a deadline say.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

func TestIsTimeout(t *testing.T) {
	deadline := &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}
	for _, tt := range []struct {
		name string
		err  error
		want bool
	}{
		{"a deadline met, as net returns it", deadline, true},
		{"a deadline met, wrapped", fmt.Errorf("reading: %w", deadline), true},
		{"a timeout of its own type, wrapped", fmt.Errorf("reading: %w", timeoutError{}), true},
		{"the connection reset", &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, false},
		{"the end of the stream", io.EOF, false},
	} {
		if got := isTimeout(tt.err); got != tt.want {
			t.Errorf("%s: isTimeout(%v) = %v, want %v", tt.name, tt.err, got, tt.want)
		}
	}
}

// BenchmarkWireReadTimeout is the read Go's HTTP server ends with a
// deadline after every request.
func BenchmarkWireReadTimeout(b *testing.B) {
	c := &wireConn{Conn: timeoutConn{}}
	p := make([]byte, 1)
	b.ReportAllocs()
	for b.Loop() {
		c.Read(p)
	}
}

// timeoutConn is a connection whose every read meets its deadline.
type timeoutConn struct{ net.Conn }

func (timeoutConn) Read([]byte) (int, error) {
	return 0, &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}
}
