package fake_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// TestGenerationIsBounded: a value made for a schema that asks for more
// than the generator makes stays within its bounds, and is made at once:
// a string of a billion characters, a hundred million items, arrays of
// arrays that would multiply their items, an array made of itself.
func TestGenerationIsBounded(t *testing.T) {
	tests := []struct {
		name, schema string
		check        func(v any) error
	}{
		{"minLength", `{"type":"string","minLength":1000000000}`, func(v any) error {
			if n := utf8.RuneCountInString(v.(string)); n != fake.MaxStringLength {
				return fmt.Errorf("%d characters, want %d", n, fake.MaxStringLength)
			}
			return nil
		}},
		{"minItems", `{"type":"array","minItems":100000000,"items":{"type":"integer"}}`, func(v any) error {
			if n := len(v.([]any)); n != fake.MaxArrayItems {
				return fmt.Errorf("%d items, want %d", n, fake.MaxArrayItems)
			}
			return nil
		}},
		{"minProperties", `{"type":"object","minProperties":100000000}`, func(v any) error {
			if n := len(v.(map[string]any)); n != fake.MaxObjectProperties {
				return fmt.Errorf("%d properties, want %d", n, fake.MaxObjectProperties)
			}
			return nil
		}},
		{"nested arrays", `{"type":"array","minItems":100,"items":{"type":"array","minItems":100,"items":{"type":"array","minItems":100,"items":{"type":"string","minLength":4000}}}}`, nil},
		{"an array of itself", `{"type":"array","minItems":1,"items":{"$ref":"#/components/schemas/Node"}}`, nil},
		{"an object of itself", `{"type":"object","required":["a","b","c","d","e","f"],"properties":{"a":{"$ref":"#/components/schemas/Node"},"b":{"$ref":"#/components/schemas/Node"},"c":{"$ref":"#/components/schemas/Node"},"d":{"$ref":"#/components/schemas/Node"},"e":{"$ref":"#/components/schemas/Node"},"f":{"$ref":"#/components/schemas/Node"}}}`, nil},
	}
	for _, tt := range tests {
		s := nodeSchema(t, tt.schema)
		g := &fake.Generator{Faker: fake.NewFaker(1)}
		for _, v := range []any{g.Value(s, fake.Hint{}), g.Plan(s, fake.Hint{Property: "name"})(), g.Request(s, "")} {
			text, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if len(text) > fake.MaxValueBytes+fake.MaxStringLength+64 {
				t.Errorf("%s: a value of %d bytes, want at most about %d", tt.name, len(text), fake.MaxValueBytes)
			}
			if tt.check != nil {
				if err := tt.check(v); err != nil {
					t.Errorf("%s: %v", tt.name, err)
				}
			}
		}
		if fake.Exact(s) {
			t.Errorf("%s: Exact says every value made matches", tt.name)
		}
		if _, err := g.Valid(s, fake.Hint{}); err == nil {
			t.Errorf("%s: Valid found a value that matches", tt.name)
		}
	}
}

// TestCapsAreNotedOncePerSchema: Caps says where a schema asks for more
// than the generator makes, once for each schema, at its definition when
// a $ref names it.
func TestCapsAreNotedOncePerSchema(t *testing.T) {
	doc := `openapi: 3.0.3
info: {title: x, version: '1'}
paths:
  /a:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Long'}}}}
  /b:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, properties: {long: {$ref: '#/components/schemas/Long'}, many: {type: array, minItems: 1000, items: {type: integer}}}}}}}
components:
  schemas:
    Long: {type: string, minLength: 1000000}
`
	c, err := spec.Read([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	var caps fake.Caps
	for _, op := range c.Operations {
		caps.Add(op.Where+".responses.200", op.Op.Responses.Value("200").Value.Content["application/json"].Schema)
	}
	want := []string{
		"components.schemas.Long: minLength 1000000: generated values are capped at 4096 characters; validation keeps the document's value",
		"paths./b.get.responses.200.properties.many: minItems 1000: generated values are capped at 100 items; validation keeps the document's value",
	}
	if got := strings.Join(caps.Notes, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

// TestExactIsLinear: Exact goes through a schema whose properties refer
// to it once for each place, not once for each path to it, which grows
// with the number of properties to the power of the depth; and through
// an enumeration once for each value.
func TestExactIsLinear(t *testing.T) {
	props := map[string]any{}
	var required []string
	for i := range 12 {
		name := fmt.Sprintf("p%d", i)
		props[name] = map[string]any{"$ref": "#/components/schemas/Node"}
		required = append(required, name)
	}
	node, _ := json.Marshal(map[string]any{"type": "object", "required": required, "properties": props})
	s := nodeSchema(t, string(node))
	if fake.Exact(s) {
		t.Errorf("a schema made of itself is exact")
	}
	enum := make([]any, 20000)
	for i := range enum {
		enum[i] = fmt.Sprintf("v%d", i)
	}
	long := &openapi3.Schema{Type: &openapi3.Types{"string"}, Enum: enum}
	if !fake.Exact(long) {
		t.Errorf("an enumeration of 20,000 strings is not exact")
	}
}

// nodeSchema reads src as the schema Node of a document, so that it may
// refer to itself.
func nodeSchema(tb testing.TB, src string) *openapi3.Schema {
	tb.Helper()
	doc := `{"openapi":"3.0.3","info":{"title":"x","version":"1"},"paths":{},"components":{"schemas":{"Node":` + src + `}}}`
	c, err := spec.Read([]byte(doc))
	if err != nil {
		tb.Fatal(err)
	}
	return c.Doc.Components.Schemas["Node"].Value
}
