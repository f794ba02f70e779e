package steer

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"
)

// MaxDribble is the longest a slow body dribbles: past it, the connection
// is closed, the body cut short, as a client's or a proxy's timeout would
// cut it. petmock's own write timeout, a minute and MaxDelay, would cut it
// a little later; this bound holds for any server a Server is run in.
const MaxDribble = time.Minute

// slowWriter sends the body of an answer a piece at a time, at rate bytes
// a second, the head at once. A body it cannot send in full, because the
// client went away, a write failed or MaxDribble passed, is cut by
// closing the connection, so that the client reads an unexpected end
// rather than a short body that looks whole.
type slowWriter struct {
	http.ResponseWriter
	ctx  context.Context
	rate int // bytes a second
	end  time.Time
	next time.Time // when the next piece may go
	cut  bool
}

// errCut is what a write of a slow body returns once the body was cut.
var errCut = errors.New("slow body cut short")

// dribble returns w made to send bodies at rate bytes a second.
func dribble(ctx context.Context, w http.ResponseWriter, rate int) *slowWriter {
	return &slowWriter{ResponseWriter: w, ctx: ctx, rate: rate, end: time.Now().Add(MaxDribble)}
}

// step is how many bytes go at a time: a tenth of a second's worth, at
// least one.
func (w *slowWriter) step() (int, time.Duration) {
	n := max(1, w.rate/10)
	return n, time.Duration(n) * time.Second / time.Duration(w.rate)
}

func (w *slowWriter) Write(p []byte) (int, error) {
	if w.cut {
		return 0, errCut
	}
	rc := http.NewResponseController(w.ResponseWriter)
	n, pause := w.step()
	sent := 0
	for sent < len(p) {
		if wait := time.Until(w.next); wait > 0 {
			if time.Now().Add(wait).After(w.end) || !sleep(w.ctx, wait) {
				w.cutShort(rc)
				return sent, errCut
			}
		}
		piece := p[sent:min(sent+n, len(p))]
		if _, err := w.ResponseWriter.Write(piece); err != nil {
			w.cutShort(rc)
			return sent, err
		}
		sent += len(piece)
		if err := rc.Flush(); err != nil {
			w.cutShort(rc)
			return sent, err
		}
		w.next = time.Now().Add(pause)
	}
	return sent, nil
}

// cutShort closes the connection under a body that is not sent in full.
func (w *slowWriter) cutShort(rc *http.ResponseController) {
	w.cut = true
	if conn, _, err := rc.Hijack(); err == nil {
		conn.Close()
	}
}

