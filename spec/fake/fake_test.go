package fake_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// schema parses one schema written as JSON.
func schema(tb testing.TB, src string) *openapi3.Schema {
	tb.Helper()
	var s openapi3.Schema
	if err := json.Unmarshal([]byte(src), &s); err != nil {
		tb.Fatalf("%s: %v", src, err)
	}
	return &s
}

// TestValuesMatchTheirSchemas makes many values of schemas of every kind
// the generator follows, and checks each against its schema.
func TestValuesMatchTheirSchemas(t *testing.T) {
	schemas := []string{
		`{"type":"string"}`,
		`{"type":"string","minLength":5,"maxLength":7}`,
		`{"type":"string","maxLength":1}`,
		`{"type":"string","format":"date-time"}`,
		`{"type":"string","format":"date"}`,
		`{"type":"string","format":"email"}`,
		`{"type":"string","format":"uuid"}`,
		`{"type":"string","format":"uri"}`,
		`{"type":"string","format":"ipv4"}`,
		`{"type":"string","format":"byte"}`,
		`{"type":"string","pattern":"^[A-Z]{3}-[0-9]{4}$"}`,
		// A pattern that repeats without bound, and a minLength above
		// what its draws reach, as AWS IoT's payloadVersion.
		`{"type":"string","pattern":"^[0-9-]+$","minLength":10,"maxLength":32}`,
		`{"type":"string","pattern":"^v[0-9]+\\.[0-9]*$","minLength":14}`,
		`{"type":"string","pattern":"^(ab)+$","minLength":21}`,
		// One whose draws run past its maxLength, as AWS Clean Rooms'
		// identifiers.
		`{"type":"string","pattern":".*[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}.*","minLength":36,"maxLength":36}`,
		`{"type":"string","enum":["a","b","c"]}`,
		`{"type":"integer"}`,
		`{"type":"integer","format":"int32","minimum":-3,"maximum":3}`,
		`{"type":"integer","minimum":10,"exclusiveMinimum":true,"maximum":12}`,
		`{"type":"integer","multipleOf":5,"minimum":1,"maximum":100}`,
		`{"type":"number","minimum":0.5,"maximum":0.75}`,
		`{"type":"boolean"}`,
		`{"type":"array","items":{"type":"integer"},"minItems":2,"maxItems":4}`,
		`{"type":"object","required":["a"],"properties":{"a":{"type":"string"},"b":{"type":"integer","minimum":0}}}`,
		`{"type":"object","additionalProperties":{"type":"integer","minimum":0}}`,
		`{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string","maxLength":3}}}}`,
		`{"oneOf":[{"type":"string","maxLength":2},{"type":"integer"}]}`,
		`{"type":"string","nullable":true}`,
		`{"type":"string","example":"an example"}`,
		`{"type":"object","minProperties":3}`,
		`{"type":"object","minProperties":2,"properties":{"a":{"type":"string"},"b":{"type":"integer"}}}`,
		`{"type":"object","minProperties":4,"additionalProperties":{"type":"integer","minimum":7}}`,
		`{"type":"object","properties":{"deep":{"type":"object","minProperties":2}}}`,
	}
	for _, src := range schemas {
		s := schema(t, src)
		for seed := range uint64(30) {
			g := &fake.Generator{Faker: fake.NewFaker(seed)}
			v, err := g.Valid(s, fake.Hint{})
			if err != nil {
				t.Errorf("%s, seed %d: %v", src, seed, err)
				break
			}
			if err := s.VisitJSON(v); err != nil {
				t.Errorf("%s, seed %d: %v does not match: %v", src, seed, v, err)
				break
			}
		}
	}
}

// TestValuesRepeat: the same seed makes the same values, and a plan
// makes what Value makes.
func TestValuesRepeat(t *testing.T) {
	s := schema(t, `{"type":"object","properties":{"name":{"type":"string"},"n":{"type":"integer"},"at":{"type":"string","format":"date-time"},"tags":{"type":"array","items":{"type":"string"}}}}`)
	make := func(seed uint64, plan bool) []any {
		g := &fake.Generator{Faker: fake.NewFaker(seed)}
		var out []any
		p := g.Plan(s, fake.Hint{Resource: "pets"})
		for range 10 {
			if plan {
				out = append(out, p())
			} else {
				out = append(out, g.Value(s, fake.Hint{Resource: "pets"}))
			}
		}
		return out
	}
	a, b := make(3, false), make(3, false)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("seed 3 made two different runs:\n%v\n%v", a, b)
	}
	if c := make(3, true); !reflect.DeepEqual(a, c) {
		t.Errorf("a plan made other values than Value:\n%v\n%v", a, c)
	}
	if d := make(4, false); reflect.DeepEqual(a, d) {
		t.Errorf("seeds 3 and 4 made the same values")
	}
	if e := make(0, false); !reflect.DeepEqual(e, make(0, false)) {
		t.Errorf("seed 0 does not repeat")
	}
}

