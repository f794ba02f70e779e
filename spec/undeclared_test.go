package spec_test

import (
	"testing"

	"github.com/petstore/contract/spec"
)

// TestRequiredButUndeclared: a name an object schema requires and
// declares nowhere, as Turbine Labs' listener requires a host its
// properties do not name, is a required property all the same, of the
// additionalProperties schema or of any value; where the object takes no
// other member, no value is valid and it is not made up.
func TestRequiredButUndeclared(t *testing.T) {
	c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Undeclared, version: 1.0.0}
paths: {}
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
            key: {type: string}
    Counted:
      type: object
      required: [total]
      additionalProperties: {type: integer}
    Closed:
      type: object
      required: [ghost]
      additionalProperties: false
      properties:
        name: {type: string}
`))
	if err != nil {
		t.Fatal(err)
	}
	schemas := c.Doc.Components.Schemas
	for _, tc := range []struct {
		schema, name, typ string
		present           bool
	}{
		{"Listener", "host", "", true},
		{"Listener", "name", "string", true},
		{"Counted", "total", "integer", true},
		{"Closed", "ghost", "", false},
	} {
		props := c.Properties(schemas[tc.schema].Value)
		var found *spec.Property
		for i := range props {
			if props[i].Name == tc.name {
				found = &props[i]
			}
		}
		switch {
		case !tc.present && found != nil:
			t.Errorf("%s: %s is a property, though the schema takes no member it does not declare", tc.schema, tc.name)
		case !tc.present:
		case found == nil:
			t.Errorf("%s: %s is no property of %v", tc.schema, tc.name, propertyNames(props))
		case !found.Required:
			t.Errorf("%s: %s is not required", tc.schema, tc.name)
		case spec.TypeOf(found.Schema) != tc.typ:
			t.Errorf("%s: %s is of type %q, want %q", tc.schema, tc.name, spec.TypeOf(found.Schema), tc.typ)
		}
	}
	// The declared ones keep their places, before the undeclared.
	if got := propertyNames(c.Properties(schemas["Listener"].Value)); len(got) != 3 || got[0] != "name" || got[1] != "key" || got[2] != "host" {
		t.Errorf("Listener's properties = %v, want [name key host]", got)
	}
}
