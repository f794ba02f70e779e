package spec

import (
	"fmt"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// AnswerKind is what the body of a made-up answer holds.
type AnswerKind int

// Kinds of answers.
const (
	AnswerEmpty AnswerKind = iota // no body
	AnswerJSON                    // a JSON value of Answer.Schema
	AnswerText                    // text/plain, a string of Answer.Schema
)

// Answer is what petmock answers an operation of no resource with, such
// as a report or an action: a value made from the schema of its success
// response.
type Answer struct {
	// Status is the operation's success status.
	Status int
	Kind   AnswerKind
	// Schema is the schema of the body; nil for AnswerEmpty.
	Schema *openapi3.Schema
	// About is what the answer is about, for realistic values: the last
	// literal segment of the path, such as "inventory"; "" for none.
	About string
}

// Answer returns what petmock answers o with, or an error that says why
// it cannot: o has no success response, or its success response is
// neither JSON, nor text/plain of a string schema, nor empty.
func (o *Operation) Answer() (Answer, error) {
	if o.Success == 0 {
		return Answer{}, fmt.Errorf("%s.responses: no success (2xx) or default response for petmock to answer with", o.Where)
	}
	a := Answer{Status: o.Success}
	if lits := o.Template.Literals(); len(lits) > 0 {
		a.About = lits[len(lits)-1]
	}
	resp := o.Response(o.Success)
	switch {
	case o.JSONSchema(o.Success) != nil:
		a.Kind, a.Schema = AnswerJSON, o.JSONSchema(o.Success)
	case resp == nil || len(resp.Content) == 0:
	default:
		mt := resp.Content.Get("text/plain")
		if mt == nil || mt.Schema == nil || mt.Schema.Value == nil || schemaType(mt.Schema.Value) != "string" {
			types := make([]string, 0, len(resp.Content))
			for name := range resp.Content {
				types = append(types, name)
			}
			slices.Sort(types)
			return Answer{}, fmt.Errorf("%s.responses.%d.content: petmock answers application/json, or text/plain of a string schema, not %s", o.Where, o.Success, strings.Join(types, ", "))
		}
		a.Kind, a.Schema = AnswerText, mt.Schema.Value
	}
	return a, nil
}
