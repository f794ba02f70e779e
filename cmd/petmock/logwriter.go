package main

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// logWriter buffers log lines and writes them out every flushEvery, so
// that a busy petmock does not make a system call for every request it
// logs. slog handlers write each line with one Write, so lines are never
// split.
type logWriter struct {
	mu  sync.Mutex // guards buf
	buf *bufio.Writer

	stop chan struct{}
	done chan struct{}
}

const flushEvery = 100 * time.Millisecond

func newLogWriter(w io.Writer) *logWriter {
	lw := &logWriter{buf: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go lw.flushLoop()
	return lw
}

func (lw *logWriter) Write(p []byte) (int, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.buf.Write(p)
}

func (lw *logWriter) flush() {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	lw.buf.Flush()
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

// Close writes out what is buffered and stops flushing.
func (lw *logWriter) Close() error {
	close(lw.stop)
	<-lw.done
	return nil
}
