package steer

import (
	"context"
	"errors"
	"net/http"
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
