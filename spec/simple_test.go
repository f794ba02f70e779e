package spec_test

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

func schemaOf(tb testing.TB, src string) *openapi3.Schema {
	tb.Helper()
	var s openapi3.Schema
	if err := json.Unmarshal([]byte(src), &s); err != nil {
		tb.Fatalf("%s: %v", src, err)
	}
	return &s
}

// TestSimpleOf: the schemas a check by hand can follow, and what it
// needs of them; every other is not simple.
func TestSimpleOf(t *testing.T) {
	any64 := spec.Simple{Integer: true, Bits: 64, Min: math.MinInt64, Max: math.MaxInt64, MaxLength: -1}
	tests := []struct {
		schema string
		want   *spec.Simple // nil: not simple
	}{
		{`{"type":"integer"}`, &any64},
		{`{"type":"integer","format":"int64"}`, &any64},
		{`{"type":"integer","format":"int32"}`, &spec.Simple{Integer: true, Bits: 32, Min: math.MinInt32, Max: math.MaxInt32, MaxLength: -1}},
		{`{"type":"integer","minimum":1,"maximum":100}`, &spec.Simple{Integer: true, Bits: 64, Min: 1, Max: 100, MaxLength: -1}},
		{`{"type":"integer","format":"int32","minimum":-1e12}`, &spec.Simple{Integer: true, Bits: 32, Min: math.MinInt32, Max: math.MaxInt32, MaxLength: -1}},
		{`{"type":"string"}`, &spec.Simple{MaxLength: -1}},
		{`{"type":"string","enum":["available","pending","sold"]}`, &spec.Simple{Enum: []string{"available", "pending", "sold"}, MaxLength: -1}},
		{`{"type":"string","maxLength":8}`, &spec.Simple{MaxLength: 8}},

		{`{"type":"integer","minimum":1.5}`, nil},
		{`{"type":"integer","maximum":2.5}`, nil},
		{`{"type":"integer","enum":[1,2]}`, nil},
		{`{"type":"integer","format":"int16"}`, nil},
		{`{"type":"integer","multipleOf":2}`, nil},
		{`{"type":"integer","minimum":1,"exclusiveMinimum":true}`, nil},
		{`{"type":"integer","maximum":1,"exclusiveMaximum":true}`, nil},
		{`{"type":"string","pattern":"^a$"}`, nil},
		{`{"type":"string","minLength":1}`, nil},
		{`{"type":"string","format":"date"}`, nil},
		{`{"type":"string","enum":["a",1]}`, nil},
		{`{"type":"string","nullable":true}`, nil},
		{`{"type":"number"}`, nil},
		{`{"type":"boolean"}`, nil},
		{`{"type":"array","items":{"type":"string"}}`, nil},
		{`{"allOf":[{"type":"string"}]}`, nil},
		{`{"type":"string","not":{"enum":["a"]}}`, nil},
		{`{}`, nil},
	}
	for _, tt := range tests {
		got, ok := spec.SimpleOf(schemaOf(t, tt.schema))
		if ok != (tt.want != nil) || (ok && !reflect.DeepEqual(got, *tt.want)) {
			t.Errorf("SimpleOf(%s) = %+v, %v; want %+v", tt.schema, got, ok, tt.want)
		}
	}
	if _, ok := spec.SimpleOf(nil); ok {
		t.Error("SimpleOf(nil) is simple")
	}
}

