package edge

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/spec"
)

// The compiled checks may only ever accept what openapi3filter accepts.
// These tests and fuzz targets hold them to it.

func testServer(tb testing.TB) *Gate {
	tb.Helper()
	c, err := spec.Default()
	if err != nil {
		tb.Fatal(err)
	}
	return gateOf(tb, c)
}

// gateOf returns the gate of c.
func gateOf(tb testing.TB, c *spec.Contract) *Gate {
	tb.Helper()
	keys, err := NewKeyring([]string{"key"})
	if err != nil {
		tb.Fatal(err)
	}
	g, err := New(context.Background(), c, keys, shape.NewBuilder(c), MaxBodyBytes)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// checkRoute compares the compiled router with gorillamux on one request.
func checkRoute(t *testing.T, s *Gate, method, path string) {
	u, err := url.Parse("http://petmock" + path)
	if err != nil || u.Path == "" {
		return
	}
	op, params, ok := s.fast.find(method, u)
	if !ok {
		return
	}
	router, err := s.router()
	if err != nil {
		t.Fatal(err)
	}
	req := &http.Request{Method: method, URL: u, Host: "petmock"}
	route, want, err := router.FindRoute(req)
	if err != nil {
		t.Fatalf("%s %s: compiled router found %s, gorillamux says %v", method, path, op.Spec.ID, err)
	}
	if route.Operation.OperationID != op.Spec.ID {
		t.Fatalf("%s %s: compiled router found %s, gorillamux %s", method, path, op.Spec.ID, route.Operation.OperationID)
	}
	for k, v := range want {
		if params[k] != v {
			t.Fatalf("%s %s: param %s = %q, gorillamux %q", method, path, k, params[k], v)
		}
	}
	if len(params) != len(want) {
		t.Fatalf("%s %s: params %v, gorillamux %v", method, path, params, want)
	}
}

var routeSeeds = []string{
	"/v1/pets", "/v1/pets/1", "/v1/pets/", "/v1/pets//", "/v1/pets/1/x", "/v1//pets", "/v1/pets/%31",
	"/v1/pets/a%2Fb", "/v2/pets", "/pets", "/v1", "/v1/", "/v1/store/orders", "/v1/pets/-9", "/v1/PETS",
}

func TestCompiledRouterAgrees(t *testing.T) {
	s := testServer(t)
	hits := 0
	for _, path := range routeSeeds {
		for _, method := range []string{"GET", "POST", "PUT", "DELETE", "PATCH", "get"} {
			checkRoute(t, s, method, path)
			if _, _, ok := s.fast.find(method, &url.URL{Path: path}); ok {
				hits++
			}
		}
	}
	if hits < 3 {
		t.Errorf("the compiled router decided only %d requests; it should find the plain ones", hits)
	}
}

func FuzzCompiledRouter(f *testing.F) {
	for _, p := range routeSeeds {
		f.Add("GET", p)
	}
	f.Add("POST", "/v1/pets")
	s := testServer(f)
	f.Fuzz(func(t *testing.T, method, path string) {
		if !strings.HasPrefix(path, "/") {
			return
		}
		checkRoute(t, s, method, path)
	})
}

// checkParams compares the compiled parameter checks with openapi3filter.
func checkParams(t *testing.T, s *Gate, opID, rawQuery, petID string) {
	op := s.byID[opID]
	query, e := ParseQuery(rawQuery)
	if e != nil {
		return
	}
	params := map[string]string{}
	if opID == spec.GetPet {
		params["petId"] = petID
	}
	if !op.paramsCompiled || !paramsOK(op.params, query, params) {
		return
	}
	req := httptest.NewRequest("GET", "http://petmock/", nil)
	in := validationInput(req, op.route, params, query, nil)
	in.Options = validation(s.contract)
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		t.Fatalf("%s ?%s petId=%q: compiled checks accept, openapi3filter says %v", opID, rawQuery, petID, err)
	}
}

