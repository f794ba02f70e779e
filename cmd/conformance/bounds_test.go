package main

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	ct "github.com/petstore/contract/conformance/conformancetest"
)

// memoryBound is the most memory a run may hold, whatever the deployment
// sends, as the README promises.
const memoryBound = 256 << 20

// repeated returns a JSON array of about size bytes of one item.
func repeated(item string, size int) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for b.Len() < size {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(item)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// TestBodiesTheJudgeBounds: a deployment that answers every request with
// a large, valid JSON body that breaks the schema everywhere, well under
// the body cap, costs the judge little: the run fails quickly on its own,
// holds less than memoryBound, and writes a log of a reasonable size.
func TestBodiesTheJudgeBounds(t *testing.T) {
	t.Parallel()
	var pets bytes.Buffer
	pets.WriteByte('[')
	for i := range 1_500 {
		if i > 0 {
			pets.WriteByte(',')
		}
		fmt.Fprintf(&pets, `{"id":%d,"name":"pet %d","categoryId":"seven","status":"available"}`, i+1, i)
	}
	pets.WriteByte(']')
	for _, tc := range []struct {
		name string
		body []byte
		says string
	}{
		{"1 MiB of empty objects", repeated("{}", 1<<20), "the run stops: 3 requests got no complete answer"},
		{"8 MiB of empty objects", repeated("{}", 8<<20-16), "more than 100000 JSON values"},
		{"8 MiB of ones", repeated("1", 8<<20-16), "more than 100000 JSON values"},
		{"1,500 pets with a string categoryId, whatever the limit", pets.Bytes(), "and 1495 more"},
		{"100,000 pets, whatever the limit", repeated(`{"id":1,"name":"a","categoryId":1}`, 4<<20), "more than 100000 JSON values"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Write(tc.body)
			}))
			r := judge(t, url)
			if r.code != 1 {
				t.Fatalf("exit %d, want 1\n%.3000s", r.code, r)
			}
			if !strings.Contains(r.stdout, tc.says) {
				t.Errorf("the output does not say %q\n%.3000s", tc.says, r.stdout)
			}
			if r.maxRSS == 0 || r.maxRSS > memoryBound {
				t.Errorf("the run held %d MiB at most, want less than %d", r.maxRSS>>20, memoryBound>>20)
			}
			if len(r.stdout) > 4<<20 {
				t.Errorf("the run wrote %d MiB of log", len(r.stdout)>>20)
			}
		})
	}
}

// TestSignalEndsTheRun: SIGTERM ends a run at once, with the report
// written and exit status 1: the check under way stops, and no other
// runs.
func TestSignalEndsTheRun(t *testing.T) {
	t.Parallel()
	var requests atomic.Int64
	inCheck := make(chan struct{})
	release := make(chan struct{})
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if requests.Add(1) == 2 {
			close(inCheck) // the first check's request, after the preflight
		}
		if requests.Load() > 1 {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("[]"))
	}))
	// Registered after serve's, so that it runs first: the server's Close
	// waits for the handlers it releases.
	t.Cleanup(func() { close(release) })
	report := filepath.Join(t.TempDir(), "report.xml")
	cmd := exec.Command(binary, "--base-url", url, "--junit-report", report, "--timeout", "1m")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "PETSTORE_API_KEY=" + testKey}
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-inCheck:
	case <-time.After(runLimit):
		cmd.Process.Kill()
		t.Fatal("no check reached the server")
	}
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(runLimit):
		cmd.Process.Kill()
		t.Fatalf("still running after SIGTERM\n%s", stdout.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Errorf("exit %d after SIGTERM, want 1", code)
	}
	if n := requests.Load(); n > 3 {
		t.Errorf("the server got %d requests: checks ran after the signal", n)
	}
	data, err := os.ReadFile(report)
	if err != nil || !strings.Contains(string(data), "interrupted") {
		t.Errorf("the report was not written, or does not say the run was interrupted: %v\n%s", err, data)
	}
}

// TestRunTimeout: --run-timeout bounds a run whose every answer comes just
// inside --timeout: past it, the checks left do not run and the run fails,
// saying so.
func TestRunTimeout(t *testing.T) {
	t.Parallel()
	var requests atomic.Int64
	url := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if requests.Add(1) > 1 {
			time.Sleep(300 * time.Millisecond)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("[]"))
	}))
	r := judge(t, url, "--run-timeout", "2s", "--timeout", "1s")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.code, r)
	}
	if !strings.Contains(r.stdout, "did not run: suite timeout elapsed") {
		t.Errorf("the output does not say the run ran out of time\n%s", r.stdout)
	}
}

// TestLongEnumerationsAreSampled: a document whose PetStatus lists 10,000
// values makes a few hundred checks, not tens of thousands: the checks
// that take one value each take a sample of them, which the coverage
// summary says.
func TestLongEnumerationsAreSampled(t *testing.T) {
	t.Parallel()
	values := []string{"available", "pending", "sold"}
	for i := len(values); i < 10_000; i++ {
		values = append(values, fmt.Sprintf("status-%04d", i))
	}
	long := writeSpec(t, "        - available\n        - pending\n        - sold\n      x-petmock-mix: [60, 25, 15]\n",
		"        - "+strings.Join(values, "\n        - ")+"\n")
	r := judge(t, serve(t, ct.Petmock(t)), "--spec", long, "--label-filter", "no-check-has-this-label")
	m := regexp.MustCompile(`Will run 0 of (\d+) specs`).FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("the run does not say how many checks it declared\n%s", r)
	}
	if n, _ := strconv.Atoi(m[1]); n > 500 {
		t.Errorf("a PetStatus of 10000 values made %d checks, want a few hundred at most", n)
	}
	for _, want := range []string{"sampled: status: 8 of its 10000 values"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the coverage summary does not say %q\n%s", want, r.stdout)
		}
	}
}
