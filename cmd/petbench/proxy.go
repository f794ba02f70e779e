package main

import (
	"context"
	"fmt"
	"time"

	"github.com/petstore/contract/mockserver"
)

// The proxy's targets compare petmock --proxy with the standard library's
// reverse proxy (reverse.go), in front of the same backend, a petmock,
// under the same load, as the mock's targets compare it with a static
// handler: what a request through any proxy costs, a second HTTP exchange,
// is the baseline's too, so the ratios say what petmock's own work adds,
// the check of the answer, the key, the journal. The direct call to the
// backend is measured alongside, for what a proxy costs at all.

// proxyGoal bounds the requests/s of petmock --proxy under load against
// the reverse proxy's.
var proxyGoal = goal{cmp: atLeast, bound: 0.60, unit: percent}

// proxyAddedGoal bounds what petmock --proxy adds to the median latency
// of one client, one request at a time, as a developer's browser sends
// them, against what the reverse proxy adds.
var proxyAddedGoal = goal{label: "added p50", cmp: atMost, bound: 2, unit: times}

// proxyCost loads a petmock backend directly, through the reverse proxy
// and through petmock --proxy: listPets and createPet under load, and
// listPets from one client.
func (b *bench) proxyCost(ctx context.Context) ([]result, error) {
	backend, err := start(ctx, b.petmock, "--addr", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	defer backend.stop()
	// The client's key is petmock's, which never reaches a backend: the
	// backend, a petmock too, is sent the same key as --proxy-key.
	front, err := start(ctx, b.petmock, "--addr", "127.0.0.1:0", "--proxy", backend.url, "--proxy-key", mockserver.DefaultAPIKey)
	if err != nil {
		return nil, err
	}
	defer front.stop()
	reverse, err := start(ctx, b.self, reverseCommand, "--to", backend.url)
	if err != nil {
		return nil, err
	}
	defer reverse.stop()
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
	// loads runs one load directly, through the reverse proxy and
	// through petmock --proxy.
	loads := func(s wrkSettings, op operation) (direct, rev, proxied load, err error) {
		l, err := b.bestInTurn(ctx, s, op.body, backend.url+op.path, reverse.url+op.path, front.url+op.path)
		if err != nil {
			return
		}
		return l[0], l[1], l[2], nil
	}
	var out []result
	for _, op := range operations {
		b.log("loading %s: directly, through a reverse proxy, and through petmock --proxy", op.name)
		direct, rev, proxied, err := loads(b.o.wrk, op)
		if err != nil {
			return nil, err
		}
		out = append(out, judgeProxy(op.name, direct, rev, proxied)...)
	}
	one := b.o.wrk
	one.threads, one.connections = 1, 1
	op := operations[0]
	b.log("sending %s one at a time: directly, through a reverse proxy, and through petmock --proxy", op.name)
	direct, rev, proxied, err := loads(one, op)
	if err != nil {
		return nil, err
	}
	return append(out, judgeProxyAdded(op.name, direct, rev, proxied)), nil
}

// judgeProxy turns the loads of one operation into its targets: the
// requests/s of petmock --proxy against proxyGoal, and its p99 against
// latencyGoal, both over the reverse proxy's, with the direct call's.
func judgeProxy(name string, direct, rev, proxied load) []result {
	rate := proxied.rps / rev.rps
	p99 := float64(proxied.p99) / float64(rev.p99)
	return []result{
		{
			target: "proxy " + name + " requests/s",
			measured: fmt.Sprintf("petmock --proxy %.0f / reverse proxy %.0f = %.0f%% (direct %.0f: %.0f%%)",
				proxied.rps, rev.rps, 100*rate, direct.rps, 100*proxied.rps/direct.rps),
			figure: rate,
			goal:   proxyGoal,
		},
		{
			target:   "proxy " + name + " latency",
			measured: fmt.Sprintf("p50 %s / %s, p99 %s / %s = %.2fx (direct p50 %s)", proxied.p50, rev.p50, proxied.p99, rev.p99, p99, direct.p50),
			figure:   p99,
			goal:     latencyGoal,
		},
	}
}

// judgeProxyAdded turns the loads of one operation by a single client into
// the target of what petmock --proxy adds to each request over a direct
// call, against what the reverse proxy adds.
func judgeProxyAdded(name string, direct, rev, proxied load) result {
	added, revAdded := proxied.p50-direct.p50, rev.p50-direct.p50
	return result{
		target: "proxy " + name + ", one client",
		measured: fmt.Sprintf("p50 added to a direct call's %s: petmock --proxy +%s / reverse proxy +%s = %.2fx",
			direct.p50, added.Round(time.Microsecond), revAdded.Round(time.Microsecond), float64(added)/float64(revAdded)),
		figure: float64(added) / float64(revAdded),
		goal:   proxyAddedGoal,
	}
}
