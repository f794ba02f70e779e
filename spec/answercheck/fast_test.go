package answercheck

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// fastCase is a body of an answer of an operation, for the fast check.
type fastCase struct {
	op     string
	status int
}

// agree holds the fast check to openapi3filter on one body: where the
// fast check says it surely matches, openapi3filter must find nothing
// wrong with it. It reports whether the fast check decided.
func agree(t *testing.T, k *Checker, c fastCase, body []byte) bool {
	t.Helper()
	op := k.contract.Operation(c.op)
	rs := k.byID[c.op]
	a := Answer{Status: c.status, Header: http.Header{"Content-Type": {"application/json"}}, Body: body}
	if !json.Valid(body) || !k.surelyValid(rs.body.Operation, a) {
		return false
	}
	req := httptest.NewRequest(op.Method, "http://petstore.example"+k.contract.Base+strings.ReplaceAll(op.Path, "{petId}", "7"), nil)
	if err := validateResponse(rs.body, map[string]string{"petId": "7"}, req, a, false); err != nil {
		t.Fatalf("%s %d %s: the fast check says it matches, openapi3filter says %v", c.op, c.status, body, err)
	}
	return true
}

// fastSeeds are bodies of the Petstore's answers, valid and not, in the
// spellings a backend may send.
var fastSeeds = []string{
	`[]`, ` [ ] `, `[{"id":1,"name":"Rex","categoryId":1}]`, `[{"id":1,"name":"Rex","categoryId":1,"status":"sold"}]`,
	`[{"id":1.0,"name":"Rex","categoryId":1e2}]`, `[{"id":-9223372036854775808,"name":"","categoryId":9223372036854775807}]`,
	`[{"id":9223372036854775808,"name":"Rex","categoryId":1}]`, `[{"id":1.5,"name":"Rex","categoryId":1}]`,
	`[{"id":1,"name":"Rex"}]`, `[{"name":"Rex","categoryId":1}]`, `[{"id":1,"name":null,"categoryId":1}]`,
	`[{"id":1,"name":"Rex","categoryId":1,"status":null}]`, `[{"id":1,"name":"Rex","categoryId":1,"status":"lost"}]`,
	`[{"id":1,"name":"Rex","categoryId":1,"status":"s\u006fld"}]`, `[{"id":1,"name":"R\"ex","categoryId":1}]`,
	`[{"id":1,"n\u0061me":"Rex","categoryId":1}]`, `[{"id":1,"name":"Rex","categoryId":1,"extra":{"a":[1,{"b":"}"}]},"more":[]}]`,
	`[{"id":1,"name":"Rex","categoryId":1,"id":"one"}]`, `[{"id":"1","name":"Rex","categoryId":1}]`, `[{"id":01,"name":"Rex","categoryId":1}]`,
	`{"id":1,"name":"Rex","categoryId":1}`, `[[]]`, `[null]`, `null`, `"x"`, `1`, `[{"id":1,"name":["Rex"],"categoryId":1}]`,
	`[{"id":1,"name":"Rex","categoryId":true}]`, `[{"id":1,"name":"Rex","categoryId":-0}]`, `[{"id":1,"name":"Rex","categoryId":1E+2}]`,
	`{"code":"not_found","message":"no pet","status":404}`, `{"code":"x","message":"y"}`, `{"code":1,"message":"y","status":404}`,
}

// fastCases are the answers the seeds are tried as.
var fastCases = []fastCase{{spec.ListPets, 200}, {spec.GetPet, 200}, {spec.GetPet, 404}, {spec.CreatePet, 201}}

