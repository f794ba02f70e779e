package spec_test

import (
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"

	"github.com/petstore/contract/spec"
)

func load(tb testing.TB) *openapi3.T {
	tb.Helper()
	return contract(tb).Doc
}

func contract(tb testing.TB) *spec.Contract {
	tb.Helper()
	c, err := spec.Default()
	if err != nil {
		tb.Fatalf("spec.Default: %v", err)
	}
	return c
}

func TestDocumentValidates(t *testing.T) {
	doc := load(t)
	if doc.OpenAPI != "3.0.3" {
		t.Errorf("openapi = %q, want 3.0.3", doc.OpenAPI)
	}
	if doc.Info.Version != "1.0.0" {
		t.Errorf("info.version = %q, want 1.0.0", doc.Info.Version)
	}
}

func TestParseRejectsInvalidDocument(t *testing.T) {
	broken := strings.Replace(string(spec.YAML()), "$ref: '#/components/schemas/NewPet'", "$ref: '#/components/schemas/Nope'", 1)
	if _, err := spec.Parse([]byte(broken)); err == nil {
		t.Fatal("Parse accepted a document with a dangling $ref")
	}
}

// TestContractFacts reads every fact the interface states back from the
// loaded document.
func TestContractFacts(t *testing.T) {
	c := contract(t)
	doc := c.Doc
	op := func(id string) *openapi3.Operation {
		t.Helper()
		o := c.Operation(id)
		if o == nil {
			t.Fatalf("operation %s is missing", id)
		}
		return o.Op
	}
	schema := func(name string) *openapi3.Schema {
		t.Helper()
		ref := doc.Components.Schemas[name]
		if ref == nil || ref.Value == nil {
			t.Fatalf("schema %s is missing", name)
		}
		return ref.Value
	}
	param := func(opID, name string) *openapi3.Parameter {
		t.Helper()
		for _, p := range op(opID).Parameters {
			if p.Value.Name == name {
				return p.Value
			}
		}
		t.Fatalf("%s: parameter %s is missing", opID, name)
		return nil
	}
	response := func(opID string, status int) *openapi3.Response {
		t.Helper()
		r := op(opID).Responses.Status(status)
		if r == nil || r.Value == nil {
			t.Fatalf("%s: response %d is missing", opID, status)
		}
		return r.Value
	}
	bodySchema := func(content openapi3.Content) string {
		mt := content.Get("application/json")
		if mt == nil || mt.Schema == nil {
			return ""
		}
		return mt.Schema.Ref
	}
	float := func(f *float64) any {
		if f == nil {
			return nil
		}
		return *f
	}

	tests := []struct {
		fact string
		got  any
		want any
	}{
		{"info.version", doc.Info.Version, "1.0.0"},
		{"server count", len(doc.Servers), 2},
		{"production server", doc.Servers[0].URL, "{base_url}/v1"},
		{"staging server", doc.Servers[1].URL, "{staging_base_url}/v1"},
		{"production server variable has a default", doc.Servers[0].Variables["base_url"] != nil && doc.Servers[0].Variables["base_url"].Default != "", true},
		{"staging server variable has a default", doc.Servers[1].Variables["staging_base_url"] != nil && doc.Servers[1].Variables["staging_base_url"].Default != "", true},
		{"security scheme type", doc.Components.SecuritySchemes["bearerAuth"].Value.Type, "http"},
		{"security scheme", doc.Components.SecuritySchemes["bearerAuth"].Value.Scheme, "bearer"},

		{"listPets path", pathOf(t, c, spec.ListPets), "GET /pets"},
		{"createPet path", pathOf(t, c, spec.CreatePet), "POST /pets"},
		{"getPet path", pathOf(t, c, spec.GetPet), "GET /pets/{petId}"},

		{"limit in", param(spec.ListPets, "limit").In, "query"},
		{"limit required", param(spec.ListPets, "limit").Required, false},
		{"limit type", param(spec.ListPets, "limit").Schema.Value.Type.Is("integer"), true},
		{"limit minimum", float(param(spec.ListPets, "limit").Schema.Value.Min), 1.0},
		{"limit maximum", float(param(spec.ListPets, "limit").Schema.Value.Max), 100.0},
		{"limit default", param(spec.ListPets, "limit").Schema.Value.Default, 20.0},
		{"status in", param(spec.ListPets, "status").In, "query"},
		{"status required", param(spec.ListPets, "status").Required, false},
		{"status schema", param(spec.ListPets, "status").Schema.Ref, "#/components/schemas/PetStatus"},
		{"cursor is marked as a choice", param(spec.ListPets, "cursor").Extensions["x-petmock-choice"] != nil, true},
		{"petId in", param(spec.GetPet, "petId").In, "path"},
		{"petId required", param(spec.GetPet, "petId").Required, true},
		{"petId type", param(spec.GetPet, "petId").Schema.Value.Type.Is("integer"), true},
		{"petId format", param(spec.GetPet, "petId").Schema.Value.Format, "int64"},

		{"listPets 200 body", bodySchema(response(spec.ListPets, 200).Content), "#/components/schemas/Pets"},
		{"listPets 401 body", bodySchema(response(spec.ListPets, 401).Content), "#/components/schemas/Error"},
		{"listPets 400 is marked as a choice", op(spec.ListPets).Responses.Status(400).Value.Extensions["x-petmock-choice"] != nil, true},
		{"listPets declares Link", response(spec.ListPets, 200).Headers["Link"] != nil, true},
		{"createPet body required", op(spec.CreatePet).RequestBody.Value.Required, true},
		{"createPet body", bodySchema(op(spec.CreatePet).RequestBody.Value.Content), "#/components/schemas/NewPet"},
		{"createPet 201 body", bodySchema(response(spec.CreatePet, 201).Content), "#/components/schemas/Pet"},
		{"createPet declares Location", response(spec.CreatePet, 201).Headers["Location"] != nil, true},
		{"createPet 400 body", bodySchema(response(spec.CreatePet, 400).Content), "#/components/schemas/Error"},
		{"createPet 401 body", bodySchema(response(spec.CreatePet, 401).Content), "#/components/schemas/Error"},
		{"getPet 200 body", bodySchema(response(spec.GetPet, 200).Content), "#/components/schemas/Pet"},
		{"getPet 401 body", bodySchema(response(spec.GetPet, 401).Content), "#/components/schemas/Error"},
		{"getPet 404 body", bodySchema(response(spec.GetPet, 404).Content), "#/components/schemas/Error"},
		{"getPet deprecated", op(spec.GetPet).Deprecated, true},
		{"getPet 200 declares Deprecation", response(spec.GetPet, 200).Headers["Deprecation"] != nil, true},
		{"getPet 200 declares Sunset", response(spec.GetPet, 200).Headers["Sunset"] != nil, true},
		{"getPet 200 declares Link", response(spec.GetPet, 200).Headers["Link"] != nil, true},
		{"getPet 404 declares Sunset", response(spec.GetPet, 404).Headers["Sunset"] != nil, true},
		{"getPet 401 declares Deprecation", response(spec.GetPet, 401).Headers["Deprecation"] != nil, true},
		{"Deprecation is an RFC 9745 date", doc.Components.Headers["Deprecation"].Value.Schema.Value.Pattern, "^@-?[0-9]+$"},
		{"401 declares WWW-Authenticate", response(spec.ListPets, 401).Headers["WWW-Authenticate"] != nil, true},
		{"listPets not deprecated", op(spec.ListPets).Deprecated, false},
		{"createPet not deprecated", op(spec.CreatePet).Deprecated, false},

		{"PetStatus enum", schema("PetStatus").Enum, []any{"available", "pending", "sold"}},
		{"NewPet required", schema("NewPet").Required, []string{"name", "categoryId"}},
		{"NewPet.name type", schema("NewPet").Properties["name"].Value.Type.Is("string"), true},
		{"NewPet.categoryId type", schema("NewPet").Properties["categoryId"].Value.Type.Is("integer"), true},
		{"NewPet.categoryId format", schema("NewPet").Properties["categoryId"].Value.Format, "int64"},
		{"NewPet.status schema", schema("NewPet").Properties["status"].Ref, "#/components/schemas/PetStatus"},
		{"Pet extends NewPet", schema("Pet").AllOf[0].Ref, "#/components/schemas/NewPet"},
		{"Pet requires id", schema("Pet").AllOf[1].Value.Required, []string{"id"}},
		{"Pet.id format", schema("Pet").AllOf[1].Value.Properties["id"].Value.Format, "int64"},
		{"Pets is an array", schema("Pets").Type.Is("array"), true},
		{"Pets items", schema("Pets").Items.Ref, "#/components/schemas/Pet"},
		{"Error required", schema("Error").Required, []string{"code", "message", "status"}},
		{"Error.code type", schema("Error").Properties["code"].Value.Type.Is("string"), true},
		{"Error.message type", schema("Error").Properties["message"].Value.Type.Is("string"), true},
		{"Error.status type", schema("Error").Properties["status"].Value.Type.Is("integer"), true},
	}
	for _, tt := range tests {
		if !equal(tt.got, tt.want) {
			t.Errorf("%s = %#v, want %#v", tt.fact, tt.got, tt.want)
		}
	}
}

