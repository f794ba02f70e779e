package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	ct "github.com/petstore/contract/conformance/conformancetest"
)

// binary is the conformance command, built once by TestMain: Ginkgo runs
// its specs once per process, so every judgement is a process of its own.
var binary string

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "conformance-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	binary = filepath.Join(dir, "conformance")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// testKey is the key the test servers accept. It is distinctive, so that a
// leak of it into any output is found.
const testKey = ct.Key

// serve serves h over a real HTTP connection and returns its base URL.
func serve(tb testing.TB, h http.Handler) string {
	tb.Helper()
	hs := httptest.NewServer(h)
	tb.Cleanup(hs.Close)
	return hs.URL + "/v1"
}

// result is what one run of the binary left behind.
type result struct {
	code    int
	stdout  string
	stderr  string
	junit   []byte // the report, if one was asked for and written
	elapsed time.Duration
	maxRSS  int64 // the most memory the process held, in bytes, as far as seen
}

func (r result) String() string {
	return fmt.Sprintf("exit %d after %v\n--- stdout\n%s\n--- stderr\n%s", r.code, r.elapsed.Round(time.Millisecond), r.stdout, r.stderr)
}

// runLimit bounds every run of the binary that sets no bound of its own. A
// run that takes longer is killed and fails its test, so that a hang shows
// as a failure instead of a stuck test.
const runLimit = 2 * time.Minute

// The checks' verdicts are tested in-process, in package conformance, on
// the same servers (package conformancetest). The tests here need the
// command itself: its exit status, its output and JUnit report, its flags,
// signals and memory, and a full run of every check against the servers
// that must pass, and against one server of each family of rules that
// must fail.

// judge runs the binary against baseURL with the key in PETSTORE_API_KEY,
// a JUnit report, no colour and items read again at the run's end once
// the earliest is 150ms old, plus args: the servers that lose items lose
// them within 100ms, and tests share two cores, so a shorter wait than
// the default's keeps them quick.
func judge(tb testing.TB, baseURL string, args ...string) result {
	tb.Helper()
	return judgeWithin(tb, runLimit, baseURL, args...)
}

// judgeWithin is judge for a run that must end within limit.
func judgeWithin(tb testing.TB, limit time.Duration, baseURL string, args ...string) result {
	tb.Helper()
	report := filepath.Join(tb.TempDir(), "report.xml")
	all := append([]string{"--base-url", baseURL, "--no-color", "--junit-report", report, "--recheck", "150ms"}, args...)
	r := runBinaryWithin(tb, limit, []string{"PETSTORE_API_KEY=" + testKey}, all...)
	r.junit, _ = os.ReadFile(report)
	return r
}

// runBinary runs the binary with env added to a minimal environment.
func runBinary(tb testing.TB, env []string, args ...string) result {
	tb.Helper()
	return runBinaryWithin(tb, runLimit, env, args...)
}

// runBinaryWithin runs the binary with env added to a minimal environment,
// and kills it and fails the test if it is still running after limit.
func runBinaryWithin(tb testing.TB, limit time.Duration, env []string, args ...string) result {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.WaitDelay = time.Second
	cmd.Dir = tb.TempDir()
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	var peak atomic.Int64
	err := cmd.Start()
	if err == nil {
		// The peak is read from the process itself while it runs: the
		// rusage of a child also counts what its parent held when it
		// forked, which under the race detector is most of it.
		exited, watched := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(watched)
			for {
				if hwm, ok := peakMemory(cmd.Process.Pid); ok {
					peak.Store(hwm)
				}
				select {
				case <-exited:
					return
				case <-time.After(5 * time.Millisecond):
				}
			}
		}()
		err = cmd.Wait()
		close(exited)
		<-watched
	}
	r := result{stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start), maxRSS: peak.Load()}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		tb.Fatalf("still running after %v: killed\n%s", limit, r)
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
	case err != nil:
		tb.Fatalf("running %s: %v", binary, err)
	}
	return r
}

// peakMemory returns the most memory the process of pid has held so far,
// VmHWM of its /proc status, in bytes.
func peakMemory(pid int) (int64, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err == nil && kb > 0
		}
	}
	return 0, false
}

// junitReport is the part of a JUnit report the tests read.
type junitReport struct {
	XMLName xml.Name `xml:"testsuites"`
	Tests   int      `xml:"tests,attr"`
	Suites  []struct {
		Cases []junitCase `xml:"testcase"`
	} `xml:"testsuite"`
}

type junitCase struct {
	Name    string `xml:"name,attr"`
	Failure *struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	} `xml:"failure"`
	Skipped *struct {
		Message string `xml:"message,attr"`
	} `xml:"skipped"`
}

// parseJUnit parses a JUnit report, failing the test if it does not parse.
func parseJUnit(tb testing.TB, data []byte) []junitCase {
	tb.Helper()
	if len(data) == 0 {
		tb.Fatal("no JUnit report was written")
	}
	var rep junitReport
	if err := xml.Unmarshal(data, &rep); err != nil {
		tb.Fatalf("the JUnit report does not parse: %v", err)
	}
	var cases []junitCase
	for _, s := range rep.Suites {
		cases = append(cases, s.Cases...)
	}
	if len(cases) == 0 {
		tb.Fatal("the JUnit report names no check")
	}
	return cases
}

// failures returns the checks of a report that failed.
func failures(cases []junitCase) []junitCase {
	var out []junitCase
	for _, c := range cases {
		if c.Failure != nil {
			out = append(out, c)
		}
	}
	return out
}

// assertNoKey fails the test if the key appears in any output of r.
func assertNoKey(tb testing.TB, r result) {
	tb.Helper()
	for name, out := range map[string]string{"stdout": r.stdout, "stderr": r.stderr, "the JUnit report": string(r.junit)} {
		if strings.Contains(out, testKey) {
			tb.Errorf("the API key appears in %s", name)
		}
	}
}
