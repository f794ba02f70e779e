package journal

import (
	"github.com/getkin/kin-openapi/openapi3"
)

// markedBy calls mark with the name of every parameter whose schema has
// format password, and of every property that a schema of doc marks
// writeOnly or of format password: a value the client sends and the
// document says no one should read back. Each schema is looked at once,
// however many places refer to it, so that a document of many paths, or
// a schema that holds itself, takes time in proportion to its schemas.
func markedBy(doc *openapi3.T, mark func(string)) {
	w := &markWalk{mark: mark, seen: map[*openapi3.Schema]bool{}}
	if doc.Components != nil {
		for _, ref := range doc.Components.Schemas {
			w.schema(ref)
		}
		for _, ref := range doc.Components.Parameters {
			if ref != nil {
				w.parameter(ref.Value)
			}
		}
		for _, ref := range doc.Components.RequestBodies {
			if ref != nil && ref.Value != nil {
				w.content(ref.Value.Content)
			}
		}
		for _, ref := range doc.Components.Responses {
			if ref != nil && ref.Value != nil {
				w.content(ref.Value.Content)
			}
		}
	}
	if doc.Paths == nil {
		return
	}
	for _, item := range doc.Paths.Map() {
		for _, ref := range item.Parameters {
			if ref != nil {
				w.parameter(ref.Value)
			}
		}
		for _, op := range item.Operations() {
			for _, ref := range op.Parameters {
				if ref != nil {
					w.parameter(ref.Value)
				}
			}
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				w.content(op.RequestBody.Value.Content)
			}
			if op.Responses == nil {
				continue
			}
			for _, ref := range op.Responses.Map() {
				if ref != nil && ref.Value != nil {
					w.content(ref.Value.Content)
				}
			}
		}
	}
}

// markWalk is a walk of markedBy.
type markWalk struct {
	mark func(string)
	seen map[*openapi3.Schema]bool
}

func (w *markWalk) parameter(p *openapi3.Parameter) {
	if p == nil {
		return
	}
	if p.Schema != nil && p.Schema.Value != nil && p.Schema.Value.Format == "password" {
		w.mark(p.Name)
	}
	w.schema(p.Schema)
	w.content(p.Content)
}

func (w *markWalk) content(c openapi3.Content) {
	for _, mt := range c {
		if mt != nil {
			w.schema(mt.Schema)
		}
	}
}

func (w *markWalk) schema(ref *openapi3.SchemaRef) {
	if ref == nil || ref.Value == nil || w.seen[ref.Value] {
		return
	}
	s := ref.Value
	w.seen[s] = true
	for name, prop := range s.Properties {
		if prop != nil && prop.Value != nil && (prop.Value.WriteOnly || prop.Value.Format == "password") {
			w.mark(name)
		}
		w.schema(prop)
	}
	w.schema(s.Items)
	w.schema(s.AdditionalProperties.Schema)
	w.schema(s.Not)
	for _, list := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
		for _, sub := range list {
			w.schema(sub)
		}
	}
}
