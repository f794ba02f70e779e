package answercheck

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// CheckError checks a, an error answer to req that the document does not
// describe for its operation, such as an outage a test asked for, or the
// 404 or 405 of a request of no operation, and returns what it breaks. It
// is held to the body the document gives such an error
// (spec.Contract.ErrorBody): the operation's default response; else the
// error body the document's responses share, or its Error schema. That
// body is JSON: a is served as JSON, matches its schema, and has the shape
// the error-shape rule asks of it. Where the document describes no error
// body at all, any body passes: petmock sends problem details there, and
// another server what it likes. A HEAD request, whose answer has no body,
// and an Unread body break nothing.
func (k *Checker) CheckError(req *http.Request, a Answer) []Violation {
	if a.Unread || req.Method == http.MethodHead {
		return nil
	}
	var op *spec.Operation
	if route, _, err := k.router.FindRoute(req); err == nil {
		op = k.contract.Operation(k.ops[route.Operation].id)
	}
	b := k.contract.ErrorBody(op, a.Status)
	if b.Problem || b.Kind != spec.AnswerJSON {
		return nil
	}
	answered := func(rule, detail string) []Violation {
		return []Violation{{Rule: rule, Message: fmt.Sprintf("%s %s answered %d: %s", req.Method, req.URL.Path, a.Status, detail)}}
	}
	if mediaType, _, _ := mime.ParseMediaType(a.Header.Get("Content-Type")); !isJSON(mediaType) {
		return answered(RuleMediaType, fmt.Sprintf("Content-Type is %q, want %s", a.Header.Get("Content-Type"), b.MediaType))
	}
	var v any
	if err := json.Unmarshal(a.Body, &v); err != nil {
		return answered(RuleBody, "the body is not valid JSON: "+err.Error())
	}
	if b.Schema == nil {
		return nil
	}
	// By the validator of the document's version, as openapi3filter
	// checks the answers it documents.
	if err := b.Schema.VisitJSON(v, append(spec.SchemaOptions(k.contract.Doc), openapi3.VisitAsResponse())...); err != nil {
		return answered(RuleBody, "the body does not match the error body of the document: "+DescribeSchemaError(err))
	}
	if sh, ok := k.shapes[b.Schema]; ok {
		if problem := sh.problem(a.Status, a.Body); problem != "" {
			return answered(RuleErrorShape, problem)
		}
	}
	return nil
}
