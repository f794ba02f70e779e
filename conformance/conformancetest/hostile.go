package conformancetest

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// HostileServer breaks HTTP in one way, and counts what it managed to do.
type HostileServer struct {
	// URL is the base URL, with the version segment.
	URL string

	// Requests counts the requests received or, for a silent server, the
	// connections.
	Requests atomic.Int64
	// MostWritten is the most bytes written in answer to one request.
	MostWritten atomic.Int64

	done chan struct{}  // closed when the test ends: held connections let go
	wg   sync.WaitGroup // counts handlers and held connections
}

// NewHostile serves every request with handle, over a real connection,
// until the test ends.
func NewHostile(tb testing.TB, handle func(s *HostileServer, w http.ResponseWriter, r *http.Request)) *HostileServer {
	tb.Helper()
	s := &HostileServer{done: make(chan struct{})}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.wg.Add(1)
		defer s.wg.Done()
		s.Requests.Add(1)
		handle(s, w, r)
	}))
	tb.Cleanup(func() {
		close(s.done)
		hs.Close()
		s.wg.Wait()
	})
	s.URL = hs.URL + "/v1"
	return s
}

// NewSilent returns a server that accepts connections and never sends a
// byte on them.
func NewSilent(tb testing.TB) *HostileServer {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	s := &HostileServer{done: make(chan struct{}), URL: "http://" + ln.Addr().String() + "/v1"}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.Requests.Add(1)
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				s.Hold(c)
			}()
		}
	}()
	tb.Cleanup(func() {
		close(s.done)
		ln.Close()
		s.wg.Wait()
	})
	return s
}

// Done is closed when the test ends.
func (s *HostileServer) Done() <-chan struct{} { return s.done }

// Hold keeps c open and silent until the client closes it or the test
// ends, then closes it.
func (s *HostileServer) Hold(c net.Conn) {
	gone := make(chan struct{})
	go func() {
		io.Copy(io.Discard, c)
		close(gone)
	}()
	select {
	case <-gone:
	case <-s.done:
	}
	c.Close()
	<-gone
}

// AnswerFirst answers the first request the server gets, such as a run's
// preflight, as the API would, so that what follows meets the server's
// fault; it reports whether it answered.
func (s *HostileServer) AnswerFirst(w http.ResponseWriter) bool {
	if s.Requests.Load() != 1 {
		return false
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte("[]"))
	return true
}

// Hijack takes the connection of w, so that the answer can break HTTP. The
// caller closes it, or holds it.
func Hijack(w http.ResponseWriter) net.Conn {
	c, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err) // the test's own server failed, not the judge
	}
	return c
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (cw *countingWriter) Write(p []byte) (int, error) {
	n, err := cw.w.Write(p)
	cw.n += int64(n)
	return n, err
}

// Flood writes the head of an answer on c, then body from repeat over and
// over, up to total bytes or until the client stops reading. It records the
// bytes written. A small send buffer keeps the kernel from taking much
// more than the client reads, so the count is close to what it read.
func (s *HostileServer) Flood(c net.Conn, head string, chunked bool, repeat []byte, total int64) {
	defer c.Close()
	c.(*net.TCPConn).SetWriteBuffer(64 << 10)
	cw := &countingWriter{w: c}
	defer func() { s.NoteWritten(cw.n) }()
	if _, err := io.WriteString(c, head); err != nil {
		return
	}
	var body io.Writer = cw
	if chunked {
		body = httputil.NewChunkedWriter(cw)
	}
	var sent int64
	for sent < total {
		n, err := body.Write(repeat[:min(int64(len(repeat)), total-sent)])
		sent += int64(n)
		if err != nil {
			return
		}
		select {
		case <-s.done:
			return
		default:
		}
	}
	if chunked {
		io.WriteString(c, "0\r\n\r\n")
	}
}

// NoteWritten records that n bytes were written in answer to one request.
func (s *HostileServer) NoteWritten(n int64) {
	for {
		most := s.MostWritten.Load()
		if n <= most || s.MostWritten.CompareAndSwap(most, n) {
			return
		}
	}
}

// EchoedPets is a valid start of a Pets body of about size bytes that
// echoes the Authorization header of r in every name.
func EchoedPets(r *http.Request, size int) []byte {
	pet := fmt.Sprintf(`{"id":1,"name":%q,"categoryId":1,"status":"available"},`, r.Header.Get("Authorization"))
	return []byte("[" + strings.Repeat(pet, size/len(pet)+1))
}

// Head is the status line and headers of a 200 with a JSON body, and the
// extra header lines, each ending in CRLF.
func Head(extra ...string) string {
	return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + strings.Join(extra, "") + "\r\n"
}
