package spec_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

func readContract(tb testing.TB, path string) *spec.Contract {
	tb.Helper()
	c, err := spec.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func propertyNames(props []spec.Property) []string {
	var out []string
	for _, p := range props {
		out = append(out, p.Name)
	}
	return out
}

// TestPetsResource reads the one resource of the Petstore document, every
// fact of it inferred from the operations.
func TestPetsResource(t *testing.T) {
	c := contract(t)
	if c.Base != "/v1" {
		t.Errorf("Base = %q, want /v1", c.Base)
	}
	if len(c.Resources) != 1 {
		t.Fatalf("%d resources, want 1 (notes: %v)", len(c.Resources), c.Notes)
	}
	r := c.Resources[0]
	var filters []string
	for _, f := range r.Filters {
		filters = append(filters, f.Name())
	}
	tests := []struct {
		fact      string
		got, want any
	}{
		{"name", r.Name, "pets"},
		{"collection", r.CollectionPath, "/pets"},
		{"item path", r.ItemPath, "/pets/{petId}"},
		{"id parameter", r.IDParam, "petId"},
		{"id property", r.IDProperty, "id"},
		{"ids are strings", r.IDIsString, false},
		{"properties, id first, then as written", strings.Join(propertyNames(r.Properties), ","), "id,name,categoryId,status"},
		{"required", strings.Join(spec.Required(r.Properties), ","), "id,name,categoryId"},
		{"filters", strings.Join(filters, ","), "status"},
		{"limit", r.Paging.Limit, "limit"},
		{"limit bounds", [3]int{r.Paging.Min, r.Paging.Max, r.Paging.Default}, [3]int{1, 100, 20}},
		{"cursor", r.Paging.Cursor, "cursor"},
		{"default status", r.Defaults["status"], "available"},
		{"list", r.List.ID, spec.ListPets},
		{"create", r.CreateOp.ID, spec.CreatePet},
		{"read", r.Read.ID, spec.GetPet},
		{"no replace, update or delete", r.Replace == nil && r.Update == nil && r.Delete == nil, true},
		{"roles", [3]spec.Role{r.List.Role, r.CreateOp.Role, r.Read.Role}, [3]spec.Role{spec.RoleList, spec.RoleCreate, spec.RoleRead}},
		{"success statuses", [3]int{r.List.Success, r.CreateOp.Success, r.Read.Success}, [3]int{200, 201, 200}},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %v, want %v", tt.fact, tt.got, tt.want)
		}
	}
}

// TestOperationsInOrder: operations come by path, then by method.
func TestOperationsInOrder(t *testing.T) {
	var got []string
	for _, op := range readContract(t, "../testdata/evolved-ops.yaml").Operations {
		got = append(got, op.ID)
	}
	want := []string{
		spec.ListPets, spec.CreatePet, spec.GetPet,
		"getInventory", "listOrders", "placeOrder", "getOrder", "replaceOrder", "updateOrder", "cancelOrder",
	}
	if !slices.Equal(got, want) {
		t.Errorf("operations %v, want %v", got, want)
	}
}

// TestEvolvedDocuments: a field and new operations are read from the
// document with no change to the code.
func TestEvolvedDocuments(t *testing.T) {
	field := readContract(t, "../testdata/evolved-field.yaml")
	if got := strings.Join(propertyNames(field.Resource("pets").Properties), ","); got != "id,name,categoryId,status,tag" {
		t.Errorf("pets of evolved-field.yaml: properties %s, want id,name,categoryId,status,tag", got)
	}

	ops := readContract(t, "../testdata/evolved-ops.yaml")
	orders := ops.Resource("orders")
	if orders == nil {
		t.Fatalf("evolved-ops.yaml: no orders resource; notes: %v", ops.Notes)
	}
	if got := strings.Join(propertyNames(orders.Properties), ","); got != "id,petId,quantity,shipDate,status,complete" {
		t.Errorf("orders: properties %s", got)
	}
	for role, op := range map[spec.Role]*spec.Operation{
		spec.RoleReplace: orders.Replace, spec.RoleUpdate: orders.Update, spec.RoleDelete: orders.Delete,
	} {
		if op == nil || op.Role != role {
			t.Errorf("orders: no %s operation", role)
		}
	}
	if orders.Delete.Success != 204 {
		t.Errorf("cancelOrder success = %d, want 204", orders.Delete.Success)
	}
	if f, ok := orders.Filter("status"); !ok || !slices.Equal(f.Enum(), []string{"placed", "approved", "delivered"}) {
		t.Errorf("orders: status filter %v", f)
	}
	inv := ops.Operation("getInventory")
	if inv == nil || inv.Resource != nil || inv.Role != spec.RoleOther {
		t.Errorf("getInventory: %+v, want an operation of no resource", inv)
	}
	if len(ops.Resources) != 2 {
		t.Errorf("%d resources, want pets and orders", len(ops.Resources))
	}
}

