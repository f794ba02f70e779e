package mockserver

import (
	"fmt"
	"hash/fnv"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

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
	schema   *openapi3.Schema // of a JSON body; nil for none
	text     bool             // the body is text/plain, of a string schema
	shape    *shape
	hint     string // what the answer is about, for realistic values
}

func newGenerated(c *spec.Contract, op *spec.Operation, shapes *shapes) (*generated, error) {
	if op.Success == 0 {
		return nil, fmt.Errorf("%s.responses: no success (2xx) or default response for petmock to answer with", op.Where)
	}
	g := &generated{contract: c, op: op}
	segs := strings.Split(strings.Trim(op.Path, "/"), "/")
	for i := len(segs) - 1; i >= 0; i-- {
		if !strings.Contains(segs[i], "{") {
			g.hint = segs[i]
			break
		}
	}
	resp := op.Response(op.Success)
	where := fmt.Sprintf("%s.responses.%d", op.Where, op.Success)
	switch {
	case op.JSONSchema(op.Success) != nil:
		g.schema = op.JSONSchema(op.Success)
		g.shape = shapes.of(g.schema)
	case resp == nil || len(resp.Content) == 0:
	default:
		mt := resp.Content.Get("text/plain")
		if mt == nil || mt.Schema == nil || mt.Schema.Value == nil || spec.TypeOf(mt.Schema.Value) != "string" {
			var types []string
			for name := range resp.Content {
				types = append(types, name)
			}
			slices.Sort(types)
			return nil, fmt.Errorf("%s.content: petmock answers application/json, or text/plain of a string schema, not %s", where, strings.Join(types, ", "))
		}
		g.schema, g.text = mt.Schema.Value, true
	}
	// Refuse at start a schema no made value matches, rather than fail
	// the first request.
	if g.schema != nil {
		if _, err := g.make(0, ""); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
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
	v, err := gen.Valid(g.schema, fake.Hint{Resource: g.hint})
	if err != nil {
		return nil, err
	}
	if g.text {
		s, _ := v.(string)
		return []byte(s), nil
	}
	return append(g.shape.appendJSON(nil, v), '\n'), nil
}

// answer answers an operation of no resource with a made value.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, c *call) error {
	g := c.op.answer
	status := c.op.spec.Success
	if g.schema == nil {
		w.WriteHeader(status)
		return nil
	}
	body, err := g.make(s.seed, requestKey(r))
	if err != nil {
		return fmt.Errorf("%s: %w", g.op.Where, err)
	}
	if g.text {
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
