package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/petstore/contract/mockserver"
)

// startups times petmock from spawn to its first answered request, with
// the default catalogue, against a bare net/http server
// (testdata/bare) in the same run, taken in turns: the wall clock, and
// the CPU the process spent by then, which other work on a shared machine
// does not inflate.
func (b *bench) startups(ctx context.Context) ([]result, error) {
	bare := filepath.Join(b.scratch, "bare")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bare, "./cmd/petbench/testdata/bare").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build ./cmd/petbench/testdata/bare: %v\n%s", err, out)
	}
	b.log("timing %d start-ups of petmock and of a bare net/http server, in turns", b.o.startup)
	var mock, base startTimes
	for range b.o.startup {
		for _, s := range []struct {
			times *startTimes
			bin   string
			args  []string
		}{{&mock, b.petmock, []string{"--addr", "127.0.0.1:0"}}, {&base, bare, nil}} {
			wall, cpu, err := firstAnswer(ctx, s.bin, s.args...)
			if err != nil {
				return nil, err
			}
			s.times.wall = append(s.times.wall, wall)
			s.times.cpu = append(s.times.cpu, cpu)
		}
	}
	m, bs := mock.medians(), base.medians()
	return []result{
		{
			target:   "start-up, spawn to first answer, default catalogue",
			measured: fmt.Sprintf("median %s (CPU %s), slowest %s of %d", m.wall.Round(100*time.Microsecond), m.cpu.Round(100*time.Microsecond), slices.Max(mock.wall).Round(100*time.Microsecond), len(mock.wall)),
			figure:   float64(m.wall),
			goal:     goal{cmp: below, bound: float64(25 * time.Millisecond), unit: duration},
		},
		{
			target: "start-up over a bare net/http server's, the same run",
			measured: fmt.Sprintf("%s / %s = %.1fx (CPU %s / %s = %.1fx)", m.wall.Round(100*time.Microsecond), bs.wall.Round(100*time.Microsecond),
				float64(m.wall)/float64(bs.wall), m.cpu.Round(100*time.Microsecond), bs.cpu.Round(100*time.Microsecond), float64(m.cpu)/float64(bs.cpu)),
			figure: float64(m.wall) / float64(bs.wall),
			goal:   goal{cmp: below, bound: 5, unit: times},
		},
	}, nil
}

// startTimes are the times of the start-ups of one program.
type startTimes struct{ wall, cpu []time.Duration }

// medians returns the median of each.
func (t startTimes) medians() (m struct{ wall, cpu time.Duration }) {
	median := func(ds []time.Duration) time.Duration {
		s := slices.Clone(ds)
		slices.Sort(s)
		return s[len(s)/2]
	}
	m.wall, m.cpu = median(t.wall), median(t.cpu)
	return m
}

// firstAnswer spawns bin and returns the time from the spawn to the end of
// its first answer to GET /pets, and the CPU time the process had spent
// by then, all its threads together.
func firstAnswer(ctx context.Context, bin string, args ...string) (wall, cpu time.Duration, err error) {
	p, err := start(ctx, bin, args...)
	if err != nil {
		return 0, 0, err
	}
	defer p.stop()
	a, err := answer("GET", p.url+"/pets", "")
	wall = time.Since(p.started)
	if err != nil {
		return 0, 0, err
	}
	if a.Status != 200 {
		return 0, 0, fmt.Errorf("%s: first answer: %d", filepath.Base(bin), a.Status)
	}
	return wall, p.cpuTime(), nil
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
		figure:   float64(times[1]),
		goal:     goal{cmp: below, bound: float64(3 * time.Second), unit: duration},
	}}, nil
}
