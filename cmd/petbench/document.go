package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// costGoal bounds what a generated answer costs petmock over what a page
// of a stored list costs it: petmock's requests/s of the list over those
// of the generated answer.
var costGoal = goal{label: "cost", cmp: atMost, bound: 2, unit: times}

// documentThroughput measures petmock serving the document of --spec: a
// list of one of its resources, and an answer petmock makes from the
// document for an operation of no resource, each against the baseline
// replaying the very answer, and the cost of the one over the other.
func (b *bench) documentThroughput(ctx context.Context) ([]result, error) {
	c, err := spec.ReadOptions{}.ReadFile(b.o.spec)
	if err != nil {
		return nil, fmt.Errorf("--spec: %w", err)
	}
	list, made, err := documentTargets(c)
	if err != nil {
		return nil, fmt.Errorf("--spec %s: %w", b.o.spec, err)
	}
	pm, err := start(ctx, b.petmock, "--addr", "127.0.0.1:0", "--spec", b.o.spec)
	if err != nil {
		return nil, err
	}
	defer pm.stop()

	var out []result
	rps := map[*spec.Operation]float64{}
	for _, op := range []*spec.Operation{list, made} {
		if op == nil {
			continue
		}
		target, headers, err := requestOf(c, op)
		if err != nil {
			return nil, err
		}
		b.headers = headers
		a, err := answerWith(http.MethodGet, pm.url+target, "", headers)
		if err != nil {
			return nil, err
		}
		if a.Status/100 != 2 {
			return nil, fmt.Errorf("GET %s: petmock answered %d, want a success\n%s", target, a.Status, a.Body)
		}
		answers := filepath.Join(b.scratch, "answers.json")
		data, _ := json.Marshal(map[string]canned{"get": a, "post": a})
		if err := os.WriteFile(answers, data, 0o644); err != nil {
			return nil, err
		}
		st, err := start(ctx, b.self, staticCommand, "--answers", answers)
		if err != nil {
			return nil, err
		}
		name := "GET " + op.Path + " (generated)"
		if op == list {
			name = "GET " + op.Path + " (a stored list)"
		}
		b.log("loading %s: baseline and petmock in turn", name)
		l, err := b.bestInTurn(ctx, b.o.wrk, "", st.url+target, pm.url+target)
		st.stop()
		if err != nil {
			return nil, err
		}
		rps[op] = l[1].rps
		o := operation{name: name, rate: operations[0].rate}
		out = append(out, o.judge(l[1], l[0])...)
	}
	b.headers = nil
	if list == nil || made == nil {
		b.log("the document has no %s, so the cost of a generated answer over a stored page is not measured", map[bool]string{true: "resource with a list", false: "operation answered from the document alone"}[list == nil])
		return out, nil
	}
	cost := rps[list] / rps[made]
	out = append(out, result{
		target:   "a generated answer over a stored page",
		measured: fmt.Sprintf("petmock %.0f / %.0f requests/s = %.2fx the cost", rps[list], rps[made], cost),
		figure:   cost,
		goal:     costGoal,
	})
	return out, nil
}

// documentTargets picks the list of a resource and an operation of no
// resource that petmock answers from the document: GETs whose parameters
// petbench can fill.
func documentTargets(c *spec.Contract) (list, made *spec.Operation, err error) {
	for _, r := range c.Resources {
		if r.List != nil && fillable(r.List) {
			list = r.List
			break
		}
	}
	for _, op := range c.Operations {
		if op.Method == http.MethodGet && op.Resource == nil && op.Success/100 == 2 && op.JSONSchema(op.Success) != nil && fillable(op) {
			made = op
			break
		}
	}
	if list == nil && made == nil {
		return nil, nil, errors.New("neither a resource with a list nor a GET answered from the document that takes no required parameters but its path's")
	}
	return list, made, nil
}

// fillable says whether op's required parameters are all in its path,
// which petbench fills with values made from their schemas.
func fillable(op *spec.Operation) bool {
	for _, p := range op.Parameters {
		if p.Required && p.In != "path" {
			return false
		}
	}
	return true
}

// requestOf writes the target of a request of op, below the base path,
// and the headers that carry petmock's key as the document's first
// security alternative asks (a key it asks for in the query is in the
// target).
func requestOf(c *spec.Contract, op *spec.Operation) (string, []string, error) {
	values := map[string]string{}
	gen := &fake.Generator{Contract: c, Faker: fake.NewFaker(1), Examples: true}
	for _, p := range op.Parameters {
		if p.In != "path" || p.Schema == nil || p.Schema.Value == nil {
			continue
		}
		v, err := gen.Valid(p.Schema.Value, fake.Hint{Property: p.Name})
		if err != nil {
			return "", nil, fmt.Errorf("%s: %s: %w", op.ID, p.Name, err)
		}
		values[p.Name] = fmt.Sprint(v)
	}
	req, err := http.NewRequest(http.MethodGet, "http://petbench"+op.Template.Expand(values), nil)
	if err != nil {
		return "", nil, err
	}
	if len(op.Requirements) > 0 {
		for _, s := range op.Requirements[0] {
			s.Present(req, mockserver.DefaultAPIKey)
		}
	}
	var headers []string
	for name, vs := range req.Header {
		for _, v := range vs {
			headers = append(headers, name+": "+v)
		}
	}
	if headers == nil {
		headers = []string{} // no key: not the Petstore's bearer token either
	}
	target := req.URL.EscapedPath()
	if q := req.URL.Query(); len(q) > 0 {
		target += "?" + q.Encode()
	}
	return target, headers, nil
}
