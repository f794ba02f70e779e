package request

import (
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// untyped is a document whose bodies have properties, some with a type and
// some without, as Kubernetes' definitions have: a schema without a type
// takes a value of any type.
const untyped = `openapi: 3.0.3
info: {title: Untyped, version: 1.0.0}
paths:
  /typed:
    post:
      operationId: typed
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/Typed'}}}
      responses: {'204': {description: Taken.}, '400': {description: Refused.}}
  /untyped:
    post:
      operationId: untyped
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/Untyped'}}}
      responses: {'204': {description: Taken.}, '400': {description: Refused.}}
components:
  schemas:
    Typed:
      type: object
      properties:
        spec: {type: object, properties: {replicas: {type: integer}}}
    Untyped:
      properties:
        spec: {properties: {replicas: {type: integer}}}
        inherited: {allOf: [{type: string}]}
`

// TestInvalidRequestsBreakOnlyDeclaredTypes: a value of another type is an
// invalid request only where the schema declares the type it breaks; a
// schema with properties and no type takes any value.
func TestInvalidRequestsBreakOnlyDeclaredTypes(t *testing.T) {
	c, err := spec.Read([]byte(untyped))
	if err != nil {
		t.Fatal(err)
	}
	names := func(op string) string {
		var out []string
		for _, ir := range InvalidRequests(c, c.Operation(op)) {
			out = append(out, ir.Name)
		}
		return strings.Join(out, "; ")
	}
	for _, tc := range []struct {
		op        string
		want, not []string
	}{
		{"typed", []string{"body: spec a string instead of an object", "body: an array instead of an object"}, nil},
		{"untyped", []string{"body: inherited a number instead of a string"}, []string{"spec a string instead of an object", "an array instead of an object"}},
	} {
		got := names(tc.op)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: invalid requests %q, want %q among them", tc.op, got, w)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: invalid requests %q hold %q, which the schema takes", tc.op, got, n)
			}
		}
	}
}
