package answer

import (
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/spec"
)

// sharedResponses is a document whose two operations refer to the same
// responses of its components, and write one of their own each.
const sharedResponses = `openapi: 3.0.3
info: {title: Shared, version: 1.0.0}
paths:
  /a:
    get:
      operationId: getA
      responses:
        '200': {$ref: '#/components/responses/Thing'}
        '404': {$ref: '#/components/responses/NotFound'}
        '500': {description: own, content: {application/json: {schema: {type: string}}}}
  /b:
    get:
      operationId: getB
      responses:
        '200': {$ref: '#/components/responses/Thing'}
        '404': {$ref: '#/components/responses/NotFound'}
        '500': {description: own, content: {application/json: {schema: {type: string}}}}
components:
  responses:
    Thing: {description: a thing, content: {application/json: {schema: {type: object}}}}
    NotFound: {description: none, content: {application/json: {schema: {type: object}}}}
`

// TestResponsesShareTheFactsOfAResponse holds the facts of a response of
// the components, which many operations refer to, to being made once and
// shared by them, so that their memory grows with the responses, not with
// the operations times their references; a response an operation writes
// itself has facts of its own.
func TestResponsesShareTheFactsOfAResponse(t *testing.T) {
	c, err := spec.Read([]byte(sharedResponses))
	if err != nil {
		t.Fatal(err)
	}
	shapes := shape.NewBuilder(c)
	outage := OutageFacts(c, shapes)
	known := map[*openapi3.Response]*Facts{}
	a := NewResponses(c, c.Operation("getA"), shapes, outage, known)
	b := NewResponses(c, c.Operation("getB"), shapes, outage, known)
	for _, tc := range []struct {
		status int
		shared bool
	}{{200, true}, {404, true}, {500, false}} {
		fa, fb := a.of(tc.status), b.of(tc.status)
		if fa == nil || fb == nil {
			t.Fatalf("%d: no facts (%v, %v)", tc.status, fa, fb)
		}
		if (fa == fb) != tc.shared {
			t.Errorf("%d: facts shared %v, want %v", tc.status, fa == fb, tc.shared)
		}
		if fa.mediaType != "application/json" || fa.schema == nil {
			t.Errorf("%d: facts %+v, want the JSON body and its schema", tc.status, fa)
		}
	}
	if len(known) != 4 {
		t.Errorf("%d facts made, want 4: two shared responses and one of each operation's own", len(known))
	}
}