// TestNamesSayWhatValuesHold: the name of a property says what its value
// is, where gofakeit has such values.
func TestNamesSayWhatValuesHold(t *testing.T) {
	str := schema(t, `{"type":"string"}`)
	integer := schema(t, `{"type":"integer","format":"int64"}`)
	g := &fake.Generator{Faker: fake.NewFaker(1)}
	for _, tt := range []struct {
		hint  fake.Hint
		s     *openapi3.Schema
		check func(v any) bool
	}{
		{fake.Hint{Property: "email"}, str, func(v any) bool { return strings.Contains(v.(string), "@") }},
		{fake.Hint{Property: "website"}, str, func(v any) bool { return strings.HasPrefix(v.(string), "http") }},
		{fake.Hint{Property: "name", Resource: "pets"}, str, func(v any) bool { return v.(string) != "" && strings.ToUpper(v.(string)[:1]) == v.(string)[:1] }},
		{fake.Hint{Property: "categoryId"}, integer, func(v any) bool { n, _ := v.(json.Number).Int64(); return n >= 1 && n <= 5 }},
		// A format says what the value is, whatever the name: Autotask's
		// bulkEmailOptOutTime is a date-time, not an email.
		{fake.Hint{Property: "bulkEmailOptOutTime"}, schema(t, `{"type":"string","format":"date-time"}`), func(v any) bool { _, err := time.Parse(time.RFC3339, v.(string)); return err == nil }},
		{fake.Hint{Property: "title"}, schema(t, `{"type":"string","format":"date"}`), func(v any) bool { _, err := time.Parse(time.DateOnly, v.(string)); return err == nil }},
		{fake.Hint{Property: "updatedAt"}, schema(t, `{"type":"string","format":"date-time"}`), func(v any) bool { _, err := time.Parse(time.RFC3339, v.(string)); return err == nil }},
	} {
		for range 20 {
			if v := g.Value(tt.s, tt.hint); !tt.check(v) {
				t.Errorf("%+v: %v does not look right", tt.hint, v)
				break
			}
		}
	}
	// A reference points at an item the resource it names holds.
	asked := ""
	refs := &fake.Generator{Faker: fake.NewFaker(1), Refs: func(name string) (func(f *gofakeit.Faker) any, bool) {
		asked += name + " "
		if name != "pets" {
			return nil, false
		}
		return func(f *gofakeit.Faker) any { return json.Number("77") }, true
	}}
	for range 3 {
		if v := refs.Value(integer, fake.Hint{Property: "petId"}); v != json.Number("77") {
			t.Errorf("petId = %v, want the id of a pet, 77", v)
		}
	}
	if asked != "pets " {
		t.Errorf("Refs asked for %q, want pets once", asked)
	}
	// A reference of an integer to a resource of string ids, as
	// onsched's serviceGroupId of groups of ids "1", "2", is an integer;
	// one of no digits is none, and made as any integer.
	groups := &fake.Generator{Faker: fake.NewFaker(1), Refs: func(name string) (func(f *gofakeit.Faker) any, bool) {
		switch name {
		case "groups":
			return func(f *gofakeit.Faker) any { return "12" }, true
		case "tags":
			return func(f *gofakeit.Faker) any { return "urgent" }, true
		}
		return nil, false
	}}
	if v := groups.Value(integer, fake.Hint{Property: "groupId"}); v != json.Number("12") {
		t.Errorf("groupId = %#v, want the integer 12", v)
	}
	if v, ok := groups.Value(integer, fake.Hint{Property: "tagId"}).(json.Number); !ok {
		t.Errorf("tagId = %#v, want an integer", v)
	}
}

// TestMixWeighsAnEnumeration: x-petmock-mix weighs the values of an
// enumeration as the Petstore's document weighs its statuses.
func TestMixWeighsAnEnumeration(t *testing.T) {
	c, err := spec.Default()
	if err != nil {
		t.Fatal(err)
	}
	status, _ := c.Resources[0].Property("status")
	if mix := fake.Mix(status.Schema); fmt.Sprint(mix) != "[60 25 15]" {
		t.Fatalf("Mix(PetStatus) = %v, want [60 25 15]", mix)
	}
	g := &fake.Generator{Contract: c, Faker: fake.NewFaker(9)}
	counts := map[any]int{}
	for range 2000 {
		counts[g.Value(status.Schema, fake.Hint{Property: "status"})]++
	}
	if counts["available"] < 1000 || counts["sold"] > 450 {
		t.Errorf("2000 statuses: %v, want about 1200 available, 500 pending and 300 sold", counts)
	}
}