// TestSimpleParam: a query or path parameter of the default style whose
// schema is simple; every other parameter is not.
func TestSimpleParam(t *testing.T) {
	str := &openapi3.SchemaRef{Value: schemaOf(t, `{"type":"string"}`)}
	explode := true
	tests := []struct {
		name  string
		param *openapi3.Parameter
		want  bool
	}{
		{"query", &openapi3.Parameter{Name: "q", In: "query", Schema: str}, true},
		{"path", &openapi3.Parameter{Name: "p", In: "path", Required: true, Schema: str}, true},
		{"header", &openapi3.Parameter{Name: "h", In: "header", Schema: str}, false},
		{"cookie", &openapi3.Parameter{Name: "c", In: "cookie", Schema: str}, false},
		{"style", &openapi3.Parameter{Name: "q", In: "query", Style: "form", Schema: str}, false},
		{"explode", &openapi3.Parameter{Name: "q", In: "query", Explode: &explode, Schema: str}, false},
		{"allowEmptyValue", &openapi3.Parameter{Name: "q", In: "query", AllowEmptyValue: true, Schema: str}, false},
		{"content", &openapi3.Parameter{Name: "q", In: "query", Content: openapi3.NewContentWithJSONSchema(str.Value)}, false},
		{"no schema", &openapi3.Parameter{Name: "q", In: "query"}, false},
		{"schema not simple", &openapi3.Parameter{Name: "q", In: "query", Schema: &openapi3.SchemaRef{Value: schemaOf(t, `{"type":"number"}`)}}, false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		if _, ok := spec.SimpleParam(tt.param); ok != tt.want {
			t.Errorf("%s: SimpleParam = %v, want %v", tt.name, ok, tt.want)
		}
	}
	c := contract(t)
	for _, name := range []string{"limit", "status", "cursor"} {
		if _, ok := spec.SimpleParam(c.Operation(spec.ListPets).Parameter("query", name)); !ok {
			t.Errorf("listPets: %s is not simple", name)
		}
	}
}

// TestFlatObjectOf: an object of simple properties only, and nothing more
// asked of it.
func TestFlatObjectOf(t *testing.T) {
	tests := []struct {
		schema string
		want   bool
	}{
		{`{"type":"object","required":["a"],"properties":{"a":{"type":"string"},"b":{"type":"integer"}}}`, true},
		{`{"type":"object"}`, true},
		{`{"properties":{"a":{"type":"string"}}}`, false},
		{`{"type":"object","properties":{"a":{"type":"number"}}}`, false},
		{`{"type":"object","properties":{"a":{"type":"string","readOnly":true}}}`, false},
		{`{"type":"object","properties":{"a":{"type":"string","writeOnly":true}}}`, false},
		{`{"type":"object","properties":{"a":{"type":"string","default":"x"}}}`, false},
		{`{"type":"object","additionalProperties":false}`, false},
		{`{"type":"object","additionalProperties":{"type":"string"}}`, false},
		{`{"type":"object","minProperties":1}`, false},
		{`{"type":"object","maxProperties":1}`, false},
		{`{"type":"object","nullable":true}`, false},
		{`{"type":"object","allOf":[{"type":"object"}]}`, false},
		{`{"type":"object","enum":[{}]}`, false},
		{`{"type":"object","readOnly":true}`, false},
	}
	for _, tt := range tests {
		if _, ok := spec.FlatObjectOf(schemaOf(t, tt.schema)); ok != tt.want {
			t.Errorf("FlatObjectOf(%s) = %v, want %v", tt.schema, ok, tt.want)
		}
	}
	// NewPet is one: createPet's body is checked by hand.
	o, ok := spec.FlatObjectOf(contract(t).Operation(spec.CreatePet).RequestSchema())
	if !ok || fmt.Sprint(o.Required) != "[name categoryId]" || len(o.Properties) != 3 || !o.Properties["categoryId"].Integer {
		t.Errorf("NewPet: %+v, %v; want a flat object of name, categoryId and status", o, ok)
	}
}

// ExampleSimpleOf describes the limit of listPets, which a check by hand
// can follow.
func ExampleSimpleOf() {
	c, err := spec.Default()
	if err != nil {
		panic(err)
	}
	limit, ok := spec.SimpleParam(c.Operation(spec.ListPets).Parameter("query", "limit"))
	fmt.Println(ok, limit.Integer, limit.Bits, limit.Min, limit.Max)
	status, ok := spec.SimpleParam(c.Operation(spec.ListPets).Parameter("query", "status"))
	fmt.Println(ok, status.Enum, status.MaxLength)
	// Output:
	// true true 32 1 100
	// true [available pending sold] -1
}
