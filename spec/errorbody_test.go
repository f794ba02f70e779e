package spec_test

import (
	"testing"

	"github.com/petstore/contract/spec"
)

// TestErrorBody: the body of an error is the one the operation documents
// for its status, or its default; for another status, or no operation,
// the one the document's error responses share most; and problem details
// where the document describes none.
func TestErrorBody(t *testing.T) {
	c, err := spec.Read([]byte(header + `paths:
  /a:
    get:
      operationId: a
      responses:
        '200': {description: ok}
        '404': {description: none, content: {application/json: {schema: {$ref: '#/components/schemas/Oops'}}}}
        '409': {description: taken}
        default: {description: error, content: {application/problem+json: {schema: {$ref: '#/components/schemas/Problem'}}}}
  /b:
    get:
      operationId: b
      responses:
        '200': {description: ok}
        '400': {description: bad, content: {application/problem+json: {schema: {$ref: '#/components/schemas/Problem'}}}}
        '500': {description: broken, content: {text/plain: {schema: {type: string}}}}
components:
  schemas:
    Oops: {type: object, properties: {oops: {type: string}}}
    Problem: {type: object, properties: {detail: {type: string}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	oops, problem := c.Doc.Components.Schemas["Oops"].Value, c.Doc.Components.Schemas["Problem"].Value
	a, b := c.Operation("a"), c.Operation("b")
	tests := []struct {
		name   string
		op     *spec.Operation
		status int
		want   spec.ErrorBody
	}{
		{"documented", a, 404, spec.ErrorBody{Documented: true, Kind: spec.AnswerJSON, MediaType: "application/json", Schema: oops}},
		{"documented without content", a, 409, spec.ErrorBody{Documented: true}},
		{"the default", a, 401, spec.ErrorBody{Documented: true, Kind: spec.AnswerJSON, MediaType: "application/problem+json", Schema: problem}},
		{"text", b, 500, spec.ErrorBody{Documented: true, Kind: spec.AnswerText, MediaType: "text/plain"}},
		{"undocumented: the body shared most", b, 401, spec.ErrorBody{Kind: spec.AnswerJSON, MediaType: "application/problem+json", Schema: problem}},
		{"no operation", nil, 404, spec.ErrorBody{Kind: spec.AnswerJSON, MediaType: "application/problem+json", Schema: problem}},
	}
	for _, tt := range tests {
		got := c.ErrorBody(tt.op, tt.status)
		if tt.want.Kind == spec.AnswerText {
			got.Schema = nil
		}
		if got != tt.want {
			t.Errorf("%s: ErrorBody = %+v, want %+v", tt.name, got, tt.want)
		}
	}
	none := smallDocument(t, `
  /c:
    get:
      responses:
        '200': {description: ok}`)
	if got := none.ErrorBody(nil, 404); !got.Problem || got.MediaType != spec.ProblemContentType {
		t.Errorf("a document of no error body: ErrorBody = %+v, want problem details", got)
	}
}