func equal(a, b any) bool {
	switch a := a.(type) {
	case []any:
		b, ok := b.([]any)
		return ok && slices.Equal(a, b)
	case []string:
		b, ok := b.([]string)
		return ok && slices.Equal(a, b)
	}
	return a == b
}

func pathOf(tb testing.TB, c *spec.Contract, id string) string {
	tb.Helper()
	op := c.Operation(id)
	if op == nil {
		tb.Fatalf("operation %s is missing", id)
	}
	return op.Method + " " + op.Path
}

// TestEveryOperationRequiresBearer checks the effective security of every
// operation, whether it is declared on the operation or inherited.
func TestEveryOperationRequiresBearer(t *testing.T) {
	for _, op := range contract(t).Operations {
		reqs := op.Requirements
		if len(reqs) != 1 || len(reqs[0]) != 1 || reqs[0][0].Name != "bearerAuth" || reqs[0][0].Kind != spec.SchemeBearer {
			t.Errorf("%s %s: security = %v, want bearerAuth only, a bearer token", op.Method, op.Path, op.Security)
		}
	}
}

// TestEveryServerEndsInV1 checks both servers with their variables
// substituted.
func TestEveryServerEndsInV1(t *testing.T) {
	doc := load(t)
	for _, server := range doc.Servers {
		base, err := server.BasePath()
		if err != nil {
			t.Fatalf("%s: %v", server.URL, err)
		}
		if base != "/v1" {
			t.Errorf("%s: base path = %q, want /v1", server.URL, base)
		}
	}
}

