package main

import (
	"context"
	"fmt"
	"time"
)

// proxyGoal bounds what petmock --proxy costs: the requests/s of a
// backend behind it, against the same backend called directly. On a
// machine of two cores, the proxy, the backend and wrk share them, so a
// request through the proxy costs the proxy's work and the backend's: half
// the rate would mean the proxy does as much as the mock does to answer.
var proxyGoal = goal{cmp: atLeast, bound: 0.30, unit: percent}

// proxyLatencyGoal bounds the proxy's p99 over the direct call's.
var proxyLatencyGoal = goal{label: "p99", cmp: atMost, bound: 5, unit: times}

// proxyCost measures what petmock --proxy adds to a request over a direct
// call to its backend: a petmock serves as the backend, and a second one,
// --proxy, stands in front of it, checking each answer against the
// document; listPets and createPet are loaded directly and through the
// proxy, alike.
func (b *bench) proxyCost(ctx context.Context) ([]result, error) {
	backend, err := start(ctx, b.petmock, "--addr", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	defer backend.stop()
	front, err := start(ctx, b.petmock, "--addr", "127.0.0.1:0", "--proxy", backend.url)
	if err != nil {
		return nil, err
	}
	defer front.stop()
	// The proxy's answers must be the backend's, relayed, and break
	// nothing: a fallback to the mock would measure the mock.
	for _, op := range operations {
		method := "GET"
		if op.body != "" {
			method = "POST"
		}
		a, err := answer(method, front.url+op.path, op.body)
		if err != nil {
			return nil, err
		}
		if a.Status >= 300 || a.Header.Get("X-Petmock-Source") != "backend" {
			return nil, fmt.Errorf("%s through the proxy: %d from %q, want the backend's success", op.name, a.Status, a.Header.Get("X-Petmock-Source"))
		}
	}
	var out []result
	for _, op := range operations {
		b.log("loading %s: directly, then through petmock --proxy", op.name)
		direct, err := b.best(ctx, backend.url+op.path, op.body)
		if err != nil {
			return nil, err
		}
		proxied, err := b.best(ctx, front.url+op.path, op.body)
		if err != nil {
			return nil, err
		}
		out = append(out, judgeProxy(op.name, proxied, direct)...)
	}
	return out, nil
}

// judgeProxy turns the loads of one operation, through the proxy and
// direct, into its targets: requests/s against proxyGoal, with what the
// proxy adds to each request at the median, and p99 against
// proxyLatencyGoal.
func judgeProxy(name string, proxied, direct load) []result {
	rate := proxied.rps / direct.rps
	p99 := float64(proxied.p99) / float64(direct.p99)
	return []result{
		{
			target:   "proxy " + name + " requests/s",
			measured: fmt.Sprintf("proxied %.0f / direct %.0f = %.0f%%", proxied.rps, direct.rps, 100*rate),
			figure:   rate,
			goal:     proxyGoal,
		},
		{
			target: "proxy " + name + " latency",
			measured: fmt.Sprintf("p50 %s / %s (+%s), p99 %s / %s = %.2fx", proxied.p50, direct.p50,
				(proxied.p50 - direct.p50).Round(time.Microsecond), proxied.p99, direct.p99, p99),
			figure: p99,
			goal:   proxyLatencyGoal,
		},
	}
}
