package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/petstore/contract/mockserver"
)

// process is a running petmock or baseline.
type process struct {
	cmd     *exec.Cmd
	url     string // base URL, ending in the document's base path, such as /v1
	started time.Time
	ready   time.Duration // from spawn to the start line
}

// urlInLine finds the base URL in the line petmock or the baseline prints
// once it listens.
var urlInLine = regexp.MustCompile(`http://\S+`)

// start spawns bin and waits for the line that carries its URL.
func start(ctx context.Context, bin string, args ...string) (*process, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = nil // the request log would cost a terminal, not petmock
	p := &process{cmd: cmd, started: time.Now()}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("%s %v: no start line: %v", filepath.Base(bin), args, err)
	}
	p.ready = time.Since(p.started)
	go io.Copy(io.Discard, out)
	if p.url = urlInLine.FindString(line); p.url == "" {
		p.stop()
		return nil, fmt.Errorf("%s: no URL in %q", filepath.Base(bin), line)
	}
	return p, nil
}

// stop ends p as an operator would, with SIGTERM, and kills it if it has
// not exited within 10 seconds.
func (p *process) stop() {
	p.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		p.cmd.Process.Kill()
		<-done
	}
}

// memory returns the resident and the peak resident memory of p.
func (p *process) memory() (rss, peak int64, err error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		kb, _ := strconv.ParseInt(fields[1], 10, 64)
		switch fields[0] {
		case "VmRSS:":
			rss = kb << 10
		case "VmHWM:":
			peak = kb << 10
		}
	}
	return rss, peak, nil
}

// cpuTime returns the CPU time p has spent, every thread of it, as the
// scheduler counts it in nanoseconds (/proc/PID/task/*/schedstat); 0
// where there is no /proc.
func (p *process) cpuTime() time.Duration {
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", p.cmd.Process.Pid))
	var total time.Duration
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		if fields := strings.Fields(string(data)); len(fields) > 0 {
			ns, _ := strconv.ParseInt(fields[0], 10, 64)
			total += time.Duration(ns)
		}
	}
	return total
}

// answer sends one request with the Petstore's key and returns the
// answer, read.
func answer(method, url, body string) (canned, error) {
	return answerWith(method, url, body, []string{"Authorization: Bearer " + mockserver.DefaultAPIKey})
}

// answerWith sends one request with headers ("Name: value") and returns
// the answer, read, to be replayed.
func answerWith(method, url, body string, headers []string) (canned, error) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return canned{}, err
	}
	for _, h := range headers {
		name, value, _ := strings.Cut(h, ": ")
		req.Header.Add(name, value)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return canned{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return canned{Status: resp.StatusCode, Header: resp.Header, Body: b}, err
}
