package spec

import (
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
)

// Wrapper is how an operation answers one item, or takes it in its body,
// inside an object rather than as the object itself: Asana's
// {"data":{...}}, Directus' and ReadMe's alike, Apideck's
// {"status_code":200,"status":"OK","service":"...","data":{...}}.
type Wrapper struct {
	// Schema is the schema of the whole object.
	Schema *openapi3.Schema
	// Property is the property that holds the item, such as "data".
	Property string
}

// Inner returns the schema of what the wrapper holds.
func (w *Wrapper) Inner(c *Contract) *openapi3.Schema {
	for _, p := range c.Properties(w.Schema) {
		if p.Name == w.Property {
			return p.Schema
		}
	}
	return nil
}

// ItemOf returns the item of v, decoded JSON, an answer (or a body) of op,
// an operation of the resource: v itself, or what its wrapper holds; ok
// is false when v holds no object there.
func (r *Resource) ItemOf(op *Operation, v any) (item map[string]any, ok bool) {
	if w := r.Wrapped[op]; w != nil {
		m, _ := v.(map[string]any)
		v = m[w.Property]
	}
	item, ok = v.(map[string]any)
	return item, ok
}

// wrapperNames are the names a property that holds an item goes by.
var wrapperNames = []string{"data", "item", "result", "resource", "record", "entry", "object", "value"}

// unwrap returns the schema of the item s, an answer of an item of the
// resource name, holds, and how: s itself and nil, unless s has no
// property that names an id (see namedID) and one object property that
// holds the item, of the schema hint, or of a name an item's holder goes
// by (see wrapperNames), the resource's own (a droplet of droplets) or,
// where given, also, and that names an id.
func (c *Contract) unwrap(s, hint *openapi3.Schema, idParam, name string, also ...string) (*openapi3.Schema, *Wrapper) {
	if s == nil || schemaType(s) != "object" {
		return s, nil
	}
	props := c.Properties(s)
	if _, named := namedID(props, idParam, name); named {
		return s, nil
	}
	names := append(slices.Clone(wrapperNames), looseName(name), looseName(Singular(name)))
	for _, a := range also {
		names = append(names, looseName(a))
	}
	var found []Property
	for _, p := range props {
		if schemaType(p.Schema) != "object" {
			continue
		}
		if p.Schema == hint && hint != nil || slices.Contains(names, looseName(p.Name)) {
			found = append(found, p)
		}
	}
	if len(found) != 1 {
		return s, nil
	}
	// What it holds names an id, as an item does: Kubernetes' data, a
	// RawExtension, holds no item.
	if _, named := namedID(c.Properties(found[0].Schema), idParam, name); !named && found[0].Schema != hint {
		return s, nil
	}
	return found[0].Schema, &Wrapper{Schema: s, Property: found[0].Name}
}

// bodyWrapper returns how the body of op holds the item, as Asana's
// {"data":{...}} does: an object of one property, an object named as a
// holder of an item is (see unwrap), or as holder names the answers';
// nil when the body is the item itself. Beside an object named after the
// item, or as holder names, the body may hold values that are no
// objects: Square's invoice is created by {"idempotency_key": "...",
// "invoice": {...}}.
func (c *Contract) bodyWrapper(op *Operation, name, holder string) *Wrapper {
	if op == nil {
		return nil
	}
	s := op.RequestSchema()
	if s == nil || schemaType(s) != "object" {
		return nil
	}
	props := c.Properties(s)
	if len(props) == 1 {
		n := looseName(props[0].Name)
		if schemaType(props[0].Schema) != "object" || !slices.Contains(wrapperNames, n) && n != looseName(Singular(name)) && (holder == "" || n != looseName(holder)) {
			return nil
		}
		return &Wrapper{Schema: s, Property: props[0].Name}
	}
	var found *Property
	for i, p := range props {
		switch t := schemaType(p.Schema); {
		case t == "object" || t == "array" || t == "":
			n := looseName(p.Name)
			if found != nil || t != "object" || n != looseName(Singular(name)) && (holder == "" || n != looseName(holder)) {
				return nil
			}
			found = &props[i]
		}
	}
	if found == nil {
		return nil
	}
	return &Wrapper{Schema: s, Property: found.Name}
}
