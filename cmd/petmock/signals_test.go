//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startLimit is how long these tests wait for what they expect before
// they fail, rather than hang.
const startLimit = time.Minute

// neverEnding makes a named pipe to read a document from, and holds it
// open for writing without writing, once it has been opened to read, so
// that the reading never ends by itself: it is why these tests run on
// unix only.
func neverEnding(tb testing.TB) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "openapi.yaml")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		tb.Skipf("no named pipes here: %v", err)
	}
	go func() {
		// Opening for writing waits for the reader; the pipe then stays
		// open, and empty, until the test ends.
		w, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		tb.Cleanup(func() { w.Close() })
	}()
	return path
}

// TestSignalWhileStarting: SIGINT and SIGTERM end petmock at once while it
// starts, here while it reads a document that never ends, with exit status
// 1 and one line that says nothing was served; no start line is printed.
func TestSignalWhileStarting(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		cmd := exec.Command(petmockBinary(t), "--addr", "127.0.0.1:0", "--spec", neverEnding(t))
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The signal is sent once petmock is reading, as far as a test can
		// tell: once it has had the time to open the pipe. Sent earlier,
		// it still ends the start.
		time.Sleep(200 * time.Millisecond)
		cmd.Process.Signal(sig)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(startLimit):
			cmd.Process.Kill()
			<-done
			t.Fatalf("%v: petmock still starting %v after the signal", sig, startLimit)
		}
		if code := cmd.ProcessState.ExitCode(); code != 1 {
			t.Errorf("%v: exit %d, want 1\n%s", sig, code, stderr.String())
		}
		if want := "petmock: stopped by a signal while starting; nothing was served\n"; stderr.String() != want {
			t.Errorf("%v: stderr = %q, want %q", sig, stderr.String(), want)
		}
		if stdout.Len() > 0 {
			t.Errorf("%v: stdout = %q, want no start line", sig, stdout.String())
		}
	}
}

// TestCancelWhileStarting: run returns as soon as its context is done
// while petmock starts, and leaves nothing listening.
func TestCancelWhileStarting(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"--addr", "127.0.0.1:0", "--spec", neverEnding(t)}, func(string) string { return "" }, io.Discard, io.Discard)
	}()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, errStopped) || !strings.Contains(err.Error(), "nothing was served") {
			t.Errorf("run = %v, want errStopped", err)
		}
	case <-time.After(startLimit):
		t.Fatalf("run still starting %v after its context was done", startLimit)
	}
}
