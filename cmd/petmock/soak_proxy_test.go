//go:build soak

package main

import (
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
)

// residentMemory returns the memory the process of pid holds now, VmRSS
// of its /proc status, in bytes.
func residentMemory(tb testing.TB, pid int) int64 {
	tb.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		tb.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// TestSoakSlowClientsOfTheProxy: 100 clients read an endless answer of
// the backend through petmock --proxy at 20 KB/s each, for -soak.time,
// which once raised petmock to 2.5 GB, not given back after they left.
// petmock's peak must stay under 300 MB, every client must get the
// answer as it comes, and once they left, petmock gives the memory back:
// under 100 MB 5 s later.
func TestSoakSlowClientsOfTheProxy(t *testing.T) {
	const clients, rate = 100, 20 << 10
	backend := startTestBackend(t)
	p := startBinary(t, "--proxy", backend.url, "--pets", "10")
	until := soakUntil()
	var wg sync.WaitGroup
	var read, failed atomic.Int64
	for range clients {
		wg.Go(func() {
			req, _ := http.NewRequest("GET", p.url+"/pets", nil)
			req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
			req.Header.Set(answerHeader, "endless")
			resp, err := http.DefaultTransport.RoundTrip(req)
			if err != nil {
				failed.Add(1)
				return
			}
			defer resp.Body.Close()
			buf := make([]byte, rate/10)
			for time.Now().Before(until) {
				n, err := io.ReadFull(resp.Body, buf)
				read.Add(int64(n))
				if err != nil {
					failed.Add(1)
					return
				}
				time.Sleep(100 * time.Millisecond)
			}
		})
	}
	wg.Wait()
	peak := peakMemory(t, p.cmd.Process.Pid)
	time.Sleep(5 * time.Second)
	after := residentMemory(t, p.cmd.Process.Pid)
	alive(t, p)
	t.Logf("%d clients at %d KB/s on an endless answer for %s: %d MiB read, %d failed; petmock's peak %d MiB, %d MiB 5 s after they left",
		clients, rate>>10, *soakTime, read.Load()>>20, failed.Load(), peak>>20, after>>20)
	if peak > 300<<20 {
		t.Errorf("petmock's peak: %d MiB, want under 300 MiB", peak>>20)
	}
	if after > 100<<20 {
		t.Errorf("5 s after the clients left, petmock holds %d MiB, want under 100 MiB", after>>20)
	}
	if failed.Load() > 0 {
		t.Errorf("%d of %d clients failed to read the answer", failed.Load(), clients)
	}
}
