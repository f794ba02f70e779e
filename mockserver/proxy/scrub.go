package proxy

import "io"

// Scrubber finds in a relayed body what the client must not see, such as
// the key petmock sends the backend, which a backend that echoes its
// requests would hand to the browser, and hides it.
type Scrubber interface {
	// Scrub overwrites, in place, every whole occurrence in b of what it
	// hides, in any form it knows, with as many bytes, so that the
	// answer's Content-Length holds.
	Scrub(b []byte)
	// Reach is the longest run of bytes one occurrence may take: one
	// that begins in the last Reach bytes of a part of the body may run
	// on into the next part.
	Reach() int
}

// scrubWriter writes a body through a Scrubber, part by part: it keeps
// back the last Reach bytes of each part until the next one comes, so
// that what runs across two parts is found whole.
type scrubWriter struct {
	w     io.Writer
	s     Scrubber
	reach int
	bp    *[]byte
	buf   []byte // of at most window bytes: the kept tail, and what came after
}

func newScrubWriter(w io.Writer, s Scrubber) *scrubWriter {
	sw := &scrubWriter{w: w, s: s, reach: s.Reach()}
	if sw.reach < relayBytes/2 {
		sw.bp = relayBuffers.Get().(*[]byte)
		sw.buf = (*sw.bp)[:0]
	} else {
		sw.buf = make([]byte, 0, 2*sw.reach)
	}
	return sw
}

// Write scrubs p, with the tail kept of what came before, and writes all
// but the new tail.
func (sw *scrubWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		take := min(len(p), cap(sw.buf)-len(sw.buf))
		sw.buf = append(sw.buf, p[:take]...)
		p = p[take:]
		if len(sw.buf) < cap(sw.buf) {
			break
		}
		sw.s.Scrub(sw.buf)
		out := len(sw.buf) - sw.reach
		if _, err := sw.w.Write(sw.buf[:out]); err != nil {
			return n - len(p), err
		}
		sw.buf = sw.buf[:copy(sw.buf, sw.buf[out:])]
	}
	return n, nil
}

// flush scrubs and writes what is kept: the body has ended.
func (sw *scrubWriter) flush() error {
	sw.s.Scrub(sw.buf)
	_, err := sw.w.Write(sw.buf)
	sw.buf = sw.buf[:0]
	return err
}

func (sw *scrubWriter) release() {
	if sw.bp != nil {
		relayBuffers.Put(sw.bp)
		sw.bp = nil
	}
}