var paramSeeds = []string{
	"", "limit=20", "limit=1", "limit=100", "limit=0", "limit=101", "limit=+5", "limit=005", "limit=-0",
	"limit=1e1", "limit=", "status=sold", "status=SOLD", "status=", "cursor=AQAAAAAAAAAF", "cursor=" + strings.Repeat("x", 65),
	"limit=2147483648", "status=sold&limit=3&cursor=x", "unknown=1",
}

func TestCompiledParamsAgree(t *testing.T) {
	s := testServer(t)
	accepted := 0
	for _, q := range paramSeeds {
		checkParams(t, s, spec.ListPets, q, "")
		if query, _ := ParseQuery(q); paramsOK(s.byID[spec.ListPets].params, query, nil) {
			accepted++
		}
	}
	for _, id := range []string{"1", "-1", "+1", "9223372036854775807", "9223372036854775808", "1.0", "x", "", "%31", "0x1"} {
		checkParams(t, s, spec.GetPet, "", id)
	}
	if !s.byID[spec.ListPets].paramsCompiled || !s.byID[spec.GetPet].paramsCompiled {
		t.Errorf("the parameters of listPets and getPet should compile")
	}
	if accepted < 5 {
		t.Errorf("the compiled checks accepted only %d of the valid queries", accepted)
	}
}

func FuzzCompiledParams(f *testing.F) {
	for _, q := range paramSeeds {
		f.Add(q, "1")
	}
	s := testServer(f)
	f.Fuzz(func(t *testing.T, rawQuery, petID string) {
		checkParams(t, s, spec.ListPets, rawQuery, "")
		checkParams(t, s, spec.GetPet, "", petID)
	})
}

// checkBody compares the compiled body check with openapi3filter.
func checkBody(t *testing.T, s *Gate, body string) {
	op := s.byID[spec.CreatePet]
	v, e := DecodeJSON([]byte(body))
	if e != nil || !op.body.ok(v) {
		return
	}
	req := httptest.NewRequest("POST", "http://petmock/v1/pets", nil)
	req.Header.Set("Content-Type", "application/json")
	in := validationInput(req, op.route, nil, nil, []byte(body))
	in.Options = validation(s.contract)
	if err := openapi3filter.ValidateRequestBody(context.Background(), in, op.Spec.Op.RequestBody.Value); err != nil {
		t.Fatalf("%s: compiled check accepts, openapi3filter says %v", body, err)
	}
	if e := op.bodyShape.ExactIntegers(v, "body"); e != nil {
		t.Fatalf("%s: compiled check accepts, the exact check of integers says %v", body, e)
	}
}

var bodySeeds = []string{
	`{"name":"Rex","categoryId":1}`, `{"name":"Rex","categoryId":1,"status":"sold"}`, `{"name":"","categoryId":-1}`,
	`{"name":"Rex","categoryId":1.0}`, `{"name":"Rex","categoryId":1e2}`, `{"name":"Rex","categoryId":9223372036854775807}`,
	`{"name":"Rex","categoryId":9223372036854775808}`, `{"name":"Rex","categoryId":1.5}`, `{"name":"Rex"}`, `{"categoryId":1}`,
	`{"name":null,"categoryId":1}`, `{"name":"Rex","categoryId":1,"status":null}`, `{"name":"Rex","categoryId":1,"status":"lost"}`,
	`{"name":"Rex","categoryId":1,"extra":{"a":[1,2]}}`, `[]`, `null`, `"x"`, `{"name":["Rex"],"categoryId":1}`,
}

func TestCompiledBodyAgrees(t *testing.T) {
	s := testServer(t)
	if s.byID[spec.CreatePet].body == nil {
		t.Fatal("the NewPet schema should compile")
	}
	accepted := 0
	for _, b := range bodySeeds {
		checkBody(t, s, b)
		if v, e := DecodeJSON([]byte(b)); e == nil && s.byID[spec.CreatePet].body.ok(v) {
			accepted++
		}
	}
	if accepted < 5 {
		t.Errorf("the compiled check accepted only %d of the valid bodies", accepted)
	}
}

func FuzzCompiledBody(f *testing.F) {
	for _, b := range bodySeeds {
		f.Add(b)
	}
	s := testServer(f)
	f.Fuzz(func(t *testing.T, body string) {
		checkBody(t, s, body)
	})
}

