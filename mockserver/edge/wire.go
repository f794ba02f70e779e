package edge

import (
	"bytes"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Go's HTTP server answers some requests itself, before any handler runs:
// a request line or a header it cannot read (400), headers that arrive too
// slowly (400 as well) or are too large (431), a transfer coding it does
// not take (501), a protocol version it does not speak (505), and an
// Expect other than 100-continue (417). It answers them in plain text, or
// with no body, and offers no hook to do otherwise.
//
// What it does offer is the connection: it writes each of those answers
// in one Write, straight to the connection, with headers no answer of a
// handler has (a status line followed at once by a text/plain
// Content-Type, and no Date), or, for 417, with a status petmock never
// sends itself. A Server's Listener recognises those writes and sends the
// error in its document's error body instead, so that every error petmock
// sends is one its document describes: the body of a request of no
// operation (spec.Contract.ErrorBody), since a request Go's server did not
// read has no operation to say otherwise, nor a path to tell the API's
// requests from the admin API's. For the Petstore it is the Error body. A
// timeout is told from other unreadable headers by the read before it,
// which timed out, and answered 408 as it should be.

// WireLimits are the bounds of the HTTP server behind a Listener, which
// its answers name, and of the connections it holds (see conns.go).
type WireLimits struct {
	ReadHeaderTimeout time.Duration
	MaxHeaderBytes    int
	// MaxConns caps the connections open at once, and MaxIdleConns the
	// idle ones among them: past either, the one idle longest is closed,
	// and a connection that comes while MaxConns are open and busy is
	// answered 503 and closed. Zero means no cap.
	MaxConns, MaxIdleConns int
}

// Listener returns ln with every connection it accepts made to send, in
// place of the plain-text answers Go's HTTP server writes by itself, the
// error of the same status in the error body that errors gives when the
// connection is accepted: that of a request of no operation of the
// document served then; and with the connections held within the caps of
// limits, once the server tells it how each is (ConnState).
func Listener(ln net.Listener, limits WireLimits, errors func() *ErrorPlan) *WireListener {
	l := &WireListener{Listener: ln, limits: limits, errors: errors}
	if limits.MaxConns > 0 || limits.MaxIdleConns > 0 {
		l.conns = &conns{max: limits.MaxConns, maxIdle: limits.MaxIdleConns, draining: make(chan struct{}, maxDraining)}
	}
	return l
}

// WireListener is the net.Listener Listener returns.
type WireListener struct {
	net.Listener
	limits WireLimits
	errors func() *ErrorPlan
	conns  *conns // nil without a cap
}

// Accept returns the next connection it admits: one that comes while
// every connection it holds is busy is refused, and the next one waited
// for.
func (l *WireListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		wc := &wireConn{Conn: c, limits: l.limits, errors: l.errors(), conns: l.conns}
		if l.conns == nil {
			return wc, nil
		}
		evict, ok := l.conns.admit(wc)
		for _, old := range evict {
			old.Conn.Close()
		}
		if ok {
			return wc, nil
		}
		l.conns.refuse(c, wc.errors)
	}
}

// wireConn is a connection of a Listener.
type wireConn struct {
	net.Conn
	limits WireLimits
	errors *ErrorPlan // of a request of no operation
	// timedOut is whether the last read timed out. Reads and writes may
	// come from different goroutines.
	timedOut atomic.Bool
	// conns counts it, when the Listener caps its connections; counted,
	// and idle, prev and next, its place among the idle ones, are guarded
	// by conns.mu.
	conns      *conns
	counted    bool
	idle       bool
	prev, next *wireConn
}

// Close closes the connection, and takes it out of the Listener's count.
func (c *wireConn) Close() error {
	if c.conns != nil {
		c.conns.closed(c)
	}
	return c.Conn.Close()
}

func (c *wireConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.timedOut.Store(err != nil && isTimeout(err))
	return n, err
}