// TestEveryErrorResponseIsAnError checks that every 4xx response carries
// an Error body.
func TestEveryErrorResponseIsAnError(t *testing.T) {
	doc := load(t)
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			for code, ref := range op.Responses.Map() {
				if code[0] != '4' {
					continue
				}
				mt := ref.Value.Content.Get("application/json")
				if mt == nil || mt.Schema.Ref != "#/components/schemas/Error" {
					t.Errorf("%s %s %s: body is not an Error", method, path, code)
				}
			}
		}
	}
}

// TestChoicesAreMarked checks that every response the interface does not
// list is marked as a choice of this mock's.
func TestChoicesAreMarked(t *testing.T) {
	c := contract(t)
	stated := map[string][]string{
		spec.ListPets:  {"200", "401"},
		spec.CreatePet: {"201", "400", "401"},
		spec.GetPet:    {"200", "401", "404"},
	}
	for id, codes := range stated {
		for code, ref := range c.Operation(id).Op.Responses.Map() {
			if slices.Contains(codes, code) {
				continue
			}
			if ref.Value.Extensions["x-petmock-choice"] == nil {
				t.Errorf("%s %s: not in the interface and not marked x-petmock-choice", id, code)
			}
		}
		for _, code := range codes {
			if c.Operation(id).Op.Responses.Value(code) == nil {
				t.Errorf("%s: response %s is missing", id, code)
			}
		}
	}
}