// TestCompileRefusesWhatItCannotCheck makes sure schemas with features the
// compiled checks do not know are left to openapi3filter.
func TestCompileRefusesWhatItCannotCheck(t *testing.T) {
	num := func(f float64) *float64 { return &f }
	str := &openapi3.Types{"string"}
	integer := &openapi3.Types{"integer"}
	params := []*openapi3.Parameter{
		{Name: "a", In: "query", Schema: openapi3.NewSchemaRef("", &openapi3.Schema{Type: str, Pattern: "^a$"})},
		{Name: "b", In: "query", Schema: openapi3.NewSchemaRef("", &openapi3.Schema{Type: integer, MultipleOf: num(2)})},
		{Name: "c", In: "query", Schema: openapi3.NewSchemaRef("", &openapi3.Schema{Type: integer, Min: num(1.5)})},
		{Name: "d", In: "header", Schema: openapi3.NewSchemaRef("", &openapi3.Schema{Type: str})},
		{Name: "e", In: "query", Schema: openapi3.NewSchemaRef("", &openapi3.Schema{Type: str, Format: "date"})},
		{Name: "f", In: "query", Schema: openapi3.NewSchemaRef("", &openapi3.Schema{Type: &openapi3.Types{"array"}})},
		{Name: "g", In: "query", Schema: openapi3.NewSchemaRef("", &openapi3.Schema{Type: str, MinLength: 2})},
		{Name: "h", In: "query", Schema: openapi3.NewSchemaRef("", &openapi3.Schema{Type: str, Nullable: true})},
	}
	for _, p := range params {
		if _, ok := compileParams([]*openapi3.Parameter{p}); ok {
			t.Errorf("parameter %s compiled, but its schema has a feature the compiled checks do not know", p.Name)
		}
	}
	objects := []*openapi3.Schema{
		{Type: &openapi3.Types{"object"}, AdditionalProperties: openapi3.AdditionalProperties{Has: new(bool)}},
		{Type: &openapi3.Types{"object"}, Properties: openapi3.Schemas{"x": openapi3.NewSchemaRef("", &openapi3.Schema{Type: integer, Max: num(3)})}},
		{Type: &openapi3.Types{"object"}, Properties: openapi3.Schemas{"x": openapi3.NewSchemaRef("", &openapi3.Schema{Type: str, ReadOnly: true})}},
		{AllOf: openapi3.SchemaRefs{openapi3.NewSchemaRef("", &openapi3.Schema{Type: &openapi3.Types{"object"}})}},
	}
	for i, o := range objects {
		if _, ok := compileObject(o); ok {
			t.Errorf("object schema %d compiled, but has a feature the compiled check does not know", i)
		}
	}
}

