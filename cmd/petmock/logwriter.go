package main

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// logWriter keeps log lines and writes them out every flushEvery, so that
// a busy petmock does not make a system call for every request it logs,
// and never holds a request up: the lines are written by a goroutine of
// their own, and once maxBuffered bytes wait, as when petmock's standard
// error is a pipe nobody reads, further lines are dropped, counted, and
// the log says how many once it can write again. slog handlers write each
// line with one Write, so lines are never split.
type logWriter struct {
	w io.Writer

	mu      sync.Mutex // guards buf, spare and dropped
	buf     []byte
	spare   []byte // the buffer of the last write, kept to be the next
	dropped int

	stop chan struct{}
	done chan struct{}
}

const (
	flushEvery  = 100 * time.Millisecond
	maxBuffered = 4 << 20
	keptBuffer  = 1 << 20
)

func newLogWriter(w io.Writer) *logWriter {
	lw := &logWriter{w: w, stop: make(chan struct{}), done: make(chan struct{})}
	go lw.flushLoop()
	return lw
}

// Write keeps p, a line, to be written, or drops it when too much waits.
func (lw *logWriter) Write(p []byte) (int, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if len(lw.buf)+len(p) > maxBuffered {
		lw.dropped++
		return len(p), nil
	}
	lw.buf = append(lw.buf, p...)
	return len(p), nil
}

// flush writes out what waits.
func (lw *logWriter) flush() {
	lw.mu.Lock()
	out, dropped := lw.buf, lw.dropped
	lw.buf, lw.spare, lw.dropped = lw.spare[:0], nil, 0
	lw.mu.Unlock()
	if dropped > 0 {
		out = fmt.Appendf(out, "petmock: %d log lines dropped: the log could not be written as fast as petmock wrote it\n", dropped)
	}
	if len(out) > 0 {
		lw.w.Write(out)
	}
	// The two buffers take turns, so that a busy log does not grow a new
	// one from nothing every flush: a tenth of a second of lines at tens of
	// thousands of requests a second is a few hundred KiB, copied again at
	// each doubling. One grown past keptBuffer is let go.
	if cap(out) <= keptBuffer {
		lw.mu.Lock()
		lw.spare = out[:0]
		lw.mu.Unlock()
	}
}

func (lw *logWriter) flushLoop() {
	defer close(lw.done)
	t := time.NewTicker(flushEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			lw.flush()
		case <-lw.stop:
			lw.flush()
			return
		}
	}
}

// Close writes out what waits and stops flushing.
func (lw *logWriter) Close() error {
	close(lw.stop)
	<-lw.done
	return nil
}
