package main

import (
	"strings"
	"sync"
	"testing"
	"time"
)

type lockedBuilder struct {
	mu sync.Mutex
	sb strings.Builder
}

func (b *lockedBuilder) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.Write(p)
}

func (b *lockedBuilder) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.String()
}

func TestLogWriterFlushesLinesWhole(t *testing.T) {
	var out lockedBuilder
	lw := newLogWriter(&out)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for range 200 {
				lw.Write([]byte(strings.Repeat(string(rune('a'+g)), 50) + "\n"))
			}
		})
	}
	wg.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for strings.Count(out.String(), "\n") < 800 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	lw.Write([]byte("last line\n"))
	lw.Close()
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 801 || lines[800] != "last line" {
		t.Fatalf("%d lines, want 801 ending with the one written before Close", len(lines))
	}
	for i, l := range lines[:800] {
		if len(l) != 50 || strings.Count(l, l[:1]) != 50 {
			t.Fatalf("line %d is mixed or cut: %q", i, l)
		}
	}
}

// blockedWriter blocks every Write until it is released.
type blockedWriter struct {
	release chan struct{}
	mu      sync.Mutex
	got     strings.Builder
}

func (w *blockedWriter) Write(p []byte) (int, error) {
	<-w.release
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.got.Write(p)
}

// TestLogWriterNeverBlocks writes lines while what they are written to
// blocks, as a pipe nobody reads does: no Write may wait for it, lines past
// the bound are dropped, and once it takes them again, the log says how
// many were.
func TestLogWriterNeverBlocks(t *testing.T) {
	w := &blockedWriter{release: make(chan struct{})}
	lw := newLogWriter(w)
	line := []byte(strings.Repeat("x", 1023) + "\n")
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 2 * maxBuffered / len(line) {
			lw.Write(line)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Write waited for a writer that blocks")
	}
	close(w.release)
	lw.Close()
	w.mu.Lock()
	defer w.mu.Unlock()
	if !strings.Contains(w.got.String(), "log lines dropped") {
		t.Errorf("no line says how many lines were dropped")
	}
}

// TestLogWriterKeepsItsBuffers holds that a busy log grows no buffer anew
// at every flush: the buffer written out is the next one lines go to.
func TestLogWriterKeepsItsBuffers(t *testing.T) {
	lw := newLogWriter(discard{})
	defer lw.Close()
	line := []byte(strings.Repeat("x", 99) + "\n")
	fill := func() {
		for range 100 {
			lw.Write(line)
		}
		lw.flush()
	}
	fill()
	fill()
	if n := testing.AllocsPerRun(20, fill); n > 0 {
		t.Errorf("%.1f allocations a flush of 100 lines, want none", n)
	}
}

// discard keeps nothing, as /dev/null.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