// TestFastAgrees: on the Petstore's answers, valid or broken in one way,
// and on values made from each schema, the fast check never finds valid
// what openapi3filter does not; and it decides the common case.
func TestFastAgrees(t *testing.T) {
	c, err := spec.Default()
	if err != nil {
		t.Fatal(err)
	}
	k, err := New(c, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, fc := range fastCases {
		if rs := k.byID[fc.op]; response(rs.body.Operation, fc.status) == nil {
			t.Fatalf("%s documents no %d", fc.op, fc.status)
		}
	}
	decided := 0
	for _, fc := range fastCases {
		for _, b := range fastSeeds {
			if agree(t, k, fc, []byte(b)) {
				decided++
			}
		}
	}
	g := &fake.Generator{Contract: c, Faker: fake.NewFaker(7)}
	made := 0
	for _, fc := range fastCases {
		schema := c.Operation(fc.op).JSONSchema(fc.status)
		for range 50 {
			v, err := g.Valid(schema, fake.Hint{})
			if err != nil {
				t.Fatal(err)
			}
			body, _ := json.Marshal(v)
			if !agree(t, k, fc, body) {
				t.Errorf("%s %d: the fast check leaves %s, made to match, to openapi3filter", fc.op, fc.status, body)
			}
			made++
		}
	}
	if decided < 10 {
		t.Errorf("the fast check decided %d of the seeds", decided)
	}
	if k.fast[c.Operation(spec.ListPets).JSONSchema(200)] == nil || k.fast[c.Operation(spec.GetPet).JSONSchema(200)] == nil {
		t.Error("Pets and Pet should have fast checks")
	}
}

func FuzzFast(f *testing.F) {
	for _, b := range fastSeeds {
		f.Add(b, 0)
	}
	c, err := spec.Default()
	if err != nil {
		f.Fatal(err)
	}
	k, err := New(c, false)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body string, which int) {
		agree(t, k, fastCases[uint(which)%uint(len(fastCases))], []byte(body))
	})
}

// TestCompileFastRefuses: a schema with a feature the fast check does not
// know is left to openapi3filter.
func TestCompileFastRefuses(t *testing.T) {
	num := func(f float64) *float64 { return &f }
	object := &openapi3.Types{"object"}
	str := &openapi3.Types{"string"}
	flat := &openapi3.Schema{Type: object, Properties: openapi3.Schemas{"x": openapi3.NewSchemaRef("", &openapi3.Schema{Type: str})}}
	for name, s := range map[string]*openapi3.Schema{
		"additionalProperties false":    {Type: object, AdditionalProperties: openapi3.AdditionalProperties{Has: new(bool)}},
		"a pattern":                     {Type: object, Properties: openapi3.Schemas{"x": openapi3.NewSchemaRef("", &openapi3.Schema{Type: str, Pattern: "^a$"})}},
		"a write-only member":           {Type: object, Properties: openapi3.Schemas{"x": openapi3.NewSchemaRef("", &openapi3.Schema{Type: str, WriteOnly: true})}},
		"nullable":                      {Type: object, Nullable: true},
		"oneOf":                         {OneOf: openapi3.SchemaRefs{openapi3.NewSchemaRef("", flat)}},
		"allOf with members of its own": {AllOf: openapi3.SchemaRefs{openapi3.NewSchemaRef("", flat)}, Required: []string{"y"}},
		"allOf of an array":             {AllOf: openapi3.SchemaRefs{openapi3.NewSchemaRef("", &openapi3.Schema{Type: &openapi3.Types{"array"}, Items: openapi3.NewSchemaRef("", flat)})}},
		"an array of at least one":      {Type: &openapi3.Types{"array"}, MinItems: 1, Items: openapi3.NewSchemaRef("", flat)},
		"an array of unique items":      {Type: &openapi3.Types{"array"}, UniqueItems: true, Items: openapi3.NewSchemaRef("", flat)},
		"an array of strings":           {Type: &openapi3.Types{"array"}, Items: openapi3.NewSchemaRef("", &openapi3.Schema{Type: str})},
		"a number":                      {Type: object, Properties: openapi3.Schemas{"x": openapi3.NewSchemaRef("", &openapi3.Schema{Type: &openapi3.Types{"number"}, Min: num(1)})}},
	} {
		if compileFast(s, 0) != nil {
			t.Errorf("%s: compiled, but the fast check does not know it", name)
		}
	}
	if compileFast(flat, 0) == nil {
		t.Error("an object of one string did not compile")
	}
}