// TestEvolvedDocumentsKeepTheContract: each evolved document holds every
// path, operation and schema of the embedded one, so that it stays a later
// version of it.
func TestEvolvedDocumentsKeepTheContract(t *testing.T) {
	base := contract(t)
	for _, file := range []string{"../testdata/evolved-field.yaml", "../testdata/evolved-ops.yaml"} {
		c := readContract(t, file)
		for _, op := range base.Operations {
			if got := c.Operation(op.ID); got == nil || got.Method != op.Method || got.Path != op.Path {
				t.Errorf("%s: operation %s is missing or moved", file, op.ID)
			}
		}
		for name := range base.Doc.Components.Schemas {
			if c.Doc.Components.Schemas[name] == nil {
				t.Errorf("%s: schema %s is missing", file, name)
			}
		}
	}
}

// TestNotAResource: a collection whose list is not an array is served as
// plain operations, and a note says why.
func TestNotAResource(t *testing.T) {
	doc := strings.Replace(string(spec.YAML()), "                $ref: '#/components/schemas/Pets'", "                $ref: '#/components/schemas/Pet'", 1)
	c, err := spec.Read([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Resources) != 0 {
		t.Errorf("resources %v, want none", c.Resources)
	}
	if len(c.Notes) != 1 || !strings.Contains(c.Notes[0], "paths./pets.get.responses.200: not a JSON array") {
		t.Errorf("notes %q, want one that names paths./pets.get.responses.200", c.Notes)
	}
}

// TestErrorCodes: x-petmock-codes gives each code its status.
func TestErrorCodes(t *testing.T) {
	codes := contract(t).ErrorCodes
	for code, status := range map[string]int{"bad_request": 400, "unauthorized": 401, "not_found": 404, "store_full": 507, "internal": 500, "unavailable": 503} {
		if codes[code] != status {
			t.Errorf("ErrorCodes[%s] = %d, want %d", code, codes[code], status)
		}
	}
}

// TestJSONKeepsTheOrder: the document as JSON has its members in the
// order written, and says what the YAML says.
func TestJSONKeepsTheOrder(t *testing.T) {
	c := contract(t)
	js, err := c.JSON()
	if err != nil {
		t.Fatal(err)
	}
	s := string(js)
	for _, pair := range [][2]string{{`"openapi"`, `"info"`}, {`"info"`, `"servers"`}, {`"servers"`, `"paths"`}, {`"paths"`, `"components"`}, {`"name":{"type"`, `"categoryId":{"type"`}} {
		if i, j := strings.Index(s, pair[0]), strings.Index(s, pair[1]); i < 0 || j < 0 || i > j {
			t.Errorf("%s does not come before %s", pair[0], pair[1])
		}
	}
	fromJSON, err := spec.Read(js)
	if err != nil {
		t.Fatalf("the JSON does not load: %v", err)
	}
	a, _ := json.Marshal(fromJSON.Doc)
	b, _ := json.Marshal(c.Doc)
	if string(a) != string(b) {
		t.Error("the JSON loads as another document than the YAML")
	}
}

func TestReadFileNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	bad := dir + "/bad.yaml"
	os.WriteFile(bad, []byte("openapi: 3.0.3\ninfo: {}\n"), 0o644)
	if _, err := spec.ReadFile(bad); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("ReadFile of a bad document: %v, want an error naming %s", err, bad)
	}
}

// TestOperationOfARoute: the operation a route of the router found is
// found again by its method and path template, without computing its id
// anew; the operations of one path share its template.
func TestOperationOfARoute(t *testing.T) {
	c := readContract(t, "../testdata/evolved-ops.yaml")
	router, err := spec.NewRouter(c.Doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ method, path, id string }{
		{"GET", "/v1/pets", spec.ListPets},
		{"POST", "/v1/pets", spec.CreatePet},
		{"GET", "/v1/pets/7", spec.GetPet},
		{"GET", "/v1/store/inventory", "getInventory"},
		{"DELETE", "/v1/store/orders/3", "cancelOrder"},
	} {
		route, _, err := router.FindRoute(httptest.NewRequest(tt.method, "http://h"+tt.path, nil))
		if err != nil {
			t.Fatalf("%s %s: %v", tt.method, tt.path, err)
		}
		if op := c.RouteOperation(route); op == nil || op.ID != tt.id {
			t.Errorf("%s %s: RouteOperation = %v, want %s", tt.method, tt.path, op, tt.id)
		}
	}
	if c.OperationAt("GET", "/pets/{petId}") != c.Operation(spec.GetPet) || c.OperationAt("PUT", "/pets/{petId}") != nil || c.RouteOperation(nil) != nil {
		t.Error("OperationAt does not find getPet by GET /pets/{petId} alone")
	}
	orders := c.Resource("orders")
	for _, op := range []*spec.Operation{orders.Replace, orders.Update, orders.Delete} {
		if op.Template != orders.Read.Template || op.Template.String() != op.Path {
			t.Errorf("%s: template %v, want the one of %s, %s", op.ID, op.Template, orders.Read.ID, op.Path)
		}
	}
	unnamed := smallDocument(t, "  /things/{id}:\n    get:\n      parameters: [{name: id, in: path, required: true, schema: {type: string}}]\n      responses: {'200': {description: A thing.}}\n")
	if op := unnamed.OperationAt("GET", "/things/{id}"); op == nil || op.ID != "GET /things/{id}" {
		t.Errorf("an operation without an operationId: %v, want the id GET /things/{id}", op)
	}
}

