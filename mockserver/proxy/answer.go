package proxy

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"
)

// An answer is read for checking up to a bound, MaxAnswerBytes, and, all
// answers in flight together, up to MaxHeldBytes: petmock holds that much
// of answers at most, however many clients read them and however slowly.
// The rest of an answer is relayed as the client takes it, through a
// buffer of relayBytes, so that a client that reads slowly holds its
// connection and that buffer, and not the answer: 100 clients reading an
// endless answer at 20 KB/s once took 2.5 GB. An answer larger than the
// bound, or read while the answers in flight hold MaxHeldBytes, is
// relayed unchecked, and Answer.Unchecked says why.

// relayBytes is the buffer an answer is relayed through, past what was
// read for checking.
const relayBytes = 32 << 10

var relayBuffers = sync.Pool{New: func() any { b := make([]byte, relayBytes); return &b }}

// Answer is the backend's answer to a forwarded request, read up to the
// bound.
type Answer struct {
	Status int
	// Header is the answer's header, without those of one hop.
	Header http.Header
	// Body is the body, all of it when Whole, and otherwise the part read
	// before the bound was met, maybe none: the rest comes as Relay
	// writes it.
	Body  []byte
	Whole bool
	// Unchecked says why the body was not read whole, when it was not:
	// larger than the bound, or read while the answers in flight held as
	// much as they may.
	Unchecked string

	head   bool          // the answer of a HEAD, with no body whatever its Content-Length
	rest   io.ReadCloser // the body's rest; nil when Whole
	length int64         // of the whole body, as the backend announced it; -1 unknown
	cancel context.CancelFunc
	held   *held // what Body holds of MaxHeldBytes, given back by Close
	taken  int64
	scrub  Scrubber
}

// held counts the bytes of answers read for checking and not relayed yet,
// of all the answers in flight.
type held struct {
	max int64

	mu    sync.Mutex // guards used, peak and freed
	used  int64
	peak  int64     // the most used since it was last none
	freed time.Time // when memory was last given back
}

// Once the answers in flight hold nothing after having held giveBackAt
// bytes or more, the memory they took is given back to the system at
// once, at most every giveBackEvery, rather than over the minutes the
// runtime would take: a burst of large answers leaves petmock as small as
// it was.
const (
	giveBackAt    = 16 << 20
	giveBackEvery = 10 * time.Second
)

// take takes n bytes, and reports whether they were there to take.
func (h *held) take(n int64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.used+n > h.max {
		return false
	}
	h.used += n
	h.peak = max(h.peak, h.used)
	return true
}

func (h *held) give(n int64) {
	h.mu.Lock()
	h.used -= n
	giveBack := false
	if h.used == 0 {
		giveBack = h.peak >= giveBackAt && time.Since(h.freed) >= giveBackEvery
		h.peak = 0
		if giveBack {
			h.freed = time.Now()
		}
	}
	h.mu.Unlock()
	if giveBack {
		go debug.FreeOSMemory()
	}
}

// Held returns how many bytes of answers the Backend holds for checking
// now, of all the answers in flight, and the most it may.
func (b *Backend) Held() (used, most int64) {
	b.held.mu.Lock()
	defer b.held.mu.Unlock()
	return b.held.used, b.held.max
}

// read reads resp, its body up to the bounds.
func (b *Backend) read(resp *http.Response) (*Answer, error) {
	a := &Answer{
		Status: resp.StatusCode,
		Header: make(http.Header, len(resp.Header)),
		head:   resp.Request != nil && resp.Request.Method == http.MethodHead,
		length: resp.ContentLength,
		held:   b.held,
		scrub:  b.scrub,
	}
	copyHeader(a.Header, resp.Header)
	if a.head || resp.ContentLength == 0 {
		a.Whole = true
		resp.Body.Close()
		return a, nil
	}
	if n := resp.ContentLength; n > b.max {
		// Too large to check, as the backend says: none of it is read
		// before it is relayed.
		a.Unchecked = b.tooLarge()
		a.rest = resp.Body
		return a, nil
	}
	if n := resp.ContentLength; n > 0 {
		// The size is known: read exactly that, in one allocation.
		if !b.held.take(n) {
			a.Unchecked = b.heldFull()
			a.rest = resp.Body
			return a, nil
		}
		a.taken = n
		a.Body = make([]byte, n)
		if _, err := io.ReadFull(resp.Body, a.Body); err != nil {
			a.release()
			return nil, err
		}
		a.Whole = true
		resp.Body.Close()
		return a, nil
	}
	return a, b.readUnknown(a, resp.Body)
}

// readUnknown reads a body of an unknown length, chunked, into a.Body up
// to the bounds, taking what it holds of MaxHeldBytes as it grows.
func (b *Backend) readUnknown(a *Answer, body io.ReadCloser) error {
	buf := []byte(nil)
	for {
		if len(buf) == cap(buf) {
			grow := min(max(int64(cap(buf)), 4<<10), b.max+1-int64(cap(buf)))
			if grow <= 0 {
				a.Body, a.rest, a.Unchecked = buf, body, b.tooLarge()
				return nil
			}
			if !b.held.take(grow) {
				a.Body, a.rest, a.Unchecked = buf, body, b.heldFull()
				return nil
			}
			a.taken += grow
			next := make([]byte, len(buf), int64(cap(buf))+grow)
			copy(next, buf)
			buf = next
		}
		n, err := body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			a.Body, a.Whole = buf, true
			body.Close()
			return nil
		}
		if err != nil {
			a.Body = nil
			a.release()
			return err
		}
	}
}

