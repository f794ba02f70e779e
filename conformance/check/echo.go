package check

import (
	"maps"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// What a write sends comes back in its answer and its reads where the
// item's schema says it does: a property only the request has, one the
// request schema marks writeOnly (a password) or one the create schema
// has and the item's does not (Box's assign_to, which its task
// assignment answers as assigned_to), is not expected back; and an id the
// path names wins over one the body holds.

// echoed returns what of sent, the item a body of op holds (see
// request.ItemIn), its answer of the schema answer is to hold: the
// properties answer declares, at any depth, but those either schema marks
// writeOnly, and but those that name what the path of op names, whose
// value the path gives.
func (h *Harness) echoed(op *spec.Operation, answer *openapi3.Schema, sent map[string]any) map[string]any {
	out, _ := h.answered(h.ItemSchema(op), answer, sent, 0).(map[string]any)
	if out == nil {
		return map[string]any{}
	}
	for _, p := range op.Parameters {
		if p.In == openapi3.ParameterInPath {
			delete(out, p.Name)
		}
	}
	if res := op.Resource; res != nil && res.IDParam != "" && hasPathParam(op, res.IDParam) {
		delete(out, res.IDProperty)
	}
	return out
}

// hasPathParam reports whether op's path names the parameter name.
func hasPathParam(op *spec.Operation, name string) bool {
	for _, p := range op.Template.Params() {
		if p == name {
			return true
		}
	}
	return false
}

// answered returns what of v, a value of the request schema req, an answer of
// the schema answer holds: see echoed. A schema that declares no
// properties, or none is known, keeps the whole value.
func (h *Harness) answered(req, answer *openapi3.Schema, v any, depth int) any {
	if answer == nil || depth > 32 {
		return v
	}
	switch v := v.(type) {
	case map[string]any:
		declared := h.contract.Properties(answer)
		if len(declared) == 0 {
			return v
		}
		asked := map[string]*openapi3.Schema{}
		if req != nil {
			for _, p := range h.contract.Properties(req) {
				asked[p.Name] = p.Schema
			}
		}
		out := maps.Clone(v)
		for name := range out {
			var a *openapi3.Schema
			for _, p := range declared {
				if p.Name == name {
					a = p.Schema
				}
			}
			r := asked[name]
			if a == nil || a.WriteOnly || r != nil && r.WriteOnly {
				delete(out, name)
				continue
			}
			out[name] = h.answered(r, a, out[name], depth+1)
		}
		return out
	case []any:
		if answer.Items == nil || answer.Items.Value == nil {
			return v
		}
		var reqItems *openapi3.Schema
		if req != nil && req.Items != nil {
			reqItems = req.Items.Value
		}
		out := make([]any, len(v))
		for i := range v {
			out[i] = h.answered(reqItems, answer.Items.Value, v[i], depth+1)
		}
		return out
	}
	return v
}
