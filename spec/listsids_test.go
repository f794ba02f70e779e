package spec_test

import (
	"testing"

	"github.com/petstore/contract/spec"
)

// TestListsIDs: a list whose items are of the id's type, not objects, as
// Pinecone's list of its collections' names, lists ids; a list of items,
// or of values of another type than the id's, does not.
func TestListsIDs(t *testing.T) {
	for _, tt := range []struct {
		name, items, id string
		want            bool
	}{
		{"names of string ids", `{type: string}`, `{type: string}`, true},
		{"numbers of integer ids", `{type: integer}`, `{type: integer}`, true},
		{"the items", `{$ref: '#/components/schemas/Collection'}`, `{type: string}`, false},
		{"numbers of string ids", `{type: integer}`, `{type: string}`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := `openapi: 3.0.3
info: {title: Lists, version: 1.0.0}
paths:
  /collections:
    get:
      operationId: listCollections
      responses:
        '200': {description: The collections., content: {application/json: {schema: {type: array, items: ` + tt.items + `}}}}
    post:
      operationId: createCollection
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Collection'}}}}
      responses:
        '201': {description: Created.}
  /collections/{name}:
    get:
      operationId: getCollection
      parameters: [{name: name, in: path, required: true, schema: ` + tt.id + `}]
      responses:
        '200': {description: A collection., content: {application/json: {schema: {$ref: '#/components/schemas/Collection'}}}}
components:
  schemas:
    Collection:
      type: object
      required: [name]
      properties:
        name: ` + tt.id + `
        size: {type: integer}
`
			c, err := spec.Read([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			r := c.Resource("collections")
			if r == nil {
				t.Fatal("no resource collections")
			}
			if got := r.ListsIDs(c, r.List); got != tt.want {
				t.Errorf("ListsIDs = %v, want %v (id property %s)", got, tt.want, r.IDProperty)
			}
		})
	}
}