func (b *Backend) tooLarge() string {
	return "the body is larger than the " + size(b.max) + " petmock reads to check"
}

func (b *Backend) heldFull() string {
	return "the answers in flight hold " + size(b.held.max) + " of bodies read to check, as much as petmock holds"
}

// size writes n bytes in the unit that reads best.
func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return fmt.Sprintf("%d bytes", n)
}

// release gives back what a holds of MaxHeldBytes.
func (a *Answer) release() {
	if a.taken > 0 {
		a.held.give(a.taken)
		a.taken = 0
	}
}

// Close ends the exchange: it drops the rest of a body Relay did not
// write, and gives back what the answer held.
func (a *Answer) Close() {
	if a.rest != nil {
		a.rest.Close()
	}
	if a.cancel != nil {
		a.cancel()
	}
	a.release()
}

// Relay writes the status and the body of a to w, whose header the caller
// set, with a's Content-Length, or none when the backend gave none for a
// body larger than was read: the rest is copied as it comes, through a
// buffer of its own. What the Backend's Scrubber finds is hidden, with as
// many bytes, so that the length stays the backend's.
func (a *Answer) Relay(w http.ResponseWriter) error {
	h := w.Header()
	switch {
	case a.head:
		// The Content-Length of a HEAD is that of the GET, as the backend
		// said it.
		if a.length >= 0 {
			h.Set("Content-Length", strconv.FormatInt(a.length, 10))
		}
	case a.Whole:
		h.Set("Content-Length", strconv.Itoa(len(a.Body)))
	case a.length >= 0:
		h.Set("Content-Length", strconv.FormatInt(a.length, 10))
	default:
		h.Del("Content-Length")
	}
	w.WriteHeader(a.Status)
	if a.head {
		return nil
	}
	bp := relayBuffers.Get().(*[]byte)
	defer relayBuffers.Put(bp)
	var out io.Writer = w
	var sw *scrubWriter
	if a.scrub != nil {
		sw = newScrubWriter(w, a.scrub)
		defer sw.release()
		out = sw
	}
	if _, err := out.Write(a.Body); err != nil {
		return err
	}
	var err error
	if !a.Whole {
		_, err = io.CopyBuffer(onlyWriter{out}, onlyReader{a.rest}, *bp)
	}
	if sw != nil {
		if ferr := sw.flush(); err == nil {
			err = ferr
		}
	}
	return err
}

// onlyWriter and onlyReader hide ReadFrom and WriteTo, so that
// io.CopyBuffer copies through the buffer it is given rather than one of
// its own.
type onlyWriter struct{ io.Writer }

type onlyReader struct{ io.Reader }

// hopHeaders are the headers of one hop (RFC 9110, section 7.6.1), which a
// proxy does not forward, and Content-Length, which it sets for what it
// sends.
var hopHeaders = []string{
	"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
	"Te", "Trailer", "Transfer-Encoding", "Upgrade", "Content-Length", "Http2-Settings",
}

// copyHeader copies the header src into dst, but for the headers of one
// hop, and those src's Connection names.
func copyHeader(dst, src http.Header) {
	var named []string
	for _, v := range src["Connection"] {
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				named = append(named, http.CanonicalHeaderKey(name))
			}
		}
	}
	for name, values := range src {
		if isHop(http.CanonicalHeaderKey(name), named) {
			continue
		}
		dst[name] = append([]string(nil), values...)
	}
}

func isHop(name string, named []string) bool {
	for _, h := range hopHeaders {
		if name == h {
			return true
		}
	}
	for _, h := range named {
		if name == h {
			return true
		}
	}
	return false
}

// Rebase makes the URLs of the headers of an answer that lead to the
// backend lead to petmock instead, to public, its base URL: Location,
// Content-Location and the targets of Link. A client that follows one
// stays behind petmock; a URL that leads elsewhere is left as it is.
func (b *Backend) Rebase(h http.Header, public string) {
	from := b.base.String()
	rebase := func(v string) string {
		if rest, ok := strings.CutPrefix(v, from); ok && (rest == "" || strings.IndexByte("/?#", rest[0]) >= 0) {
			return public + rest
		}
		return v
	}
	for _, name := range []string{"Location", "Content-Location"} {
		for i, v := range h[name] {
			h[name][i] = rebase(v)
		}
	}
	for i, v := range h["Link"] {
		if !strings.Contains(v, from) {
			continue
		}
		var out strings.Builder
		for {
			open := strings.IndexByte(v, '<')
			end := strings.IndexByte(v[open+1:], '>')
			if open < 0 || end < 0 {
				out.WriteString(v)
				break
			}
			end += open + 1
			out.WriteString(v[:open+1])
			out.WriteString(rebase(v[open+1 : end]))
			v = v[end:]
		}
		h["Link"][i] = out.String()
	}
}
