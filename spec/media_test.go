package spec_test

import (
	"testing"

	"github.com/petstore/contract/spec"
)

func TestIsJSON(t *testing.T) {
	tests := map[string]bool{
		"application/json":                true,
		"application/json;charset=UTF-8":  true,
		"application/json; charset=utf-8": true,
		"Application/JSON":                true,
		"application/problem+json":        true,
		"application/vnd.shop.v2+json":    true,
		"application/xml":                 false,
		"text/plain":                      false,
		"*/*":                             false,
		"application/jsonl":               false,
		"":                                false,
	}
	for mediaType, want := range tests {
		if got := spec.IsJSON(mediaType); got != want {
			t.Errorf("IsJSON(%q) = %v, want %v", mediaType, got, want)
		}
	}
}

// TestJSONOfAnyName: a list documented as application/json;charset=UTF-8,
// as Spring documents them, or as */*, has a JSON schema, and its answers
// are sent with the Content-Type the document names.
func TestJSONOfAnyName(t *testing.T) {
	c := smallDocument(t, `
  /a:
    get:
      operationId: a
      responses:
        '200': {description: ok, content: {application/json;charset=UTF-8: {schema: {type: array, items: {type: string}}}}}
  /b:
    get:
      operationId: b
      responses:
        '200': {description: ok, content: {'*/*': {schema: {type: array, items: {type: string}}}}}`)
	for id, want := range map[string]string{"a": "application/json;charset=UTF-8", "b": "application/json"} {
		op := c.Operation(id)
		if s := op.JSONSchema(200); s == nil || spec.TypeOf(s) != "array" {
			t.Errorf("%s: JSONSchema(200) = %v, want the array", id, s)
		}
		if got := op.JSONContentType(200); got != want {
			t.Errorf("%s: JSONContentType(200) = %q, want %q", id, got, want)
		}
	}
}