func (w *slowWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// A dribbled body comes in a number of chunks spread over a duration, as
// WireMock's chunkedDribbleDelay sends it: the head at once, then each
// chunk a share of the duration after the one before, so that the last
// comes once the duration is over. It is sent with Transfer-Encoding:
// chunked, a chunk of HTTP for each, so that a client sees the pieces as
// they come rather than a length it waits for.

// Bounds and defaults of a dribbled body.
const (
	// DefaultDribbleChunks and DefaultDribbleDuration are how a body is
	// dribbled when nothing says otherwise, such as the settings' fault.
	DefaultDribbleChunks   = 5
	DefaultDribbleDuration = time.Second
	// MaxDribbleChunks is the most chunks a body may be cut into.
	MaxDribbleChunks = 1000
)

// dribbleHold is how much of a body of no announced length, such as a
// backend's chunked answer, is held to be cut into chunks at its end;
// what comes past it is sent as it comes.
const dribbleHold = 1 << 20

// chunkWriter sends the body of an answer in chunks pieces, one every
// pause. A body whose length the head announces is cut as it is written;
// one of no announced length is held, up to dribbleHold, and cut at its
// end, Done. Like slowWriter, it cuts a body it cannot send in full by
// closing the connection.
type chunkWriter struct {
	http.ResponseWriter
	ctx    context.Context
	chunks int
	pause  time.Duration
	end    time.Time // past it, the body is cut, as MaxDribble says

	headed  bool
	length  int    // the body's length, as the head announced it; -1 when none did
	size    int    // of a chunk, for a body of known length
	written int    // bytes written to it
	held    []byte // written, not sent yet
	sent    int    // chunks sent
	passed  bool   // past dribbleHold: the rest goes as it comes
	cut     bool
}

// dribbleChunks returns w made to send bodies in chunks pieces over the
// duration over.
func dribbleChunks(ctx context.Context, w http.ResponseWriter, chunks int, over time.Duration) *chunkWriter {
	return &chunkWriter{ResponseWriter: w, ctx: ctx, chunks: chunks, pause: over / time.Duration(chunks), length: -1,
		end: time.Now().Add(MaxDribble)}
}

func (w *chunkWriter) WriteHeader(status int) {
	if w.headed {
		return
	}
	w.headed = true
	h := w.Header()
	if n, err := strconv.Atoi(h.Get("Content-Length")); err == nil && n >= 0 {
		w.length = n
		w.size = max(1, (n+w.chunks-1)/w.chunks)
	}
	// Without a length, net/http sends the body chunked, a chunk a
	// flush.
	h.Del("Content-Length")
	w.ResponseWriter.WriteHeader(status)
	http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *chunkWriter) Write(p []byte) (int, error) {
	if !w.headed {
		w.WriteHeader(http.StatusOK)
	}
	if w.cut {
		return 0, errCut
	}
	switch {
	case w.passed:
		return w.ResponseWriter.Write(p)
	case w.length < 0 && len(w.held)+len(p) > dribbleHold:
		// Too long to hold: what is held goes in the chunks left, and
		// the rest as it comes.
		w.passed = true
		if err := w.sendHeld(); err != nil {
			return 0, err
		}
		return w.ResponseWriter.Write(p)
	}
	w.held = append(w.held, p...)
	w.written += len(p)
	if w.length < 0 {
		return len(p), nil
	}
	if w.written >= w.length {
		// The whole body: the last chunks go at once.
		return len(p), w.sendHeld()
	}
	for len(w.held) >= w.size && w.sent < w.chunks-1 {
		if err := w.send(w.held[:w.size]); err != nil {
			return 0, err
		}
		w.held = w.held[w.size:]
	}
	return len(p), nil
}

// Done sends what is held, in the chunks left: the whole body of no
// announced length, or the last chunk of one.
func (w *chunkWriter) Done() {
	if !w.cut && !w.passed {
		w.sendHeld()
	}
}

// sendHeld sends what is held in the chunks left, at least one: of the
// known size, or else cut evenly.
func (w *chunkWriter) sendHeld() error {
	left := max(1, w.chunks-w.sent)
	size := max(1, (len(w.held)+left-1)/left)
	if w.length >= 0 {
		size = w.size
	}
	for len(w.held) > 0 {
		n := min(size, len(w.held))
		if err := w.send(w.held[:n]); err != nil {
			return err
		}
		w.held = w.held[n:]
	}
	return nil
}

// send sends one chunk, a pause after the one before.
func (w *chunkWriter) send(chunk []byte) error {
	rc := http.NewResponseController(w.ResponseWriter)
	if time.Now().Add(w.pause).After(w.end) || !sleep(w.ctx, w.pause) {
		w.cutShort(rc)
		return errCut
	}
	if _, err := w.ResponseWriter.Write(chunk); err != nil {
		w.cutShort(rc)
		return err
	}
	w.sent++
	if err := rc.Flush(); err != nil {
		w.cutShort(rc)
		return err
	}
	return nil
}

// cutShort closes the connection under a body that is not sent in full.
func (w *chunkWriter) cutShort(rc *http.ResponseController) {
	w.cut = true
	if conn, _, err := rc.Hijack(); err == nil {
		conn.Close()
	}
}

func (w *chunkWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
