package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/petstore/contract/mockserver"
)

// bench holds what a run needs: the binaries, wrk and a scratch directory.
type bench struct {
	o       options
	wrk     string
	petmock string
	judge   string // the conformance CLI
	self    string // this binary, for the baseline
	scratch string
	log     func(string, ...any)
}

// run measures every target, or serves the baseline when args name the
// hidden static subcommand, as petbench does for itself.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == staticCommand {
		return serveStatic(ctx, args[1:], stdout)
	}
	o, err := parseOptions(args, stderr)
	if err != nil {
		return err
	}
	logf := func(format string, a ...any) { fmt.Fprintf(stderr, "petbench: "+format+"\n", a...) }
	scratch, err := os.MkdirTemp("", "petbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	b := &bench{o: o, scratch: scratch, log: logf}
	if b.wrk, err = ensureWrk(ctx, logf); err != nil {
		return err
	}
	if b.self, err = os.Executable(); err != nil {
		return err
	}
	logf("building petmock and conformance")
	b.petmock = filepath.Join(scratch, "petmock")
	b.judge = filepath.Join(scratch, "conformance")
	for bin, pkg := range map[string]string{b.petmock: "./cmd/petmock", b.judge: "./cmd/conformance"} {
		if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s (run petbench from the root of the repository): %v\n%s", pkg, err, out)
		}
	}

	var results []result
	for _, step := range []func(context.Context) ([]result, error){b.throughput, b.storeSize, b.startups, b.conformanceRun} {
		rs, err := step(ctx)
		if err != nil {
			return err
		}
		results = append(results, rs...)
	}
	fmt.Fprintf(stdout, "\npetbench: wrk -t%d -c%d, %s per run, best of %d runs each\n\n", o.wrk.threads, o.wrk.connections, o.wrk.duration, o.rounds)
	printTable(stdout, results)
	for _, r := range results {
		if !r.met {
			return errMissed
		}
	}
	return nil
}

const createBody = `{"name":"Load","categoryId":2,"status":"pending"}`

// best runs a load o.rounds times and keeps the run with the most
// requests/s.
func (b *bench) best(ctx context.Context, url, body string) (load, error) {
	var top load
	for range b.o.rounds {
		l, err := runWrk(ctx, b.wrk, b.o.wrk, url, mockserver.DefaultAPIKey, body, b.scratch)
		if err != nil {
			return load{}, err
		}
		if l.errors > 0 {
			return load{}, fmt.Errorf("%s: %d requests failed under load", url, l.errors)
		}
		if l.rps > top.rps {
			top = l
		}
	}
	return top, nil
}

