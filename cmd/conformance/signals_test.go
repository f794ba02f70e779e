//go:build unix

package main

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer that a process writes to while the test
// reads it.
type syncBuffer struct {
	mu  sync.Mutex // guards buf
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// fifo makes a named pipe in the test's own directory, which is why these
// tests run on unix only: a file that the binary opens and reads, or
// writes, only as far as the test lets it.
func fifo(tb testing.TB, name string) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), name)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		tb.Skipf("no named pipes here: %v", err)
	}
	return path
}

// waitFor polls until ok, or fails the test after runLimit, killing cmd.
func waitFor(tb testing.TB, cmd *exec.Cmd, what string, ok func() bool) {
	tb.Helper()
	deadline := time.Now().Add(runLimit)
	for !ok() {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			tb.Fatalf("%s did not happen within %v", what, runLimit)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitExit waits for cmd to exit and returns its status, or kills it and
// fails the test after runLimit.
func waitExit(tb testing.TB, cmd *exec.Cmd, after string) int {
	tb.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(runLimit):
		cmd.Process.Kill()
		<-done
		tb.Fatalf("still running %s", after)
	}
	return cmd.ProcessState.ExitCode()
}

// TestSignalWhileLoading: SIGTERM ends a run at once while it reads its
// document, however long the reading would take: here a pipe whose writer
// never writes, so that the reading never ends by itself. The run exits 1,
// saying that nothing was judged.
func TestSignalWhileLoading(t *testing.T) {
	t.Parallel()
	doc := fifo(t, "openapi.yaml")
	cmd := exec.Command(binary, "--base-url", "http://127.0.0.1:1/v1", "--spec", doc)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "PETSTORE_API_KEY=" + testKey}
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The pipe opens for writing once the binary has opened it to read;
	// held open and never written, it keeps the binary reading.
	var writer *os.File
	waitFor(t, cmd, "the binary opening the document", func() bool {
		f, err := os.OpenFile(doc, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		writer = f
		return err == nil
	})
	defer writer.Close()
	cmd.Process.Signal(syscall.SIGTERM)
	if code := waitExit(t, cmd, "after SIGTERM while reading the document"); code != 1 {
		t.Errorf("exit %d after SIGTERM while loading, want 1\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "conformance: stopped by a signal before any check ran; nothing was judged") {
		t.Errorf("stderr does not say the run was stopped:\n%s", stderr.String())
	}
}

// TestSecondSignalExitsAtOnce: the first SIGTERM ends the run, which then
// writes its reports; a second one exits at once, even while a report is
// being written, here a JUnit report to a pipe that nobody reads, and says
// that the report may be incomplete.
func TestSecondSignalExitsAtOnce(t *testing.T) {
	t.Parallel()
	var requests atomic.Int64
	release := make(chan struct{})
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if requests.Add(1) > 1 {
			select { // the first check's request waits for the signal
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("[]"))
	}))
	t.Cleanup(func() { close(release) })
	report := fifo(t, "report.xml")
	cmd := exec.Command(binary, "--base-url", url, "--junit-report", report, "--timeout", "1m")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "PETSTORE_API_KEY=" + testKey}
	var stdout, stderr syncBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, cmd, "a check reaching the server", func() bool { return requests.Load() > 1 })
	cmd.Process.Signal(syscall.SIGTERM)
	// The run ends and writes its summary, then waits to write the JUnit
	// report into the pipe.
	waitFor(t, cmd, "the summary after the first signal", func() bool { return strings.Contains(stdout.String(), "\nCoverage: ") })
	cmd.Process.Signal(syscall.SIGTERM)
	if code := waitExit(t, cmd, "after the second SIGTERM"); code != 1 {
		t.Errorf("exit %d after a second SIGTERM, want 1\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "conformance: stopped by a second signal; the report may be incomplete") {
		t.Errorf("stderr does not say the second signal stopped the run:\n%s\n%s", stderr.String(), stdout.String())
	}
}
