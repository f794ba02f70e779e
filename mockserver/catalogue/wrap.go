package catalogue

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// An operation that answers the item inside an object, such as Asana's
// {"data":{...}} or Apideck's {"status_code":200,"status":"OK",
// "data":{...}}, answers the item stored in that object, beside what the
// document requires there, made once from its schema; where what the
// object holds has a schema of its own, narrower than the item's (the
// {"id":"..."} of Apideck's creates), the item is written in that
// schema's shape. A body that holds the item so is read for what it
// holds.

// itemWrapper writes the answers of one operation in the object that
// wraps the item.
type itemWrapper struct {
	open, close []byte // what the item is written between
	// inner writes what the object holds, of the schema innerSchema,
	// where it is not the item's; nil where it is.
	inner       *shape.Shape
	innerSchema *openapi3.Schema
}

// wrapItems makes the writers of the operations of rs that answer the
// item inside an object, what the objects require made from seed, and
// returns what it warns of.
func (rs *Resource) wrapItems(c *spec.Contract, shapes *shape.Builder, seed uint64) []string {
	var notes []string
	gen := &fake.Generator{Contract: c, Faker: fake.NewFaker(seed ^ hashString("wrap "+rs.spec.Name)), Examples: true}
	for op, w := range rs.spec.Wrapped {
		rest := map[string]any{}
		var failed []string
		for _, p := range c.Properties(w.Schema) {
			if !p.Required || p.Name == w.Property {
				continue
			}
			v, err := gen.Valid(p.Schema, fake.Hint{Property: p.Name, Resource: rs.spec.Name})
			if err != nil {
				failed = append(failed, p.Name)
				continue
			}
			rest[p.Name] = v
		}
		if len(failed) > 0 {
			notes = append(notes, fmt.Sprintf("%s.responses.%d: no value made for %s matches its schema, so the %s is answered without it", op.Where, op.Success, strings.Join(failed, " and "), rs.singular))
		}
		key, _ := json.Marshal(w.Property)
		iw := &itemWrapper{open: append(append([]byte{'{'}, key...), ':'), close: []byte{'}'}}
		if text := shapes.Of(w.Schema).AppendJSON(nil, rest); len(text) > 2 {
			text[0] = ','
			iw.close = text
		}
		if inner := w.Inner(c); inner != nil && inner != rs.spec.Item {
			iw.inner, iw.innerSchema = shapes.Of(inner), inner
		}
		if rs.wrapped == nil {
			rs.wrapped = map[*spec.Operation]*itemWrapper{}
		}
		rs.wrapped[op] = iw
	}
	return notes
}

// body returns the body of c as the item it holds: the body itself, or
// what its wrapper holds.
func (rs *Resource) body(c *edge.Call) any {
	if w := rs.spec.BodyWrapped[c.Op.Spec]; w != nil {
		m, _ := c.Body.(map[string]any)
		if v, ok := m[w.Property]; ok && v != nil {
			return v
		}
		// A body whose schema does not require what it wraps, as
		// Square's {"location": {...}} of a location created, may leave
		// it out: the item sent is one of nothing.
		return map[string]any{}
	}
	return c.Body
}

// writeItem answers with the item's text, of the id id or the name name,
// in the object that wraps it where the operation answers so, or with no
// body when the operation documents none for status, such as a 204.
func (rs *Resource) writeItem(w http.ResponseWriter, op *edge.Operation, status int, text []byte, id int64, name string) {
	iw := rs.wrapped[op.Spec]
	if iw == nil || op.Spec.JSONSchema(status) == nil {
		writeItem(w, op, status, text)
		return
	}
	if iw.inner != nil {
		// What the wrapper holds may be another object than the item,
		// which the item does not match, as Ijenko's {"resource": {"id",
		// "entity", "href"}} of a user: see createdOther.
		if other := rs.createdOther(iw.innerSchema, text, rs.idText(id, name), nil); other != nil {
			text = other[:len(other)-1]
		}
		if v, err := edge.DecodeJSON(text); err == nil {
			text = iw.inner.AppendJSON(nil, v)
		}
	}
	out := make([]byte, 0, len(iw.open)+len(text)+len(iw.close)+1)
	out = append(append(append(append(out, iw.open...), text...), iw.close...), '\n')
	edge.WriteBody(w, status, op.ContentTypeOf(status), out)
}

// schemaOf is the schema of what a wrapper holds, for the fitter: the
// item's own where the body is not wrapped.
func schemaOf(c *spec.Contract, w *spec.Wrapper, s *openapi3.Schema) *openapi3.Schema {
	if w == nil {
		return s
	}
	return w.Inner(c)
}
