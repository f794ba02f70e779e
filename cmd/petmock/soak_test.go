//go:build soak

package main

import (
	"flag"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The soak tests replay, against the petmock binary, the attacks that
// once broke it: concurrent loaders, floods of connections, a fuzzer of
// raw requests, many large pages and fixtures at once, and a disk that
// fills under a write load. They are kept
// so that the next attack starts from them, and run only when asked for:
//
//	go test -tags soak ./cmd/petmock -run Soak -soak.time 2m -timeout 30m
//
// Each runs for -soak.time, then checks what it must: every acknowledged
// pet kept, every answer well formed, and the peak memory of the process.

var soakTime = flag.Duration("soak.time", 20*time.Second, "how long each soak test attacks petmock")

// soakUntil returns the time a soak test stops attacking.
func soakUntil() time.Time { return time.Now().Add(*soakTime) }

// peakMemory returns the most memory the process of pid has held so far,
// VmHWM of its /proc status, in bytes. It is read from the running
// process: the rusage of a child also counts what its parent held when it
// forked.
func peakMemory(tb testing.TB, pid int) int64 {
	tb.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		tb.Fatalf("reading the peak memory of petmock: %v", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				tb.Fatal(err)
			}
			return kb << 10
		}
	}
	tb.Fatal("no VmHWM in /proc status")
	return 0
}

// alive fails the test if petmock has exited.
func alive(tb testing.TB, p *binary) {
	tb.Helper()
	if err := p.cmd.Process.Signal(syscall.Signal(0)); err != nil {
		tb.Fatalf("petmock is gone: %v", err)
	}
}
