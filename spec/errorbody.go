package spec

import (
	"maps"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// ProblemContentType is the media type of RFC 9457 problem details, the
// body of an error where the document describes none.
const ProblemContentType = "application/problem+json"

// ErrorBody is what the document says the body of an error answer holds:
// the response an operation documents for the status, or its default; or,
// for a status it does not document and for a request of no operation,
// the error the document's operations answer with most; or, where the
// document describes no error body at all, problem details.
type ErrorBody struct {
	// Documented says that the operation documents the status, or a
	// default response. It is false for a request of no operation.
	Documented bool
	// Kind is what the body holds: JSON of Schema, text, other bytes, or
	// nothing, for a documented response without content.
	Kind AnswerKind
	// MediaType is the Content-Type of the body, as the document names
	// it; ProblemContentType for problem details; "" for no body.
	MediaType string
	// Schema is the schema of a JSON body; nil for problem details, and
	// for a media type the document gives no schema of.
	Schema *openapi3.Schema
	// Problem says that the body is problem details: the document
	// describes no error body petmock could send instead.
	Problem bool
}

// problemBody is the error body of a document that describes none.
var problemBody = ErrorBody{Kind: AnswerJSON, MediaType: ProblemContentType, Problem: true}

// ErrorBody returns the body of an error answer of status to a request of
// o, or, with o nil, to a request of no operation.
func (c *Contract) ErrorBody(o *Operation, status int) ErrorBody {
	if o != nil {
		if r := o.errorResponse(status); r != nil {
			b := responseBody(r)
			b.Documented = true
			return b
		}
	}
	return c.errorBody
}

// errorResponse returns the response o documents for status, or its
// default, or nil.
func (o *Operation) errorResponse(status int) *openapi3.Response {
	if o.Op.Responses == nil {
		return nil
	}
	if slices.Contains(o.Statuses, status) {
		if r := o.Op.Responses.Status(status); r != nil && r.Value != nil {
			return r.Value
		}
	}
	if r := o.Op.Responses.Default(); r != nil && r.Value != nil {
		return r.Value
	}
	return nil
}

// responseBody returns the body of a documented response, in the media
// type petmock answers best (see answerMedia).
func responseBody(r *openapi3.Response) ErrorBody {
	if len(r.Content) == 0 {
		return ErrorBody{}
	}
	name, mt, kind := answerMedia(r.Content)
	if mt == nil {
		return ErrorBody{}
	}
	b := ErrorBody{Kind: kind, MediaType: name}
	if mt.Schema != nil {
		b.Schema = mt.Schema.Value
	}
	return b
}

// errorSchemaNames are the names, lowercase without underscores, of a
// schema of components that describes the document's errors when no
// response does.
var errorSchemaNames = []string{"error", "errorresponse", "errormodel", "errorbody", "apierror"}

// readErrorBody finds the error body of the document: the JSON body of
// the error responses (4xx, 5xx and default) of its operations that
// share one schema most often, the first found of those as often shared;
// where none has a JSON body of a schema, a schema of components named
// for errors, such as Error; or else problem details.
func (c *Contract) readErrorBody() ErrorBody {
	if b := c.responsesErrorBody(); !b.Problem {
		return b
	}
	if c.Doc.Components != nil {
		for _, want := range errorSchemaNames {
			for _, name := range slices.Sorted(maps.Keys(c.Doc.Components.Schemas)) {
				ref := c.Doc.Components.Schemas[name]
				if strings.ToLower(strings.ReplaceAll(name, "_", "")) == want && ref != nil && ref.Value != nil {
					return ErrorBody{Kind: AnswerJSON, MediaType: JSONContentType, Schema: ref.Value}
				}
			}
		}
	}
	return problemBody
}

// responsesErrorBody is the JSON body of the error responses that share
// one schema most often, or problem details.
func (c *Contract) responsesErrorBody() ErrorBody {
	counts := map[*openapi3.Schema]int{}
	var found []ErrorBody
	for _, o := range c.Operations {
		if o.Op.Responses == nil {
			continue
		}
		responses := o.Op.Responses.Map()
		for _, code := range slices.Sorted(maps.Keys(responses)) {
			ref := responses[code]
			if ref == nil || ref.Value == nil || !(code == "default" || strings.HasPrefix(code, "4") || strings.HasPrefix(code, "5")) {
				continue
			}
			b := responseBody(ref.Value)
			if b.Kind != AnswerJSON || b.Schema == nil {
				continue
			}
			if counts[b.Schema] == 0 {
				found = append(found, b)
			}
			counts[b.Schema]++
		}
	}
	best := problemBody
	for _, b := range found {
		if best.Problem || counts[b.Schema] > counts[best.Schema] {
			best = b
		}
	}
	return best
}
