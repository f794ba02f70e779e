package steer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestFits holds a value of one schema to another: every value of the
// first must be one the second allows, or fits says why not.
func TestFits(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData([]byte(`openapi: 3.0.3
info: {title: T, version: '1'}
paths: {}
components:
  schemas:
    int64: {type: integer, format: int64}
    int32: {type: integer, format: int32}
    int: {type: integer}
    positive: {type: integer, format: int64, minimum: 1}
    small: {type: integer, minimum: 1, maximum: 10}
    tiny: {type: integer, minimum: 2, maximum: 5}
    exclusive: {type: integer, format: int64, minimum: 1, exclusiveMinimum: true}
    number: {type: number}
    even: {type: integer, multipleOf: 2}
    four: {type: integer, multipleOf: 4}
    string: {type: string}
    short: {type: string, maxLength: 5}
    shorter: {type: string, maxLength: 3}
    long: {type: string, minLength: 3}
    uuid: {type: string, format: uuid}
    code: {type: string, pattern: '^[a-z]+$'}
    status: {type: string, enum: [available, pending, sold]}
    some: {type: string, enum: [available, sold]}
    nullable: {type: string, nullable: true}
    boolean: {type: boolean}
    any: {}
    object: {type: object, properties: {a: {type: string}}}
    either: {oneOf: [{type: string}, {type: integer}]}
`))
	if err != nil {
		t.Fatal(err)
	}
	schema := func(name string) *openapi3.Schema {
		if name == "" {
			return nil
		}
		return doc.Components.Schemas[name].Value
	}
	for _, tt := range []struct {
		target, source string
		fits           bool
	}{
		{"int64", "int64", true},
		{"int64", "int32", true},
		{"int32", "int64", false},
		{"int64", "int", false},
		{"int", "int64", true},
		{"number", "int64", true},
		{"int", "number", false},
		{"positive", "int64", false},
		{"int64", "positive", true},
		{"small", "tiny", true},
		{"tiny", "small", false},
		{"positive", "exclusive", true},
		{"exclusive", "positive", false},
		{"even", "four", true},
		{"four", "even", false},
		{"string", "uuid", true},
		{"uuid", "string", false},
		{"uuid", "uuid", true},
		{"short", "shorter", true},
		{"shorter", "short", false},
		{"long", "string", false},
		{"code", "string", false},
		{"code", "code", true},
		{"status", "some", true},
		{"some", "status", false},
		{"status", "string", false},
		{"string", "nullable", false},
		{"nullable", "string", true},
		{"string", "int64", false},
		{"boolean", "boolean", true},
		{"any", "object", true},
		{"string", "", false},
		{"any", "", true},
		{"object", "object", true},
		{"either", "string", false},
	} {
		why := fits(schema(tt.target), schema(tt.source), nil)
		if (why == "") != tt.fits {
			t.Errorf("a value of %q as %q: %q, want fits %v", tt.source, tt.target, why, tt.fits)
		}
	}
	if why := fits(schema("positive"), schema("int64"), nil); why != "it may be below the 1 the answer's schema there takes at least (int64)" {
		t.Errorf("why: %q", why)
	}
	if why := fits(schema("int32"), schema("int64"), nil); !strings.Contains(why, fmt.Sprint(-2147483648)) || !strings.Contains(why, "(int32)") {
		t.Errorf("why, of a format: %q", why)
	}
}
