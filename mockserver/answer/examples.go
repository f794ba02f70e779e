package answer

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/spec"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec/fake"
)

// Prefer: example=NAME answers with a named example of the document, as
// Prism does: one of the examples map of the media type of the response
// that the operation documents for the status Prefer: code= forces, or
// else for its success status. The example is checked as every canned
// answer is (canned.go): one that breaks its own schema is refused, and
// the 400 says where. A header the response requires is made from its
// schema. The request is not processed: it changes nothing.

// Example returns the answer of the example named name of the response
// rs, the responses of op, documents for status, with the headers it
// requires made for seed.
func (rs *Responses) Example(op *spec.Operation, status int, name string, seed uint64) (*Canned, *edge.Error) {
	facts := rs.of(status)
	what := fmt.Sprintf("the %d answer of %s", status, op.ID)
	if facts == nil || len(facts.examples) == 0 {
		return nil, edge.BadRequest("prefer", "example=%s: %s has no named examples", name, what)
	}
	ref := facts.examples[name]
	if ref == nil {
		return nil, edge.BadRequest("prefer", "example=%s: not an example of %s; its examples are %s",
			name, what, strings.Join(slices.Sorted(maps.Keys(facts.examples)), ", "))
	}
	if ref.Value == nil || ref.Value.Value == nil && ref.Value.ExternalValue != "" {
		return nil, edge.BadRequest("prefer", "example=%s: its value is elsewhere (externalValue), which petmock does not fetch", name)
	}
	body, err := json.Marshal(ref.Value.Value)
	if err != nil {
		return nil, edge.BadRequest("prefer", "example=%s: its value is no JSON value: %v", name, err)
	}
	header := madeHeaders(rs.contract, seed, facts.resp)
	if status == http.StatusServiceUnavailable {
		header["Retry-After"] = "1"
	}
	c, e := Check(op, rs, Given{Status: status, Header: header, Body: body}, "example")
	if e != nil {
		return nil, edge.BadRequest("prefer", "example=%s: the document's example breaks its own contract, so petmock does not answer it: %s", name, e.Message)
	}
	return c, nil
}

// madeHeaders returns a value for each header resp requires, made from
// its schema for seed, examples first.
func madeHeaders(c *spec.Contract, seed uint64, resp *openapi3.Response) map[string]string {
	out := map[string]string{}
	for _, name := range slices.Sorted(maps.Keys(resp.Headers)) {
		ref := resp.Headers[name]
		if ref == nil || ref.Value == nil || !ref.Value.Required {
			continue
		}
		h := ref.Value
		switch {
		case h.Example != nil:
			out[name] = headerText(h.Example)
		case h.Schema != nil && h.Schema.Value != nil:
			gen := &fake.Generator{Contract: c, Faker: fake.NewFaker(seed), Examples: true}
			if v, err := gen.Valid(h.Schema.Value, fake.Hint{Property: name}); err == nil {
				out[name] = headerText(v)
			}
		}
	}
	return out
}

// headerText writes a made value as a header's text.
func headerText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}
