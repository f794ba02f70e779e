package main

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"time"

	"github.com/petstore/contract/mockserver"
)

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
		figure:   float64(median),
		goal:     goal{cmp: below, bound: float64(50 * time.Millisecond), unit: duration},
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
		figure:   float64(times[1]),
		goal:     goal{cmp: below, bound: float64(3 * time.Second), unit: duration},
	}}, nil
}
