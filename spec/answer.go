package spec

import (
	"fmt"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
)

// AnswerKind is what the body of a made-up answer holds.
type AnswerKind int

// Kinds of answers.
const (
	AnswerEmpty AnswerKind = iota // no body
	AnswerJSON                    // a JSON value of Answer.Schema, or one of Answer.Examples
	AnswerText                    // text, such as text/plain or text/csv: a string of Answer.Schema, or one of Answer.Examples
	AnswerBytes                   // bytes of another type, such as image/png: one of Answer.Examples, or bytes of the type
)

// Answer is what petmock answers an operation of no resource with, such
// as a report or an action: a value made from the schema of its success
// response, or one of the examples the document gives of it.
type Answer struct {
	// Status is the operation's success status; of an operation that
	// documents none, the first status it documents.
	Status int
	Kind   AnswerKind
	// MediaType is the Content-Type of the body, as the document names
	// it, such as application/json;charset=UTF-8 or image/png; "" for
	// AnswerEmpty.
	MediaType string
	// Schema is the schema of the body; nil for AnswerEmpty, and for a
	// media type the document gives no schema of. SchemaRef is the
	// reference it is given by, such as #/components/schemas/Pet, or "".
	Schema    *openapi3.Schema
	SchemaRef string
	// Examples are the examples the document gives of the body: the media
	// type's example, then its named examples by name. An answer without
	// a schema is one of them.
	Examples []any
	// About is what the answer is about, for realistic values: the last
	// literal segment of the path, such as "inventory"; "" for none.
	About string
	// Note says, for a start-up log, what is unusual about the answer,
	// such as a status that is not a success; "" when nothing is.
	Note string
}

// Answer returns what petmock answers o with: its success status, or the
// first status it documents when it documents no success, with a body of
// the media type petmock answers best (see answerMedia). It fails only
// for an operation that documents no response at all.
func (o *Operation) Answer() (Answer, error) {
	a := Answer{Status: o.Success}
	if lits := o.Template.Literals(); len(lits) > 0 {
		a.About = lits[len(lits)-1]
	}
	if o.Success == 0 {
		switch {
		case len(o.Statuses) > 0:
			a.Status = o.Statuses[0]
			a.Note = fmt.Sprintf("%s.responses: no success (2xx) or default response, so a valid request is answered %d, the first status documented", o.Where, a.Status)
		case len(o.Ranges) > 0:
			a.Status = o.Ranges[0] * 100
			a.Note = fmt.Sprintf("%s.responses: no success (2xx) or default response, so a valid request is answered %d, the first status of %dXX, the first range documented", o.Where, a.Status, o.Ranges[0])
		default:
			return Answer{}, fmt.Errorf("%s.responses: no response for petmock to answer with; document one, such as 200", o.Where)
		}
	}
	resp := o.Response(a.Status)
	if resp == nil || len(resp.Content) == 0 {
		return a, nil
	}
	name, mt, kind := answerMedia(resp.Content)
	if mt == nil {
		return a, nil
	}
	a.Kind, a.MediaType, a.Examples = kind, name, mediaExamples(mt)
	if mt.Schema != nil {
		a.Schema = mt.Schema.Value
		a.SchemaRef = mt.Schema.Ref
	}
	return a, nil
}

// AnswerIn returns what petmock answers o with in the media type its
// answer's content calls name, such as application/xml where a request
// asks for it: an answer as Answer's, of that type. ok is false where the
// content has no such media type.
func (o *Operation) AnswerIn(name string) (a Answer, ok bool, err error) {
	if a, err = o.Answer(); err != nil {
		return a, false, err
	}
	resp := o.Response(a.Status)
	if resp == nil || resp.Content[name] == nil {
		return a, false, nil
	}
	mt := resp.Content[name]
	a.MediaType, a.Kind = MediaOf(name)
	a.Examples, a.Schema, a.SchemaRef = mediaExamples(mt), nil, ""
	if mt.Schema != nil {
		a.Schema = mt.Schema.Value
		a.SchemaRef = mt.Schema.Ref
	}
	return a, true, nil
}

// HasWriteOnly reports whether a value of s may hold a member that s, or
// a schema below it, marks writeOnly: one an answer must leave out.
func HasWriteOnly(s *openapi3.Schema) bool {
	seen := map[*openapi3.Schema]bool{}
	var visit func(s *openapi3.Schema, depth int) bool
	visit = func(s *openapi3.Schema, depth int) bool {
		if s == nil || seen[s] || depth > 32 {
			return false
		}
		seen[s] = true
		for _, p := range objectProperties(nil, s) {
			if p.Schema.WriteOnly || visit(p.Schema, depth+1) {
				return true
			}
		}
		if s.Items != nil && visit(s.Items.Value, depth+1) {
			return true
		}
		if ap := s.AdditionalProperties.Schema; ap != nil && visit(ap.Value, depth+1) {
			return true
		}
		return false
	}
	return visit(s, 0)
}

// DropWriteOnly takes out of v, a decoded value of s, the members s or a
// schema below it marks writeOnly, at every depth: a client sends them,
// and no answer holds them, a stored item's included.
func DropWriteOnly(v any, s *openapi3.Schema) {
	dropWriteOnly(v, s, 0)
}

func dropWriteOnly(v any, s *openapi3.Schema, depth int) {
	if s == nil || depth > 32 {
		return
	}
	switch v := v.(type) {
	case map[string]any:
		props := objectProperties(nil, s)
		for _, p := range props {
			e, ok := v[p.Name]
			switch {
			case !ok:
			case p.Schema.WriteOnly:
				delete(v, p.Name)
			default:
				dropWriteOnly(e, p.Schema, depth+1)
			}
		}
		if ap := s.AdditionalProperties.Schema; ap != nil && ap.Value != nil {
			for name, e := range v {
				if !slices.ContainsFunc(props, func(p Property) bool { return p.Name == name }) {
					dropWriteOnly(e, ap.Value, depth+1)
				}
			}
		}
	case []any:
		if s.Items != nil {
			for _, e := range v {
				dropWriteOnly(e, s.Items.Value, depth+1)
			}
		}
	}
}