// throughput compares petmock with the baseline on listPets and createPet.
func (b *bench) throughput(ctx context.Context) ([]result, error) {
	pm, err := start(ctx, b.petmock, "--addr", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	defer pm.stop()
	listURL := pm.url + "/pets?limit=20"
	get, err := answer("GET", listURL, "")
	if err != nil {
		return nil, err
	}
	post, err := answer("POST", pm.url+"/pets", createBody)
	if err != nil {
		return nil, err
	}
	if get.Status != 200 || post.Status != 201 {
		return nil, fmt.Errorf("petmock answered %d and %d, want 200 and 201", get.Status, post.Status)
	}
	answers := filepath.Join(b.scratch, "answers.json")
	data, _ := json.Marshal(map[string]canned{"get": get, "post": post})
	if err := os.WriteFile(answers, data, 0o644); err != nil {
		return nil, err
	}
	st, err := start(ctx, b.self, staticCommand, "--answers", answers)
	if err != nil {
		return nil, err
	}
	defer st.stop()

	var out []result
	for _, op := range []struct {
		name, path, body string
		minRatio         float64
	}{
		{"GET /v1/pets?limit=20", "/pets?limit=20", "", 0.60},
		{"POST /v1/pets", "/pets", createBody, 0.40},
	} {
		b.log("loading %s: baseline, then petmock", op.name)
		base, err := b.best(ctx, st.url+op.path, op.body)
		if err != nil {
			return nil, err
		}
		mock, err := b.best(ctx, pm.url+op.path, op.body)
		if err != nil {
			return nil, err
		}
		ratio := mock.rps / base.rps
		out = append(out, result{
			target:   op.name + " requests/s",
			measured: fmt.Sprintf("petmock %.0f / baseline %.0f = %.0f%%", mock.rps, base.rps, 100*ratio),
			goal:     fmt.Sprintf(">= %.0f%%", 100*op.minRatio),
			met:      ratio >= op.minRatio,
		})
		p99 := float64(mock.p99) / float64(base.p99)
		out = append(out, result{
			target:   op.name + " latency",
			measured: fmt.Sprintf("p50 %s / %s, p99 %s / %s = %.2fx", mock.p50, base.p50, mock.p99, base.p99, p99),
			goal:     "p99 <= 3x",
			met:      op.path != "/pets?limit=20" || p99 <= 3,
		})
	}
	return out, nil
}

// storeSize compares pages of a store of 1,000 pets with the same pages
// of a store of a million, and measures the large store's memory and
// seeding time.
func (b *bench) storeSize(ctx context.Context) ([]result, error) {
	type pages struct{ first, deep load }
	measure := func(n int) (pages, *process, error) {
		b.log("starting petmock with %d pets", n)
		pm, err := start(ctx, b.petmock, "--addr", "127.0.0.1:0", "--pets", strconv.Itoa(n))
		if err != nil {
			return pages{}, nil, err
		}
		deep, err := deepPage(pm.url, "sold")
		if err != nil {
			pm.stop()
			return pages{}, nil, err
		}
		var p pages
		if p.first, err = b.best(ctx, pm.url+"/pets?status=sold&limit=20", ""); err != nil {
			pm.stop()
			return pages{}, nil, err
		}
		if p.deep, err = b.best(ctx, deep, ""); err != nil {
			pm.stop()
			return pages{}, nil, err
		}
		return p, pm, nil
	}
	small, pm, err := measure(1_000)
	if err != nil {
		return nil, err
	}
	pm.stop()
	large, pm, err := measure(b.o.million)
	if err != nil {
		return nil, err
	}
	defer pm.stop()
	seeding := pm.ready
	rss, peak, err := pm.memory()
	if err != nil {
		return nil, err
	}

	var out []result
	for _, c := range []struct {
		name         string
		small, large load
	}{
		{"filtered first page (?status=sold&limit=20)", small.first, large.first},
		{"filtered page 90% deep into the pagination", small.deep, large.deep},
	} {
		cost := c.small.rps / c.large.rps // time per request, large over small
		out = append(out, result{
			target: c.name + ", " + strconv.Itoa(b.o.million) + " vs 1000 pets",
			measured: fmt.Sprintf("%.0f vs %.0f req/s, p50 %s vs %s, p99 %s vs %s: %.2fx the cost",
				c.large.rps, c.small.rps, c.large.p50, c.small.p50, c.large.p99, c.small.p99, cost),
			goal: "<= 1.5x",
			met:  cost <= 1.5,
		})
	}
	out = append(out,
		result{
			target:   fmt.Sprintf("resident memory with %d pets", b.o.million),
			measured: fmt.Sprintf("%d MB (peak %d MB)", rss>>20, peak>>20),
			goal:     "< 300 MB",
			met:      rss < 300<<20,
		},
		result{
			target:   fmt.Sprintf("seeding %d pets, spawn to listening", b.o.million),
			measured: seeding.Round(time.Millisecond).String(),
			goal:     "< 3s",
			met:      seeding < 3*time.Second,
		})
	return out, nil
}

var nextLink = regexp.MustCompile(`<([^>]+)>; rel="next"`)

// deepPage walks the pages of one status and returns the URL of the page
// 90% of the way through, with a limit of 20.
func deepPage(base, status string) (string, error) {
	url := base + "/pets?limit=100&status=" + status
	var links []string
	for url != "" {
		a, err := answer("GET", url, "")
		if err != nil {
			return "", err
		}
		if a.Status != 200 {
			return "", fmt.Errorf("GET %s: %d", url, a.Status)
		}
		url = ""
		if m := nextLink.FindStringSubmatch(a.Header.Get("Link")); m != nil {
			url = m[1]
			links = append(links, url)
		}
	}
	if len(links) == 0 {
		return "", fmt.Errorf("%s: a single page of %s pets; the store is too small", base, status)
	}
	return strings.Replace(links[len(links)*9/10], "limit=100", "limit=20", 1), nil
}

// startups times petmock from spawn to its first answered request, with
// the default catalogue.
func (b *bench) startups(ctx context.Context) ([]result, error) {
	b.log("timing %d start-ups", b.o.startup)
	var times []time.Duration
	for range b.o.startup {
		pm, err := start(ctx, b.petmock, "--addr", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		a, err := answer("GET", pm.url+"/pets", "")
		elapsed := time.Since(pm.started)
		pm.stop()
		if err != nil {
			return nil, err
		}
		if a.Status != 200 {
			return nil, fmt.Errorf("first answer: %d", a.Status)
		}
		times = append(times, elapsed)
	}
	slices.Sort(times)
	median := times[len(times)/2]
	return []result{{
		target:   "start-up, spawn to first answer, default catalogue",
		measured: fmt.Sprintf("median %s, slowest %s of %d", median.Round(100*time.Microsecond), times[len(times)-1].Round(100*time.Microsecond), len(times)),
		goal:     "< 50ms",
		met:      median < 50*time.Millisecond,
	}}, nil
}

// conformanceRun times a whole conformance run against a fresh petmock,
// both process starts included.
func (b *bench) conformanceRun(ctx context.Context) ([]result, error) {
	b.log("timing full conformance runs")
	var times []time.Duration
	for range 3 {
		begin := time.Now()
		pm, err := start(ctx, b.petmock, "--addr", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		out, err := exec.CommandContext(ctx, b.judge, "--base-url", pm.url, "--api-key", mockserver.DefaultAPIKey, "--no-color").CombinedOutput()
		elapsed := time.Since(begin)
		pm.stop()
		if err != nil {
			return nil, fmt.Errorf("conformance against petmock: %v\n%s", err, out)
		}
		times = append(times, elapsed)
	}
	slices.Sort(times)
	return []result{{
		target:   "full conformance run against petmock, process starts included",
		measured: fmt.Sprintf("median %s of %d", times[1].Round(time.Millisecond), len(times)),
		goal:     "< 3s",
		met:      times[1] < 3*time.Second,
	}}, nil
}
