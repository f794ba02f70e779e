package request

import (
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// A create, replace or update of a resource may take the item inside an
// object rather than as the body itself, as Asana's {"data":{...}} does
// (spec.Resource.BodyWrapped): the suite makes the whole body from the
// document, and reads, edits and compares the item it holds.

// bodyWrapper returns how op's body holds the item of its resource
// inside an object, where the suite sends it in the schema spec read that
// of; nil where the body is the item itself.
func bodyWrapper(op *spec.Operation) *spec.Wrapper {
	if op == nil || op.Resource == nil {
		return nil
	}
	w := op.Resource.BodyWrapped[op]
	if w == nil || BodySchema(op) != w.Schema {
		return nil
	}
	return w
}

// ItemSchema returns the schema of the item op's body holds: the body's
// own, or that of what its wrapper holds; nil where op takes no body the
// suite makes.
func (m *Maker) ItemSchema(op *spec.Operation) *openapi3.Schema {
	if w := bodyWrapper(op); w != nil {
		return w.Inner(m.contract)
	}
	return BodySchema(op)
}

// ItemIn returns the item body, a body of op, holds: body itself, or the
// object its wrapper holds, which edits of the item change in body; nil
// where body holds none.
func ItemIn(op *spec.Operation, body map[string]any) map[string]any {
	w := bodyWrapper(op)
	if w == nil || body == nil {
		return body
	}
	item, _ := body[w.Property].(map[string]any)
	return item
}

// Wrapped returns the body of op that holds item: item itself, or an
// object that holds it where op takes it so.
func Wrapped(op *spec.Operation, item map[string]any) map[string]any {
	if w := bodyWrapper(op); w != nil {
		return map[string]any{w.Property: item}
	}
	return item
}
