package mockserver

import (
	"fmt"
	"hash/fnv"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// generated makes the answers of an operation that is not part of a
// resource, such as a report or an action: a value made from the schema
// of its success response, examples first, that matches the schema. The
// same request gets the same answer for the same seed; another request,
// such as one with another query, gets another.
type generated struct {
	contract *spec.Contract
	op       *spec.Operation
	answer   spec.Answer
	shape    *shape // of a JSON body
}

func newGenerated(c *spec.Contract, op *spec.Operation, shapes *shapes) (*generated, error) {
	a, err := op.Answer()
	if err != nil {
		return nil, err
	}
	g := &generated{contract: c, op: op, answer: a}
	if a.Kind == spec.AnswerJSON {
		g.shape = shapes.of(a.Schema)
	}
	// Refuse at start a schema no made value matches, rather than fail
	// the first request.
	if a.Kind != spec.AnswerEmpty {
		if _, err := g.make(0, ""); err != nil {
			return nil, fmt.Errorf("%s.responses.%d: %w", op.Where, a.Status, err)
		}
	}
	return g, nil
}

// make makes the answer body of a request, identified by key, for seed.
func (g *generated) make(seed uint64, key string) ([]byte, error) {
	h := fnv.New64a()
	h.Write([]byte(g.op.ID))
	h.Write([]byte{0})
	h.Write([]byte(key))
	gen := &fake.Generator{Contract: g.contract, Faker: fake.NewFaker(seed ^ h.Sum64()), Examples: true}
	v, err := gen.Valid(g.answer.Schema, fake.Hint{Resource: g.answer.About})
	if err != nil {
		return nil, err
	}
	if g.answer.Kind == spec.AnswerText {
		s, _ := v.(string)
		return []byte(s), nil
	}
	return append(g.shape.appendJSON(nil, v), '\n'), nil
}

// answer answers an operation of no resource with a made value.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, c *call) error {
	g := c.op.answer
	status := g.answer.Status
	if g.answer.Kind == spec.AnswerEmpty {
		w.WriteHeader(status)
		return nil
	}
	body, err := g.make(s.seed, requestKey(r))
	if err != nil {
		return fmt.Errorf("%s: %w", g.op.Where, err)
	}
	if g.answer.Kind == spec.AnswerText {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(status)
		w.Write(body)
		return nil
	}
	writeJSON(w, status, body)
	return nil
}

// requestKey identifies what a request asks for: its path and its query,
// in a canonical order.
func requestKey(r *http.Request) string {
	q := r.URL.Query()
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteString(r.URL.Path)
	for _, k := range keys {
		for _, v := range q[k] {
			b.WriteString("\x00" + k + "=" + v)
		}
	}
	return b.String()
}
