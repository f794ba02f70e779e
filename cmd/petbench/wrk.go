package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/petstore/contract/mockserver"
)

// load is what one wrk run measured.
type load struct {
	rps      float64
	p50, p99 time.Duration
	errors   int // non-2xx answers and socket errors
}

// wrkSettings are the options of every wrk run: the same for petmock and
// the baseline.
type wrkSettings struct {
	threads, connections int
	duration             time.Duration
}

// ensureWrk returns the path of wrk, installing it with apt-get if it is
// missing and the machine allows.
func ensureWrk(ctx context.Context, log func(string, ...any)) (string, error) {
	if path, err := exec.LookPath("wrk"); err == nil {
		return path, nil
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		return "", errors.New("wrk is not installed and there is no apt-get to install it; install wrk and run again")
	}
	prefix := []string{}
	if os.Geteuid() != 0 {
		if _, err := exec.LookPath("sudo"); err != nil {
			return "", errors.New("wrk is not installed; run as root or install wrk (apt-get install wrk)")
		}
		prefix = []string{"sudo", "-n"}
	}
	log("installing wrk with apt-get")
	for _, args := range [][]string{{"apt-get", "update", "-qq"}, {"apt-get", "install", "-y", "-qq", "wrk"}} {
		full := append(append([]string{}, prefix...), args...)
		cmd := exec.CommandContext(ctx, full[0], full[1:]...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("%s: %v\n%s", strings.Join(full, " "), err, out)
		}
	}
	return exec.LookPath("wrk")
}

// runWrk loads url for the set duration, each request with headers
// ("Name: value"). body, when not empty, makes the requests POSTs of that
// JSON body.
func runWrk(ctx context.Context, wrk string, s wrkSettings, url string, headers []string, body, scratch string) (load, error) {
	args := []string{
		"-t", strconv.Itoa(s.threads), "-c", strconv.Itoa(s.connections),
		"-d", strconv.Itoa(int(s.duration.Seconds())) + "s", "--latency",
	}
	for _, h := range headers {
		args = append(args, "-H", h)
	}
	if body != "" {
		script := filepath.Join(scratch, "post.lua")
		lua := fmt.Sprintf("wrk.method = \"POST\"\nwrk.body = %q\nwrk.headers[\"Content-Type\"] = \"application/json\"\n", body)
		if err := os.WriteFile(script, []byte(lua), 0o644); err != nil {
			return load{}, err
		}
		args = append(args, "-s", script)
	}
	out, err := exec.CommandContext(ctx, wrk, append(args, url)...).CombinedOutput()
	if err != nil {
		return load{}, fmt.Errorf("wrk %s: %v\n%s", url, err, out)
	}
	return parseWrk(string(out))
}

// credentials are the headers that carry the key on every request of a
// load: the Petstore's bearer token, or what the document of --spec asks.
func (b *bench) credentials() []string {
	if b.headers != nil {
		return b.headers
	}
	return []string{"Authorization: Bearer " + mockserver.DefaultAPIKey}
}

// best runs a load o.rounds times and keeps the run with the most
// requests/s.
func (b *bench) best(ctx context.Context, url, body string) (load, error) {
	return b.bestOf(ctx, b.o.wrk, url, body)
}

// bestOf is best with other settings of wrk.
func (b *bench) bestOf(ctx context.Context, s wrkSettings, url, body string) (load, error) {
	top, err := b.bestInTurn(ctx, s, body, url)
	if err != nil {
		return load{}, err
	}
	return top[0], nil
}

// bestInTurn loads each of urls, the ones compared, one after the other,
// o.rounds times over, and keeps the best run of each. Taken in turn
// rather than one after the other's rounds, the servers compared share
// what the machine does meanwhile: a slow minute of this shared machine
// falls on each of them, where it fell on whichever was loaded then and
// moved the ratio by ten points.
func (b *bench) bestInTurn(ctx context.Context, s wrkSettings, body string, urls ...string) ([]load, error) {
	top := make([]load, len(urls))
	for range b.o.rounds {
		for i, url := range urls {
			l, err := runWrk(ctx, b.wrk, s, url, b.credentials(), body, b.scratch)
			if err != nil {
				return nil, err
			}
			if l.errors > 0 {
				return nil, fmt.Errorf("%s: %d requests failed under load", url, l.errors)
			}
			if l.rps > top[i].rps {
				top[i] = l
			}
		}
	}
	return top, nil
}

var (
	rpsLine     = regexp.MustCompile(`(?m)^Requests/sec:\s+([0-9.]+)`)
	percentLine = regexp.MustCompile(`(?m)^\s+(50|99)%\s+([0-9.]+)(us|ms|s)\s*$`)
	non2xxLine  = regexp.MustCompile(`(?m)^\s*Non-2xx or 3xx responses:\s+([0-9]+)`)
	socketLine  = regexp.MustCompile(`(?m)^\s*Socket errors: connect ([0-9]+), read ([0-9]+), write ([0-9]+), timeout ([0-9]+)`)
)

// parseWrk reads the figures out of wrk --latency output.
func parseWrk(out string) (load, error) {
	var l load
	m := rpsLine.FindStringSubmatch(out)
	if m == nil {
		return l, fmt.Errorf("no Requests/sec in wrk output:\n%s", out)
	}
	l.rps, _ = strconv.ParseFloat(m[1], 64)
	for _, m := range percentLine.FindAllStringSubmatch(out, -1) {
		v, _ := strconv.ParseFloat(m[2], 64)
		unit := map[string]time.Duration{"us": time.Microsecond, "ms": time.Millisecond, "s": time.Second}[m[3]]
		d := time.Duration(v * float64(unit))
		if m[1] == "50" {
			l.p50 = d
		} else {
			l.p99 = d
		}
	}
	if l.p50 == 0 || l.p99 == 0 {
		return l, fmt.Errorf("no latency distribution in wrk output:\n%s", out)
	}
	if m := non2xxLine.FindStringSubmatch(out); m != nil {
		n, _ := strconv.Atoi(m[1])
		l.errors += n
	}
	if m := socketLine.FindStringSubmatch(out); m != nil {
		for _, v := range m[1:] {
			n, _ := strconv.Atoi(v)
			l.errors += n
		}
	}
	return l, nil
}