// TestCompiledRouterAgreesOnOddTemplates holds the compiled router to
// gorillamux on templates the Petstore does not have: the root, a
// trailing slash, parameters with a pattern or within a segment, a path
// without operations, and paths and operations below base paths of their
// own. A request two templates match, or one of a path without
// operations, is left to gorillamux.
func TestCompiledRouterAgreesOnOddTemplates(t *testing.T) {
	get := func(id string) string {
		return `{get: {operationId: ` + id + `, parameters: [], responses: {'204': {description: Done.}}}}`
	}
	param := func(id string, names ...string) string {
		var ps []string
		for _, n := range names {
			ps = append(ps, `{name: `+n+`, in: path, required: true, schema: {type: string}}`)
		}
		return `{get: {operationId: ` + id + `, parameters: [` + strings.Join(ps, ", ") + `], responses: {'204': {description: Done.}}},` +
			` delete: {operationId: del` + id + `, parameters: [` + strings.Join(ps, ", ") + `], responses: {'204': {description: Done.}}}}`
	}
	src := `openapi: 3.0.3
info: {title: Odd, version: 1.0.0}
servers: [{url: /v1}]
paths:
  /: ` + get("root") + `
  /pets/: ` + get("petsSlash") + `
  /pets/{id}: ` + param("pet", "id") + `
  /files/{name}.{ext}: ` + param("fileExt", "name", "ext") + `
  /files/{name}: ` + param("file", "name") + `
  /codes/{code:[A-Z]{3}}: ` + param("code", "code") + `
  /things/{x}: {parameters: [{name: x, in: path, required: true, schema: {type: string}}]}
  /things/special: ` + get("special") + `
  /elsewhere/{id}: {servers: [{url: /v2}], get: {operationId: elsewhere, parameters: [{name: id, in: path, required: true, schema: {type: string}}], responses: {'204': {description: Done.}}}}
  /rooted: {get: {operationId: rooted, servers: [{url: 'https://other.example'}], responses: {'204': {description: Done.}}}, delete: {operationId: delRooted, responses: {'204': {description: Done.}}}}
  /v2/elsewhere/{id}: {get: {operationId: shadowed, parameters: [{name: id, in: path, required: true, schema: {type: string}}], servers: [{url: /}], responses: {'204': {description: Done.}}}}
`
	c, err := spec.Read([]byte(src))
	if err != nil {
		t.Fatalf("document: %v", err)
	}
	s := gateOf(t, c)
	paths := []string{
		"/v1/", "/v1", "/v1/x", "/v1/pets/", "/v1/pets", "/v1/pets//", "/v1/pets/1", "/v1/pets/1/", "/v1/files/a",
		"/v1/files/a.b", "/v1/files/.b", "/v1/codes/ABC", "/v1/codes/AB", "/v1/codes/abc", "/v1/things/1",
		"/v1/things/special", "/v1/elsewhere/1", "/v2/elsewhere/1", "/v1/pets/a%2Fb", "//", "/v1//",
		"/rooted", "/v1/rooted", "/v2/rooted", "/rooted/", "/v2/elsewhere",
	}
	decided := map[string]bool{}
	for _, path := range paths {
		for _, method := range []string{"GET", "DELETE", "POST", "HEAD"} {
			checkRoute(t, s, method, path)
			if _, _, ok := s.fast.find(method, &url.URL{Path: path}); ok {
				decided[method+" "+path] = true
			}
		}
	}
	for _, req := range []string{"GET /v1/", "GET /v1/pets/", "GET /v1/pets/1", "DELETE /v1/pets/1", "GET /v1/files/a", "GET /v1/codes/ABC",
		"GET /rooted", "DELETE /v1/rooted"} {
		if !decided[req] {
			t.Errorf("%s: the compiled router should decide it", req)
		}
	}
	for _, req := range []string{"GET /v1/files/a.b", "GET /v1/things/special", "GET /v1/things/1", "GET /v1/elsewhere/1",
		"GET /v2/elsewhere/1", "GET /v1/rooted", "DELETE /rooted"} {
		if decided[req] {
			t.Errorf("%s: the compiled router decided it; gorillamux should", req)
		}
	}
}

// BenchmarkCompiledRouter measures finding the operation of a read among
// the paths of a document of 2,000 paths below one base path, and of the
// Petstore.
func BenchmarkCompiledRouter(b *testing.B) {
	var paths strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&paths, "  /things%d: {get: {operationId: list%d, responses: {'204': {description: ok}}}}\n", i, i)
		fmt.Fprintf(&paths, "  /things%d/{id}: {get: {operationId: get%d, parameters: [{name: id, in: path, required: true, schema: {type: integer}}], responses: {'204': {description: ok}}}}\n", i, i)
	}
	many, err := spec.Read([]byte("openapi: 3.0.3\ninfo: {title: Many, version: '1'}\nservers: [{url: /v1}]\npaths:\n" + paths.String()))
	if err != nil {
		b.Fatal(err)
	}
	petstore, err := spec.Default()
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		c    *spec.Contract
		path string
	}{{"petstore", petstore, "/v1/pets/42"}, {"2000paths", many, "/v1/things999/42"}} {
		b.Run(bc.name, func(b *testing.B) {
			g := gateOf(b, bc.c)
			u := &url.URL{Path: bc.path}
			for b.Loop() {
				if _, _, ok := g.fast.find("GET", u); !ok {
					b.Fatal("not found")
				}
			}
		})
	}
}