func TestGetPetDeprecation(t *testing.T) {
	c := contract(t)
	d := c.Operation(spec.GetPet).Deprecation
	if d == nil {
		t.Fatal("getPet is not deprecated")
	}
	if want := time.Date(2030, 12, 5, 0, 0, 0, 0, time.UTC); !d.Sunset.Equal(want) {
		t.Errorf("sunset = %s, want %s", d.Sunset, want)
	}
	if d.Sunset.Unix() != 1922659200 {
		t.Errorf("sunset = %d, want 1922659200", d.Sunset.Unix())
	}
	if d.Since.IsZero() || d.Since.After(d.Sunset) {
		t.Errorf("since = %s, want a date no later than the sunset", d.Since)
	}
	if d.ReplacedBy != spec.ListPets {
		t.Errorf("replaced by %q, want %q", d.ReplacedBy, spec.ListPets)
	}
	if d := c.Operation(spec.ListPets).Deprecation; d != nil {
		t.Errorf("listPets: deprecation %+v, want none", d)
	}
}

func TestPetstore(t *testing.T) {
	p, err := contract(t).Petstore()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"available", "pending", "sold"}; !slices.Equal(p.Statuses, want) {
		t.Errorf("Statuses = %v, want %v", p.Statuses, want)
	}
	if p.SunsetDay != "2030-12-05" || p.DefaultStatus != "available" || p.Pets.Name != "pets" {
		t.Errorf("SunsetDay %q, DefaultStatus %q, Pets %q; want 2030-12-05, available, pets", p.SunsetDay, p.DefaultStatus, p.Pets.Name)
	}
}

// TestPetstoreNamesTheFirstMissing: a document that lacks Petstore
// operations is told the first missing one, in the order listPets,
// createPet, getPet, the same on every read.
func TestPetstoreNamesTheFirstMissing(t *testing.T) {
	doc := strings.Replace(string(spec.YAML()), "operationId: createPet", "operationId: addPet", 1)
	doc = strings.Replace(doc, "operationId: getPet", "operationId: findPet", 1)
	for range 10 {
		c, err := spec.Read([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Petstore(); err == nil || err.Error() != "operation createPet is missing" {
			t.Fatalf("Petstore() = %v, want operation createPet is missing", err)
		}
	}
}

func TestRouterIgnoresHost(t *testing.T) {
	doc := load(t)
	router, err := spec.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		method, url string
		wantOp      string
		wantErr     error
	}{
		{"GET", "http://127.0.0.1:4010/v1/pets", spec.ListPets, nil},
		{"POST", "https://staging.example/v1/pets", spec.CreatePet, nil},
		{"GET", "http://anything/v1/pets/42", spec.GetPet, nil},
		{"DELETE", "http://anything/v1/pets/42", "", routers.ErrMethodNotAllowed},
		{"GET", "http://anything/pets", "", routers.ErrPathNotFound},
		{"GET", "http://anything/v1/store/orders", "", routers.ErrPathNotFound},
		{"GET", "http://anything/v2/pets", "", routers.ErrPathNotFound},
	}
	for _, tt := range tests {
		route, params, err := router.FindRoute(httptest.NewRequest(tt.method, tt.url, nil))
		if tt.wantErr != nil {
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("%s %s: err = %v, want %v", tt.method, tt.url, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v", tt.method, tt.url, err)
			continue
		}
		if route.Operation.OperationID != tt.wantOp {
			t.Errorf("%s %s: operation = %s, want %s", tt.method, tt.url, route.Operation.OperationID, tt.wantOp)
		}
		if tt.wantOp == spec.GetPet && params["petId"] != "42" {
			t.Errorf("%s %s: petId = %q, want 42", tt.method, tt.url, params["petId"])
		}
	}
}