// TestTemplateTheRouterCannotRead: a document whose path template the
// router of the request validation cannot read is refused, naming it.
func TestTemplateTheRouterCannotRead(t *testing.T) {
	doc := strings.Replace(string(spec.YAML()), "  /pets/{petId}:", "  /pets/{petId:(a|b)}:", 1)
	_, err := spec.Read([]byte(doc))
	if err == nil || !strings.Contains(err.Error(), "paths./pets/{petId:(a|b)}: a parameter's pattern has a capturing group") {
		t.Errorf("Read: %v, want an error naming paths./pets/{petId:(a|b)}", err)
	}
}

// TestChoiceHeaders: the headers the Petstore's answers document are all
// petmock's choices; the interface names none.
func TestChoiceHeaders(t *testing.T) {
	c := contract(t)
	for id, want := range map[string]string{
		spec.ListPets:  "map[200:[Link] 401:[WWW-Authenticate]]",
		spec.CreatePet: "map[201:[Location] 401:[WWW-Authenticate]]",
	} {
		if got := fmt.Sprint(c.Operation(id).ChoiceHeaders()); got != want {
			t.Errorf("%s: ChoiceHeaders() = %s, want %s", id, got, want)
		}
	}
	get := c.Operation(spec.GetPet).ChoiceHeaders()
	if fmt.Sprint(get["200"]) != "[Deprecation Link Sunset]" {
		t.Errorf("getPet 200: choice headers %v, want Deprecation, Link and Sunset", get["200"])
	}
	if spec.IsChoice(map[string]any{"x-sunset": "2030-12-05"}) || !spec.IsChoice(map[string]any{"x-petmock-order": "by id"}) {
		t.Error("IsChoice: x-sunset is the document's, x-petmock-order petmock's")
	}
}

// TestResourceNotesAreBounded: a document of many paths that look like
// collections but are not gets twenty notes that say why, and one that
// counts the rest, not a line for each.
func TestResourceNotesAreBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(header + "paths:\n")
	for i := range 30 {
		fmt.Fprintf(&b, "  /things%d:\n    get: {responses: {'200': {description: ok, content: {application/json: {schema: {type: array, items: {type: object}}}}}}}\n    post: {requestBody: {content: {application/json: {schema: {type: object}}}}, responses: {'201': {description: ok}}}\n", i)
	}
	c, err := spec.Read([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Notes) != 21 || c.Notes[20] != "and 10 more such notes of paths that look like resources" {
		t.Errorf("%d notes, the last %q; want 21, the last counting 10 more", len(c.Notes), c.Notes[len(c.Notes)-1])
	}
}

// TestResponseRanges: a range of statuses the document writes, such as
// 4XX, documents each status of it, and 2XX a success.
func TestResponseRanges(t *testing.T) {
	c, err := spec.ReadOptions{Strict: true}.Read([]byte(header + `paths:
  /things:
    get:
      responses:
        2XX: {description: ok}
        4XX: {description: refused}
        '404': {description: none}`))
	if err != nil {
		t.Fatal(err)
	}
	op := c.Operation("GET /things")
	if !slices.Equal(op.Ranges, []int{2, 4}) || !slices.Equal(op.Statuses, []int{404}) || op.Success != 200 {
		t.Errorf("ranges %v, statuses %v, success %d; want [2 4], [404], 200", op.Ranges, op.Statuses, op.Success)
	}
	for status, want := range map[int]bool{200: true, 204: true, 400: true, 404: true, 499: true, 302: false, 500: false, 40: false} {
		if op.Documents(status) != want {
			t.Errorf("Documents(%d) = %v, want %v", status, !want, want)
		}
	}
	if got := op.Response(409); got == nil || *got.Description != "refused" {
		t.Errorf("Response(409) = %v, want the 4XX response", got)
	}
}
