package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"time"
)

// durability compares createPet with every write saved before it is
// answered (petmock --state, the default) on a store of 1,000 pets and on
// one of a million, which an engine that pays per write rather than per
// item does at the same rate; compares the million's with the same store
// without --state, in the same run; and times a start that recovers the
// million from the log.
func (b *bench) durability(ctx context.Context) ([]result, error) {
	// Room for the creates of every load on top of the million.
	maxPets := strconv.Itoa(b.o.million + 5_000_000)
	loadOf := func(pets int, state string) (load, error) {
		args := []string{"--addr", "127.0.0.1:0", "--pets", strconv.Itoa(pets), "--max-pets", maxPets}
		what := "without --state"
		if state != "" {
			args, what = append(args, "--state", state), "with every write saved"
		}
		b.log("starting petmock with %d pets, %s", pets, what)
		pm, err := start(ctx, b.petmock, args...)
		if err != nil {
			return load{}, err
		}
		defer pm.stop()
		b.log("loading POST /v1/pets on %d pets, %s", pets, what)
		return b.best(ctx, pm.url+"/pets", createBody)
	}
	small, err := loadOf(1_000, filepath.Join(b.scratch, "small-state.json"))
	if err != nil {
		return nil, err
	}
	state := filepath.Join(b.scratch, "state.json")
	saved, err := loadOf(b.o.million, state)
	if err != nil {
		return nil, err
	}
	unsaved, err := loadOf(b.o.million, "")
	if err != nil {
		return nil, err
	}
	// No catalogue to make: what the start takes is the log's.
	b.log("timing a start that recovers the pets from the log")
	recovered, err := start(ctx, b.petmock, "--addr", "127.0.0.1:0", "--pets", "0", "--max-pets", maxPets, "--state", state)
	if err != nil {
		return nil, err
	}
	recovery := recovered.ready
	recovered.stop()
	return judgeDurability(b.o.million, small, saved, unsaved, recovery), nil
}

// judgeDurability makes the rows of durability: the durable creates of a
// million pets against those of 1,000 (small) and against the million's
// without --state (unsaved), their latency, and the recovery's time.
func judgeDurability(million int, small, saved, unsaved load, recovery time.Duration) []result {
	cost := small.rps / saved.rps // time per write, a million over 1,000
	rate := saved.rps / unsaved.rps
	return []result{
		{
			target: fmt.Sprintf("POST /v1/pets, every write saved, %d vs 1000 pets", million),
			measured: fmt.Sprintf("%.0f vs %.0f req/s, p99 %s vs %s: %.2fx the cost",
				saved.rps, small.rps, saved.p99, small.p99, cost),
			figure: cost,
			goal:   goal{cmp: atMost, bound: 1.5, unit: times},
		},
		{
			target:   fmt.Sprintf("POST /v1/pets requests/s on %d pets, every write saved (--state) over none", million),
			measured: fmt.Sprintf("%.0f / %.0f = %.0f%%", saved.rps, unsaved.rps, 100*rate),
			figure:   rate,
			goal:     goal{cmp: atLeast, bound: 0.5, unit: percent},
		},
		{
			target:   "its latency, every write saved",
			measured: fmt.Sprintf("p50 %s, p99 %s (without --state: %s, %s)", saved.p50, saved.p99, unsaved.p50, unsaved.p99),
			figure:   float64(saved.p99),
			goal:     goal{label: "p99", cmp: below, bound: float64(20 * time.Millisecond), unit: duration},
		},
		{
			target:   fmt.Sprintf("start that recovers %d pets and more from the log, spawn to listening", million),
			measured: recovery.Round(time.Millisecond).String(),
			figure:   float64(recovery),
			goal:     goal{cmp: below, bound: float64(2 * time.Second), unit: duration},
		},
	}
}
