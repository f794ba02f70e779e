package spec_test

import (
	"testing"

	"github.com/petstore/contract/spec"
)

// undeclaredDocument has resources whose items require a name their
// schema declares nowhere.
const undeclaredDocument = `openapi: 3.0.3
info: {title: Undeclared, version: 1.0.0}
paths:
  /listeners:
    post:
      operationId: createListener
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Listener'}}}}
      responses: {'201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Listener'}}}}}
  /listeners/{key}:
    get:
      operationId: getListener
      parameters: [{name: key, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: A listener., content: {application/json: {schema: {$ref: '#/components/schemas/Listener'}}}}}
  /counters:
    post:
      operationId: createCounter
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Counter'}}}}
      responses: {'201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Counter'}}}}}
  /counters/{id}:
    get:
      operationId: getCounter
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses: {'200': {description: A counter., content: {application/json: {schema: {$ref: '#/components/schemas/Counter'}}}}}
components:
  schemas:
    Listener:
      allOf:
        - type: object
          required: [name, host]
          properties:
            name: {type: string}
        - type: object
          required: [key]
          properties:
            key: {type: string, readOnly: true}
    Counter:
      type: object
      required: [total]
      properties:
        id: {type: integer, readOnly: true}
      additionalProperties: {type: integer}
`

// TestRequiredButUndeclared: a name an item's schema requires and
// declares nowhere, as Turbine Labs' listener requires a host its
// properties do not name, is a required property of the resource all the
// same, of the additionalProperties schema or of any value.
// The properties of a schema, as the document declares them, stay those
// it declares.
func TestRequiredButUndeclared(t *testing.T) {
	c, err := spec.Read([]byte(undeclaredDocument))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		resource, name, typ string
	}{
		{"listeners", "host", ""},
		{"listeners", "name", "string"},
		{"counters", "total", "integer"},
	} {
		r := c.Resource(tc.resource)
		if r == nil {
			t.Fatalf("no resource %s: %v", tc.resource, c.Notes)
		}
		var found *spec.Property
		for i := range r.Properties {
			if r.Properties[i].Name == tc.name {
				found = &r.Properties[i]
			}
		}
		switch {
		case found == nil:
			t.Errorf("%s: %s is no property of %v", tc.resource, tc.name, propertyNames(r.Properties))
		case !found.Required:
			t.Errorf("%s: %s is not required", tc.resource, tc.name)
		case spec.TypeOf(found.Schema) != tc.typ:
			t.Errorf("%s: %s is of type %q, want %q", tc.resource, tc.name, spec.TypeOf(found.Schema), tc.typ)
		}
	}
	// The id first, the declared ones in their places, the undeclared after.
	if got := propertyNames(c.Resource("listeners").Properties); len(got) != 3 || got[0] != "key" || got[1] != "name" || got[2] != "host" {
		t.Errorf("listeners' properties = %v, want [key name host]", got)
	}
	if got := propertyNames(c.Properties(c.Doc.Components.Schemas["Listener"].Value)); len(got) != 2 {
		t.Errorf("Listener's declared properties = %v, want [name key]", got)
	}
}
