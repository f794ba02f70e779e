package fake_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// TestExact: Exact says yes to the schemas whose every made value
// matches, and those values do, whatever the seed and the property's
// name; it says no to the schemas the generator may miss.
func TestExact(t *testing.T) {
	tests := []struct {
		schema   string
		property string
		want     bool
	}{
		{`{"type":"string"}`, "name", true},
		{`{"type":"string","minLength":5,"maxLength":7}`, "", true},
		{`{"type":"string","format":"date-time"}`, "createdAt", true},
		{`{"type":"string","format":"email"}`, "email", true},
		{`{"type":"string","format":"uuid"}`, "", true},
		{`{"type":"string","enum":["a","b"]}`, "status", true},
		{`{"type":"string","enum":["b"],"pattern":"^b$"}`, "", true},
		{`{"type":"string","enum":["a","b"],"pattern":"^b$"}`, "", false},
		{`{"type":"integer","enum":[1,20],"maximum":10}`, "", false},
		{`{"type":"integer","format":"int32","minimum":-3,"maximum":3}`, "", true},
		{`{"type":"integer","format":"int64"}`, "categoryId", true},
		{`{"type":"number","minimum":0.5,"maximum":0.75}`, "", true},
		{`{"type":"boolean"}`, "", true},
		{`{"type":"array","items":{"type":"integer","minimum":0},"minItems":1,"maxItems":2}`, "tags", true},
		{`{"type":"object","required":["a"],"properties":{"a":{"type":"string"},"b":{"type":"integer"}}}`, "", true},
		{`{"allOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"properties":{"b":{"type":"boolean"}}}]}`, "", true},
		{`{"type":"object","additionalProperties":{"type":"integer","minimum":0}}`, "", true},

		{`{"type":"string","pattern":"^[a-z]+$"}`, "", false},
		{`{"type":"string","format":"ulid"}`, "", false},
		{`{"type":"integer","multipleOf":7}`, "", false},
		{`{"type":"string","example":"x"}`, "", false},
		{`{"type":"string","examples":["x"]}`, "", false},
		{`{"oneOf":[{"type":"string"},{"type":"integer"}]}`, "", false},
		{`{"anyOf":[{"type":"string"}]}`, "", false},
		{`{"not":{"type":"string"}}`, "", false},
		{`{"type":"array","items":{"type":"string"},"uniqueItems":true}`, "", false},
		{`{"type":"array"}`, "", false},
		{`{"type":"object","minProperties":1}`, "", false},
		{`{"type":"object","maxProperties":3}`, "", false},
		{`{"type":"integer","allOf":[{"minimum":1}]}`, "", false},
		{`{"allOf":[{"type":"string","maxLength":1}]}`, "", false},
		{`{"type":"object","properties":{"a":{"type":"string","pattern":"^a$"}}}`, "", false},
		{`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"integer","multipleOf":2}}}}}`, "", false},
		{`{"type":"object","additionalProperties":{"type":"string","pattern":"^a$"}}`, "", false},
		{`{}`, "", false},
	}
	for _, tt := range tests {
		s := schema(t, tt.schema)
		if got := fake.Exact(s); got != tt.want {
			t.Errorf("Exact(%s) = %v, want %v", tt.schema, got, tt.want)
			continue
		}
		if !tt.want {
			continue
		}
		for seed := range uint64(100) {
			g := &fake.Generator{Faker: fake.NewFaker(seed)}
			v := g.Plan(s, fake.Hint{Property: tt.property, Resource: "pets"})()
			if err := s.VisitJSON(v); err != nil {
				t.Errorf("Exact(%s) is true, but seed %d made %v: %v", tt.schema, seed, v, err)
				break
			}
		}
	}
	if fake.Exact(nil) {
		t.Error("Exact(nil) = true, want false")
	}
}

// TestExactOnThePetstore: every property of a pet is exact but for none:
// the catalogue of the Petstore is made without checking a value.
func TestExactOnThePetstore(t *testing.T) {
	c, err := spec.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range c.Resource("pets").Properties {
		if !fake.Exact(p.Schema) {
			t.Errorf("pets.%s: not exact", p.Name)
		}
	}
}

// ExampleExact: a catalogue need not check the values made for an exact
// schema; those of a pattern may miss it, and are checked.
func ExampleExact() {
	for _, src := range []string{`{"type":"string","maxLength":8}`, `{"type":"string","pattern":"^[A-Z]{3}$"}`} {
		var s openapi3.Schema
		if err := json.Unmarshal([]byte(src), &s); err != nil {
			panic(err)
		}
		fmt.Println(src, fake.Exact(&s))
	}
	// Output:
	// {"type":"string","maxLength":8} true
	// {"type":"string","pattern":"^[A-Z]{3}$"} false
}
