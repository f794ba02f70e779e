package edge

import (
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// A header a response of the document requires is sent with every answer
// of that status, an error's as a success's, a 401's as a 200's: the
// value the handler or the gate gives it, or else one made once, at
// start, from the header's example or schema. A header of the framing of
// a body, such as Content-Type, is HTTP's to set, as OpenAPI says.

// madeHeader is a header a response requires, with the value made for it.
type madeHeader struct {
	name  string // canonical
	value []string
}

// headerPlan holds the headers each response of an operation requires.
type headerPlan struct {
	byStatus map[int][]madeHeader
	byClass  map[int][]madeHeader // of a range of statuses, 2 of 2XX
	fallback []madeHeader         // of the default response
}

// framingHeaders are headers HTTP sets itself, whatever a document says.
var framingHeaders = []string{"Content-Type", "Content-Length", "Transfer-Encoding", "Connection"}

// planHeaders makes the values of the headers the responses of op
// require; nil when none requires one.
func planHeaders(c *spec.Contract, op *spec.Operation) *headerPlan {
	if op.Op.Responses == nil {
		return nil
	}
	var plan headerPlan
	for code, ref := range op.Op.Responses.Map() {
		if ref == nil || ref.Value == nil {
			continue
		}
		made := requiredHeaders(c, ref.Value)
		if len(made) == 0 {
			continue
		}
		if code == "default" {
			plan.fallback = made
			continue
		}
		if status, err := strconv.Atoi(code); err == nil {
			if plan.byStatus == nil {
				plan.byStatus = map[int][]madeHeader{}
			}
			plan.byStatus[status] = made
		} else if len(code) == 3 && code[0] >= '1' && code[0] <= '5' && strings.EqualFold(code[1:], "XX") {
			// A range, as Ably's 2XX with its required Link.
			if plan.byClass == nil {
				plan.byClass = map[int][]madeHeader{}
			}
			plan.byClass[int(code[0]-'0')] = made
		}
	}
	if plan.byStatus == nil && plan.byClass == nil && plan.fallback == nil {
		return nil
	}
	return &plan
}

// requiredHeaders makes a value for each header resp requires, in the
// order of their names.
func requiredHeaders(c *spec.Contract, resp *openapi3.Response) []madeHeader {
	var out []madeHeader
	for _, name := range slices.Sorted(maps.Keys(resp.Headers)) {
		ref := resp.Headers[name]
		key := http.CanonicalHeaderKey(name)
		if ref == nil || ref.Value == nil || !ref.Value.Required || slices.Contains(framingHeaders, key) {
			continue
		}
		if v, ok := headerValue(c, name, ref.Value); ok {
			out = append(out, madeHeader{name: key, value: []string{v}})
		}
	}
	return out
}

// headerValue makes the text of a value of header h: its example, one of
// its examples, or a value made from its schema, written in its style.
func headerValue(c *spec.Contract, name string, h *openapi3.Header) (string, bool) {
	var v any
	switch {
	case h.Example != nil:
		v = h.Example
	case len(h.Examples) > 0:
		for _, n := range slices.Sorted(maps.Keys(h.Examples)) {
			if ex := h.Examples[n]; ex != nil && ex.Value != nil && ex.Value.Value != nil {
				v = ex.Value.Value
				break
			}
		}
	}
	if v == nil {
		if h.Schema == nil || h.Schema.Value == nil {
			return "", false
		}
		gen := &fake.Generator{Contract: c, Faker: fake.NewFaker(1), Examples: true}
		made, err := gen.Valid(h.Schema.Value, fake.Hint{Property: name})
		if err != nil {
			return "", false
		}
		v = made
	}
	text := spec.ParamText(&h.Parameter, v)
	return text, !strings.ContainsAny(text, "\r\n\x00")
}

// HasRequiredHeaders reports whether a response of op requires a header.
func (op *Operation) HasRequiredHeaders() bool { return op.headers != nil }

// SetRequiredHeaders sets in h each header the response of op for status
// requires that h does not hold yet.
func (op *Operation) SetRequiredHeaders(h http.Header, status int) {
	if op == nil || op.headers == nil {
		return
	}
	made, ok := op.headers.byStatus[status]
	if !ok && op.Spec.Op.Responses.Value(strconv.Itoa(status)) == nil {
		// No response of the status itself: its range's, or else the
		// default's where the status is not documented.
		made, ok = op.headers.byClass[status/100]
		if !ok && !slices.Contains(op.Spec.Statuses, status) {
			made = op.headers.fallback
		}
	}
	for _, m := range made {
		if _, set := h[m.name]; !set {
			h[m.name] = m.value
		}
	}
}

// WithRequiredHeaders returns w, for the answers of op, made to set the
// headers their status requires when the status is written.
func WithRequiredHeaders(w http.ResponseWriter, op *Operation) http.ResponseWriter {
	return &headerWriter{ResponseWriter: w, op: op}
}

// headerWriter sets the headers a status requires as it is written.
type headerWriter struct {
	http.ResponseWriter
	op    *Operation
	wrote bool
}

func (w *headerWriter) WriteHeader(status int) {
	if !w.wrote && status >= 200 {
		w.wrote = true
		w.op.SetRequiredHeaders(w.Header(), status)
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *headerWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap returns the writer below, for http.ResponseController.
func (w *headerWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
