package request

import (
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// A JSON Patch (RFC 6902) made from its schema alone names any path with
// any value: LaunchDarkly's replaces a token's name, a string, with {}.
// A server that applies it to the item rightly refuses it, so the patch
// of a resource's update changes a property the item has, one a client
// writes, to a value of that property's own schema.

// isJSONPatch reports whether s, the schema of a body, is a JSON Patch:
// an array of objects with an op and a path.
func isJSONPatch(c *spec.Contract, s *openapi3.Schema) bool {
	if spec.TypeOf(s) != "array" || s.Items == nil || s.Items.Value == nil {
		return false
	}
	props := c.Properties(s.Items.Value)
	has := func(name string) bool {
		return slices.ContainsFunc(props, func(p spec.Property) bool { return p.Name == name })
	}
	return has("op") && has("path")
}

// itemPatches returns JSON Patches of one operation each, in the order of
// the item's properties, each replacing a property of res's items that
// its create writes and that is not the id with a value made by gen from
// that property's schema; none where the item has no such property. The
// first the patch's own schema takes is sent: LaunchDarkly's takes an
// object value only, so a patch of an object property.
func itemPatches(c *spec.Contract, res *spec.Resource, patch *openapi3.Schema, gen *fake.Generator) [][]any {
	if res == nil || res.Item == nil {
		return nil
	}
	replace := patchOp(c, patch, "replace")
	writes := map[string]bool{}
	for _, p := range c.Properties(res.Create) {
		writes[p.Name] = !p.Schema.ReadOnly
	}
	var out [][]any
	for _, p := range c.Properties(res.Item) {
		if p.Name == res.IDProperty || p.Schema.ReadOnly || !writes[p.Name] {
			continue
		}
		v := gen.Request(p.Schema, res.Name)
		if v == nil {
			continue
		}
		out = append(out, []any{map[string]any{"op": replace, "path": "/" + pointerToken(p.Name), "value": withoutReadOnly(c, p.Schema, v)}})
	}
	return out
}

// patchOp returns the name of the operation op of a JSON Patch as the
// patch's schema writes it: Visma's, of ASP.NET Core, enumerates Replace.
func patchOp(c *spec.Contract, patch *openapi3.Schema, op string) string {
	if patch == nil || patch.Items == nil || patch.Items.Value == nil {
		return op
	}
	for _, p := range c.Properties(patch.Items.Value) {
		if p.Name != "op" {
			continue
		}
		for _, v := range p.Schema.Enum {
			if name, ok := v.(string); ok && strings.EqualFold(name, op) {
				return name
			}
		}
	}
	return op
}

// pointerToken escapes name as one token of a JSON Pointer (RFC 6901).
func pointerToken(name string) string {
	out := make([]byte, 0, len(name))
	for i := range len(name) {
		switch name[i] {
		case '~':
			out = append(out, '~', '0')
		case '/':
			out = append(out, '~', '1')
		default:
			out = append(out, name[i])
		}
	}
	return string(out)
}
