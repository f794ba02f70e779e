package spec_test

import (
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// TestContradictionsAreRefused: a schema no value can match is refused at
// load, in one line that names its place and what rules every value out,
// where petmock answers with it, lenient or strict; in a request's
// schema it is a warning, read leniently, as only requests are refused.
func TestContradictionsAreRefused(t *testing.T) {
	tests := []struct{ name, schema, why string }{
		{"minimum over maximum", "{type: integer, minimum: 10, maximum: 1}", "minimum 10 is over maximum 1"},
		{"an exclusive bound on the other", "{type: number, minimum: 1, maximum: 1, exclusiveMinimum: true}", "minimum 1 (exclusive) and maximum 1 leave no number between them"},
		{"no integer between", "{type: integer, minimum: 1.2, maximum: 1.8}", "no integer is from minimum 1.2 to maximum 1.8"},
		{"minLength over maxLength", "{type: string, minLength: 10, maxLength: 1}", "minLength 10 is over maxLength 1"},
		{"minItems over maxItems", "{type: array, minItems: 5, maxItems: 1, items: {type: string}}", "minItems 5 is over maxItems 1"},
		{"minProperties over maxProperties", "{type: object, minProperties: 5, maxProperties: 1}", "minProperties 5 is over maxProperties 1"},
		{"more required than maxProperties", "{type: object, maxProperties: 1, required: [a, b], properties: {a: {type: string}, b: {type: string}}}", "2 properties are required, over maxProperties 1"},
		{"an enum of another type", "{type: integer, enum: [a, b]}", "no value of its enum is of its type, integer"},
		// A required property that may not be there, as additionalProperties
		// is false, is a slip read as not required (TestUndeclaredRequiredOfAClosedObject).
		{"below a property", "{type: object, properties: {n: {type: integer, minimum: 10, maximum: 1}}}", "minimum 10 is over maximum 1"},
	}
	for _, tt := range tests {
		answer := header + `paths:
  /things:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: ` + tt.schema + `}}}
`
		request := header + `paths:
  /things:
    post:
      requestBody: {content: {application/json: {schema: ` + tt.schema + `}}}
      responses:
        '204': {description: ok}
`
		for _, strict := range []bool{false, true} {
			_, err := (spec.ReadOptions{Strict: strict}).Read([]byte(answer))
			if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "paths./things.get.responses.200.content.application/json.schema") || !strings.Contains(err.Error(), tt.why) {
				t.Errorf("%s in an answer (strict %v): %v, want one line that names the place and says %q", tt.name, strict, err, tt.why)
			}
		}
		if _, err := (spec.ReadOptions{Strict: true}).Read([]byte(request)); err == nil || !strings.Contains(err.Error(), tt.why) {
			t.Errorf("%s in a request, strict: %v, want it refused", tt.name, err)
		}
		c, err := spec.Read([]byte(request))
		if err != nil {
			t.Errorf("%s in a request: %v, want a warning", tt.name, err)
			continue
		}
		if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "paths./things.post.requestBody.content.application/json.schema") || !strings.Contains(c.Warnings[0], tt.why) {
			t.Errorf("%s in a request: warnings %q, want one that names the place and says %q", tt.name, c.Warnings, tt.why)
		}
	}
}

// TestSatisfiableSchemasAreRead: bounds that leave values, and a
// contradiction below not, which every value matches, are read.
func TestSatisfiableSchemasAreRead(t *testing.T) {
	for _, schema := range []string{
		"{type: integer, minimum: 1, maximum: 1}",
		"{type: number, minimum: 1.2, maximum: 1.8}",
		"{type: string, minLength: 3, maxLength: 3}",
		"{type: integer, enum: [1, a]}",
		"{not: {type: integer, minimum: 10, maximum: 1}}",
		"{type: object, required: [x], additionalProperties: false, properties: {x: {type: string}}}",
	} {
		doc := header + `paths:
  /things:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: ` + schema + `}}}
`
		for _, strict := range []bool{false, true} {
			if _, err := (spec.ReadOptions{Strict: strict}).Read([]byte(doc)); err != nil {
				t.Errorf("%s (strict %v): %v", schema, strict, err)
			}
		}
	}
}

// TestContradictionsOfOpenAPI31: a numeric exclusiveMinimum of OpenAPI 3.1
// is a bound too.
func TestContradictionsOfOpenAPI31(t *testing.T) {
	doc := `openapi: 3.1.0
info: {title: x, version: '1'}
paths:
  /things:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: number, exclusiveMinimum: 5, maximum: 5}}}}
`
	if _, err := spec.Read([]byte(doc)); err == nil || !strings.Contains(err.Error(), "exclusiveMinimum 5 and maximum 5 leave no number between them") {
		t.Errorf("Read = %v, want the bounds refused", err)
	}
}
