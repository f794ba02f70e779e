package check

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// What a write sends comes back in its answer and its reads where the
// item's schema says it does: a property only the request has, one the
// request schema marks writeOnly (a password) or one the create schema
// has and the item's does not (Box's assign_to, which its task
// assignment answers as assigned_to), is not expected back, nor is one
// the answer's schema gives another JSON type (Asana's assignee, sent as
// the gid "12345" and answered as the user it names, an object), nor one
// the answer's schema refuses (iZettle's product takes any number of
// categories, and answers at most one; onsched's custom fields are sent
// as strings and answered as objects); and an id the path names wins
// over one the body holds.

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
	if res := op.Resource; res != nil && op.Role == spec.RoleCreate && !h.declares(h.ItemSchema(op), res.IDProperty) {
		// An id a create does not declare, sent all the same (of its
		// example, as SendGrid's campaigns), is the server's to ignore:
		// the id is the one it gives.
		delete(out, res.IDProperty)
	}
	return out
}

// declares reports whether the schema s declares the property name.
func (h *Harness) declares(s *openapi3.Schema, name string) bool {
	return s != nil && slices.ContainsFunc(h.contract.Properties(s), func(p spec.Property) bool { return p.Name == name })
}

// readable returns what of it, an item as its create answered it, the
// read of res answers: the properties the read's schema holds (see
// answered), and the id. Adyen's API credentials are answered with their
// apiKey and password once, when created, and read without them.
func (h *Harness) readable(res *spec.Resource, it judge.Item) judge.Item {
	if res.Read == nil {
		return it
	}
	s := h.answeredItem(res.Read, res.Read.Success)
	out, ok := h.answered(nil, s, map[string]any(it), 0).(map[string]any)
	if !ok {
		return it
	}
	if id, ok := it[res.IDProperty]; ok {
		// The id as the read writes it: Tradematic's strategy is
		// created with a strategyid of an integer, and read with one
		// of a string.
		out[res.IDProperty] = h.writtenAs(s, res.IDProperty, id)
	}
	return judge.Item(out)
}

// sentAs returns v, a value of the property name of an item as answered,
// written as the create of res takes it: onsched's services are answered
// with an integer serviceGroupId and created with one of a string.
func (h *Harness) sentAs(res *spec.Resource, name string, v any) any {
	return h.writtenAs(h.ItemSchema(res.CreateOp), name, v)
}

// writtenAs returns v, a scalar value of the property name, written as
// the schema s of an object writes that property: the text of v read as
// its string, number or boolean. Any other v is returned as it is.
func (h *Harness) writtenAs(s *openapi3.Schema, name string, v any) any {
	for _, p := range h.contract.Properties(s) {
		if p.Name == name && v != nil {
			switch spec.TypeOf(p.Schema) {
			case "string", "integer", "number", "boolean":
				return spec.TextValue(p.Schema, spec.ValueText(v))
			}
		}
	}
	return v
}

// readsItem reports whether res has a read that answers the item: one
// whose success documents a body. ClearBlade's deployment is read with a
// 200 of no body.
func readsItem(res *spec.Resource) bool {
	if res.Read == nil {
		return false
	}
	resp := res.Read.Response(res.Read.Success)
	return resp != nil && len(resp.Content) > 0
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
			return h.answeredMembers(answer, v, depth)
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
			if a == nil || a.WriteOnly || r != nil && r.WriteOnly || !ofType(a, out[name]) || !h.holds(a, out[name]) {
				delete(out, name)
				continue
			}
			kept := h.answered(r, a, out[name], depth+1)
			if m, ok := kept.(map[string]any); ok && len(m) == 0 && !isEmptyObject(out[name]) {
				// Nothing sent of it is answered: Jira's issue is created
				// with a transition to make, and answered with a
				// transition of another schema, its outcome.
				delete(out, name)
				continue
			}
			out[name] = kept
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

// isEmptyObject reports whether v is an object of no members.
func isEmptyObject(v any) bool {
	m, ok := v.(map[string]any)
	return ok && len(m) == 0
}

// answeredMembers returns what of v, an object sent, an answer of the
// schema answer, which declares no properties, holds: each member its
// additionalProperties schema may hold, as onsched's custom fields are
// sent as strings and answered as objects, which no server can echo; the
// whole of v where that schema is not given.
func (h *Harness) answeredMembers(answer *openapi3.Schema, v map[string]any, depth int) any {
	ap := answer.AdditionalProperties.Schema
	if ap == nil || ap.Value == nil {
		return v
	}
	out := maps.Clone(v)
	for name, e := range out {
		if !ofType(ap.Value, e) || !h.holds(ap.Value, e) {
			delete(out, name)
			continue
		}
		out[name] = h.answered(nil, ap.Value, e, depth+1)
	}
	return out
}

// holds reports whether an answer of the schema s may hold v, a value
// sent that is not an object (whose members are judged one by one): one
// no answer may hold, such as iZettle's two categories of a product
// created whose answer holds at most one, or VTEX's null of a category's
// AdWordsRemarketingCode, which its answer holds a string of, is not
// expected back.
func (h *Harness) holds(s *openapi3.Schema, v any) bool {
	if _, ok := v.(map[string]any); ok {
		return true
	}
	return s.VisitJSON(v, spec.SchemaOptions(h.contract.Doc)...) == nil
}

// ofType reports whether v, a value sent, is of a JSON type that s, the
// schema of its answer, allows, or s names no type; for an array, each of
// its items of a type s's items allow too (Asana's followers, gids sent,
// users answered).
func ofType(s *openapi3.Schema, v any) bool {
	if !oneOfType(s, v) {
		return false
	}
	if a, ok := v.([]any); ok && s.Items != nil && s.Items.Value != nil {
		for _, e := range a {
			if !oneOfType(s.Items.Value, e) {
				return false
			}
		}
	}
	return true
}

// oneOfType is ofType of v alone.
func oneOfType(s *openapi3.Schema, v any) bool {
	types := typesOf(s)
	if len(types) == 0 || v == nil {
		return true
	}
	var kinds []string
	switch v.(type) {
	case map[string]any:
		kinds = []string{"object"}
	case []any:
		kinds = []string{"array"}
	case string:
		kinds = []string{"string"}
	case bool:
		kinds = []string{"boolean"}
	case json.Number, float64, int, int64:
		kinds = []string{"number", "integer"}
	default:
		return true
	}
	for _, k := range kinds {
		if slices.Contains(types, k) {
			return true
		}
	}
	return false
}

// typesOf returns the JSON types s allows: those it names, or else those
// of its alternatives, oneOf or anyOf, as Directus' folder's parent, a
// string or the folder it names; none where one of them names none.
func typesOf(s *openapi3.Schema) []string {
	if s.Type != nil {
		return s.Type.Slice()
	}
	if t := spec.TypeOf(s); t != "" {
		return []string{t}
	}
	var types []string
	for _, alt := range append(slices.Clone(s.OneOf), s.AnyOf...) {
		if alt == nil || alt.Value == nil {
			return nil
		}
		t := spec.TypeOf(alt.Value)
		if t == "" {
			return nil
		}
		types = append(types, t)
	}
	return types
}
