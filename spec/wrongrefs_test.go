package spec_test

import (
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// TestSchemaRefsToResponses: a schema that refers to a response, as
// Rumble's answers refer to #/components/responses/StatusMessage, is read
// as that response's schema where it has one, and as any value where it
// has none, each with a warning naming the place; read strictly, the
// document is refused, naming the place.
func TestSchemaRefsToResponses(t *testing.T) {
	doc := `openapi: 3.0.3
info: {title: Small, version: 1.0.0}
paths:
  /things:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/responses/Status'}
    post:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/responses/Thing'}
components:
  responses:
    Status: {description: Summary of the results}
    Thing:
      description: A thing
      content:
        application/json:
          schema: {type: object, required: [id], properties: {id: {type: integer}}}
`
	c, err := spec.Read([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	said := strings.Join(c.Warnings, "\n")
	for _, want := range []string{
		"paths./things.get.responses.200.content.application/json.schema: $ref #/components/responses/Status refers to no schema; read as any value",
		"paths./things.post.responses.200.content.application/json.schema: $ref #/components/responses/Thing refers to no schema; read as that response's schema",
	} {
		if !strings.Contains(said, want) {
			t.Errorf("warnings\n%s\nwant %q", said, want)
		}
	}
	s := c.Doc.Paths.Value("/things").Post.Responses.Status(200).Value.Content.Get("application/json").Schema.Value
	if s.VisitJSON(map[string]any{}) == nil {
		t.Error("the post's schema took an object without id, which the response's schema requires")
	}
	_, err = spec.ReadOptions{Strict: true}.Read([]byte(doc))
	if err == nil || !strings.Contains(err.Error(), "paths./things.get.responses.200.content.application/json.schema: $ref #/components/responses/Status refers to no schema") {
		t.Errorf("strict: %v, want the first place refused", err)
	}
}
