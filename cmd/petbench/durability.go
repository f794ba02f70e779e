package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"time"
)

// durability compares createPet on a store of a million pets with every
// write saved before it is answered (petmock --state, the default) and
// without --state, in the same run, and times a start that recovers the
// million from the log.
func (b *bench) durability(ctx context.Context) ([]result, error) {
	state := filepath.Join(b.scratch, "state.json")
	pets := strconv.Itoa(b.o.million)
	// Room for the creates of every load on top of the million.
	maxPets := strconv.Itoa(b.o.million + 5_000_000)
	b.log("starting petmock with %d pets and --state, which writes its log", b.o.million)
	durable, err := start(ctx, b.petmock, "--addr", "127.0.0.1:0", "--pets", pets, "--max-pets", maxPets, "--state", state)
	if err != nil {
		return nil, err
	}
	b.log("loading POST /v1/pets with every write saved")
	saved, err := b.best(ctx, durable.url+"/pets", createBody)
	durable.stop()
	if err != nil {
		return nil, err
	}
	b.log("starting petmock with %d pets, without --state", b.o.million)
	memory, err := start(ctx, b.petmock, "--addr", "127.0.0.1:0", "--pets", pets, "--max-pets", maxPets)
	if err != nil {
		return nil, err
	}
	b.log("loading POST /v1/pets without --state")
	unsaved, err := b.best(ctx, memory.url+"/pets", createBody)
	memory.stop()
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

	rate := saved.rps / unsaved.rps
	return []result{
		{
			target:   fmt.Sprintf("POST /v1/pets requests/s on %d pets, every write saved (--state) over none", b.o.million),
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
			target:   fmt.Sprintf("start that recovers %d pets and more from the log, spawn to listening", b.o.million),
			measured: recovery.Round(time.Millisecond).String(),
			figure:   float64(recovery),
			goal:     goal{cmp: below, bound: float64(2 * time.Second), unit: duration},
		},
	}, nil
}
