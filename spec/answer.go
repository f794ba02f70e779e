package spec

import (
	"fmt"

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
	// media type the document gives no schema of.
	Schema *openapi3.Schema
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
	}
	return a, nil
}
