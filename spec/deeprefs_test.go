package spec_test

import (
	"testing"

	"github.com/petstore/contract/spec"
)

// deepRefs is a document whose $refs point into schemas, as codat's do:
// into the definitions of a component, into a property of an allOf's
// member, and into the properties written beside a $ref, which
// kin-openapi does not keep.
const deepRefs = `openapi: 3.1.0
info: {title: Deep, version: 1.0.0}
paths:
  /brandings:
    get:
      operationId: getBranding
      responses:
        '200':
          description: A branding.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Branding'
                properties: {logo: {properties: {full: {type: string, format: uri}}}}
  /problems:
    get:
      operationId: getProblem
      responses:
        '200':
          description: The problem of a response, by a pointer into it.
          content:
            application/json:
              schema: {$ref: '#/components/responses/Problem/content/application~1json/schema'}
  /items:
    get:
      operationId: getItem
      responses:
        '200':
          description: An item.
          content:
            application/json:
              schema:
                type: object
                properties:
                  kind: {$ref: '#/components/schemas/Item/definitions/itemType'}
                  ship: {$ref: '#/components/schemas/Order/allOf/0/properties/shipTo'}
                  full: {$ref: '#/paths/~1brandings/get/responses/200/content/application~1json/schema/properties/logo/properties/full'}
                  again: {$ref: '#/paths/~1brandings/get/responses/200/content/application~1json/schema/properties/logo/properties/full'}
                  problem: {$ref: '#/components/responses/Problem/content/application~1json/schema'}
                  link:
                    type: object
                    example: {$ref: '#/paths/~1brandings/get/responses/200/content/application~1json/schema/properties/logo/properties/full'}
components:
  responses:
    Problem:
      description: A problem.
      content:
        application/json:
          schema: {type: object, required: [code], properties: {code: {type: integer}}}
  schemas:
    Item:
      type: object
      definitions:
        itemType: {type: string, enum: [service, stock]}
    Order:
      allOf:
        - type: object
          properties:
            shipTo: {type: object, required: [city], properties: {city: {type: string}}}
    Branding:
      type: object
      properties:
        logo: {type: object}
`

// TestDeepSchemaRefs: a document whose $refs point into schemas is read,
// each such $ref naming the schema it points at.
func TestDeepSchemaRefs(t *testing.T) {
	c, err := spec.Read([]byte(deepRefs))
	if err != nil {
		t.Fatalf("the document was refused: %v", err)
	}
	s := c.Operation("getItem").JSONSchema(200)
	for name, want := range map[string]string{"kind": "string", "ship": "object", "full": "string", "again": "string", "problem": "object"} {
		p := s.Properties[name]
		if p == nil || p.Value == nil || spec.TypeOf(p.Value) != want {
			t.Errorf("%s: %+v, want a schema of type %s", name, p, want)
		}
	}
	if e := s.Properties["kind"].Value.Enum; len(e) != 2 {
		t.Errorf("kind: enum %v, want the two of itemType", e)
	}
	if p := s.Properties["problem"].Value; len(p.Required) != 1 {
		t.Errorf("problem: %+v, want the schema of the response Problem, which requires code", p)
	}
	if p := c.Operation("getProblem").JSONSchema(200); len(p.Required) != 1 {
		t.Errorf("getProblem answers %+v, want the schema of the response Problem, which requires code", p)
	}
	example, _ := s.Properties["link"].Value.Example.(map[string]any)
	if ref := example["$ref"]; ref != "#/paths/~1brandings/get/responses/200/content/application~1json/schema/properties/logo/properties/full" {
		t.Errorf("link's example holds $ref %v, want the pointer as written: an example is a value, not a schema", ref)
	}
	if s.Properties["full"].Value != s.Properties["again"].Value {
		t.Errorf("full and again are two schemas, want the one they point at")
	}
}
