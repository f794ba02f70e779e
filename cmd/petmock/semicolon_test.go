package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
)

// syncBuffer is a buffer petmock's log and the test may use at once.
type syncBuffer struct {
	mu sync.Mutex // guards b
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestQueriesWithSemicolonsDoNotFillTheLog sends a hundred queries with a
// ';' to a running petmock: each is refused with 400, and logged in its
// one line of the request log, and nothing more. Go's HTTP server logged
// a warning of its own for each until Go 1.26, which go.mod requires, so
// that a client could fill the log with them; this holds it so.
func TestQueriesWithSemicolonsDoNotFillTheLog(t *testing.T) {
	var stderr syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--pets", "3"}, env(), outW, &stderr)
		outW.Close()
	}()
	line := make([]byte, 512)
	n, err := outR.Read(line)
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, outR)
	url := strings.Fields(string(line[:n]))[2]
	for i := range 100 {
		status, _ := get(t, "GET", url+"/pets?limit=1;x="+string(rune('a'+i%26)), "")
		if status != 400 {
			t.Fatalf("a query with ';': %d, want 400", status)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	requests := 0
	for _, l := range lines {
		switch {
		case strings.Contains(l, "msg=request ") && strings.Contains(l, "status=400"):
			requests++
		case strings.Contains(l, "shutting down"):
		default:
			t.Errorf("a line beside the request log: %s", l)
		}
	}
	if requests != 100 {
		t.Errorf("the request log has %d lines of 400, want 100", requests)
	}
}