// isTimeout reports whether err, an error of a read, is a timeout. Go's
// HTTP server ends its read in the background after every request with a
// deadline, so that every request meets one: the error a connection
// returns is asked first, without errors.As, which costs a walk through
// reflection each time.
func isTimeout(err error) bool {
	if ne, ok := err.(net.Error); ok {
		return ne.Timeout()
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func (c *wireConn) Write(p []byte) (int, error) {
	e := c.serversOwn(p)
	if e == nil {
		return c.Conn.Write(p)
	}
	contentType, body := c.errors.answer(e)
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 " + strconv.Itoa(e.Status) + " " + http.StatusText(e.Status) + "\r\n")
	if len(contentType) > 0 {
		b.WriteString("Content-Type: " + contentType[0] + "\r\n")
	}
	b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\nConnection: close\r\n\r\n")
	b.Write(body)
	if _, err := c.Conn.Write(b.Bytes()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// CloseWrite lets the server half-close the connection after a 431, as it
// does with a bare TCP connection.
func (c *wireConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// serverPlain is how Go's HTTP server heads the answers it writes by
// itself in plain text, after the status line.
const serverPlain = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// serversOwn returns the Error to send in place of p, when p is an answer
// Go's HTTP server wrote by itself; nil otherwise.
func (c *wireConn) serversOwn(p []byte) *Error {
	const proto = "HTTP/1.1 "
	if len(p) < len(proto)+3 || string(p[:len(proto)]) != proto {
		return nil
	}
	status, err := strconv.Atoi(string(p[len(proto) : len(proto)+3]))
	if err != nil {
		return nil
	}
	end := bytes.IndexByte(p, '\r')
	if end < 0 {
		return nil
	}
	// A 417 is written as an answer is, but with no header of petmock's:
	// its first header is the server's Connection, where every answer of
	// petmock's begins with its CORS headers.
	if status == http.StatusExpectationFailed && bytes.HasPrefix(p[end:], []byte("\r\nConnection: close\r\n")) {
		return NewError(status, "expect", "petmock takes only Expect: 100-continue")
	}
	if !bytes.HasPrefix(p[end:], []byte(serverPlain)) {
		return nil
	}
	// The status line is "HTTP/1.1 400 Bad Request: missing required Host
	// header" when the server says more.
	_, detail, _ := strings.Cut(string(p[len(proto)+3:end]), ": ")
	switch status {
	case http.StatusBadRequest:
		return c.badRequest(detail)
	case http.StatusRequestHeaderFieldsTooLarge:
		if c.limits.MaxHeaderBytes > 0 {
			return NewError(status, "headers", "larger than %d bytes", c.limits.MaxHeaderBytes)
		}
		return NewError(status, "headers", "too large")
	case http.StatusNotImplemented:
		return NewError(status, "transfer-encoding", "not supported; petmock takes a body with Content-Length, or chunked")
	case http.StatusHTTPVersionNotSupported:
		return NewError(status, "protocol", "petmock speaks HTTP/1.0 and HTTP/1.1 only")
	}
	if detail == "" {
		detail = http.StatusText(status)
	}
	return NewError(status, "request", "%s", strings.ToLower(detail))
}

// badRequest is the Error of a 400 of Go's HTTP server, which says what
// is wrong in detail, or nothing when it could not read the request.
func (c *wireConn) badRequest(detail string) *Error {
	switch detail {
	case "":
		if c.timedOut.Load() {
			if d := c.limits.ReadHeaderTimeout; d > 0 {
				return NewError(http.StatusRequestTimeout, "headers", "not received within %s; send the request line and headers at once", d)
			}
			return NewError(http.StatusRequestTimeout, "headers", "not received in time")
		}
		return BadRequest("request", "malformed: petmock could not read its request line or a header")
	case "missing required Host header":
		return BadRequest("host", "missing; an HTTP/1.1 request must send Host")
	case "malformed Host header":
		return BadRequest("host", "malformed")
	case "invalid header name":
		return BadRequest("header", "a name is not a valid HTTP token")
	case "invalid header value":
		return BadRequest("header", "a value holds a character HTTP does not allow")
	}
	return BadRequest("request", "%s", detail)
}

// SetLinger sets the linger of the connection, so that a reset fault
// resets it: see net.TCPConn.SetLinger.
func (c *wireConn) SetLinger(sec int) error {
	if tcp, ok := c.Conn.(*net.TCPConn); ok {
		return tcp.SetLinger(sec)
	}
	return nil
}
