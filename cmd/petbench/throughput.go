package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// createBody is the pet every createPet of the load asks for.
const createBody = `{"name":"Load","categoryId":2,"status":"pending"}`

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
	bare, err := start(ctx, b.self, staticCommand, "--answers", answers, "--create")
	if err != nil {
		return nil, err
	}
	defer bare.stop()

	var out []result
	for _, op := range operations {
		if op.body == "" {
			b.log("loading %s: baseline and petmock in turn", op.name)
			l, err := b.bestInTurn(ctx, b.o.wrk, op.body, st.url+op.path, pm.url+op.path)
			if err != nil {
				return nil, err
			}
			out = append(out, op.judge(l[1], l[0])...)
			continue
		}
		b.log("loading %s: baseline, a bare create and petmock in turn", op.name)
		l, err := b.bestInTurn(ctx, b.o.wrk, op.body, st.url+op.path, bare.url+op.path, pm.url+op.path)
		if err != nil {
			return nil, err
		}
		out = append(out, op.judge(l[2], l[0])...)
		out = append(out, op.beside(l[2], l[1], l[0])...)
	}
	return out, nil
}

// beside reads a create's rate by the bare create's (see
// bareCreateHandler): how near the static handler a server comes that
// keeps what it is sent and checks nothing, and how near that petmock
// comes. Both are shown for reference and judge nothing.
func (op operation) beside(mock, bare, base load) []result {
	return []result{
		{
			target:   op.name + ", a bare create over the static handler",
			measured: fmt.Sprintf("bare %.0f / baseline %.0f = %.0f%%", bare.rps, base.rps, 100*bare.rps/base.rps),
			figure:   bare.rps / base.rps,
			goal:     goal{cmp: reference},
		},
		{
			target:   op.name + ", petmock over a bare create",
			measured: fmt.Sprintf("petmock %.0f / bare %.0f = %.0f%%", mock.rps, bare.rps, 100*mock.rps/bare.rps),
			figure:   mock.rps / bare.rps,
			goal:     goal{cmp: reference},
		},
	}
}

// operation is one request the throughput targets load.
type operation struct {
	name, path, body string
	rate             goal // petmock's requests/s over the baseline's
}

// operations are the requests loaded, listPets and createPet, each held
// to 90 % of the static handler's rate.
var operations = []operation{
	{"GET /v1/pets?limit=20", "/pets?limit=20", "", goal{cmp: atLeast, bound: 0.90, unit: percent}},
	{"POST /v1/pets", "/pets", createBody, goal{cmp: atLeast, bound: 0.90, unit: percent}},
}

// latencyGoal bounds petmock's p99 over the baseline's. Every operation is
// held to it; there is no per-operation latency goal to forget.
var latencyGoal = goal{label: "p99", cmp: atMost, bound: 3, unit: times}

// judge turns petmock's and the baseline's loads of op into its two
// targets: requests/s against op.rate, and p99 latency against
// latencyGoal.
func (op operation) judge(mock, base load) []result {
	rate := mock.rps / base.rps
	p99 := float64(mock.p99) / float64(base.p99)
	return []result{
		{
			target:   op.name + " requests/s",
			measured: fmt.Sprintf("petmock %.0f / baseline %.0f = %.0f%%", mock.rps, base.rps, 100*rate),
			figure:   rate,
			goal:     op.rate,
		},
		{
			target:   op.name + " latency",
			measured: fmt.Sprintf("p50 %s / %s, p99 %s / %s = %.2fx", mock.p50, base.p50, mock.p99, base.p99, p99),
			figure:   p99,
			goal:     latencyGoal,
		},
	}
}
