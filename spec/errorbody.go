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
	if slices.Contains(o.Statuses, status) || slices.Contains(o.Ranges, status/100) {
		if r := statusResponse(o.Op.Responses, status); r != nil && r.Value != nil {
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

// ErrorRole is what a member of an error body holds, as its name and type
// tell: the meaning petmock fills it with, and the suite reads it by.
type ErrorRole uint8

// The roles of the members of an error body.
const (
	// ErrorOther is a member of no role the name tells.
	ErrorOther ErrorRole = iota
	// ErrorMessage is a string that may hold the message: message,
	// detail, error_description, description, msg, reason, error,
	// title...; MessageRank says which is likeliest.
	ErrorMessage
	// ErrorCode is a string code, such as not_found: code, errorCode, or
	// error where another member holds the message.
	ErrorCode
	// ErrorStatus is the HTTP status, an integer: status, statusCode,
	// httpStatus, httpStatusCode or httpCode.
	ErrorStatus
	// ErrorNumber is an integer code or errorCode: a number of the
	// document's own, which petmock fills with the HTTP status and no
	// reader may take for one.
	ErrorNumber
	// ErrorStatusText is the HTTP status written as a string, such as
	// "404": a string status.
	ErrorStatusText
	// ErrorTitle is the status's text, such as "Not Found": title.
	ErrorTitle
	// ErrorType is the URI of problem details' type.
	ErrorType
)

// messageNames are the names of a member that holds an error's message,
// the likeliest first, written as NormName writes them.
var messageNames = []string{"message", "detail", "details", "errordescription", "errormessage", "description", "msg", "reason", "error", "title", "text", "summary"}

// statusNames are the names of an integer member that holds the HTTP
// status, written as NormName writes them.
var statusNames = []string{"status", "statuscode", "httpstatus", "httpstatuscode", "httpcode"}

// NormName writes a member's name lowercase, without underscores and
// dashes: error_description, errorDescription and error-description are
// one.
func NormName(name string) string {
	return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(name))
}

// MessageRank returns how likely a member of the given name holds an
// error's message, 0 the likeliest, or -1 when its name says it does not.
func MessageRank(name string) int {
	return slices.Index(messageNames, NormName(name))
}

// ErrorRoleOf returns the role of p, a member of an error object, as its
// name and type tell, but for ErrorMessage: of the members that may hold
// the message, MessageRank tells which one does.
func ErrorRoleOf(p Property) ErrorRole {
	t := TypeOf(p.Schema)
	number := t == "integer" || t == "number"
	switch n := NormName(p.Name); {
	case (n == "code" || n == "errorcode") && number:
		return ErrorNumber
	case (n == "code" || n == "errorcode" || n == "error") && t == "string":
		return ErrorCode
	case slices.Contains(statusNames, n) && number:
		return ErrorStatus
	case slices.Contains(statusNames, n) && t == "string":
		return ErrorStatusText
	case n == "title" && t == "string":
		return ErrorTitle
	case n == "type" && t == "string" && (p.Schema.Format == "uri" || p.Schema.Format == "uri-reference"):
		return ErrorType
	case MessageRank(p.Name) >= 0 && (t == "string" || t == ""):
		return ErrorMessage
	}
	return ErrorOther
}
