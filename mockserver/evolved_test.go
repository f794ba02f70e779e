package mockserver_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// readContract reads a document of testdata.
func readContract(tb testing.TB, name string) *spec.Contract {
	tb.Helper()
	c, err := spec.ReadFile("../testdata/" + name)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// TestEvolvedFieldIsKept: a property the document adds to NewPet is
// validated, stored as sent, answered in the document's order and read
// back, with no change to the code.
func TestEvolvedFieldIsKept(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{Contract: readContract(t, "evolved-field.yaml"), Items: catalogue.Items{}})
	created := ts.do(t, "POST", "/pets", `{"tag":"good boy","name":"Rex","categoryId":1,"unknown":1}`)
	want := `{"id":1,"name":"Rex","categoryId":1,"status":"available","tag":"good boy"}` + "\n"
	if created.StatusCode != 201 || string(created.body) != want {
		t.Fatalf("POST with a tag: %s, want 201 %s", created, want)
	}
	if got := ts.do(t, "GET", "/pets/1", ""); string(got.body) != want {
		t.Errorf("GET /pets/1: %s, want %s", got, want)
	}
	if got := ts.do(t, "GET", "/pets?status=available", ""); string(got.body) != "["+strings.TrimSuffix(want, "\n")+"]\n" {
		t.Errorf("GET /pets: %s", got)
	}
	long := strings.Repeat("x", 41)
	if resp := ts.do(t, "POST", "/pets", `{"name":"Rex","categoryId":1,"tag":"`+long+`"}`); resp.StatusCode != 400 || resp.apiError(t).Message != "tag: must be at most 40 characters long" {
		t.Errorf("a tag of 41 characters: %s, want 400 naming tag", resp)
	}
	// The generated catalogue fills the new property too.
	gen := newTestServer(t, mockserver.Config{Contract: readContract(t, "evolved-field.yaml")})
	var pets []map[string]any
	json.Unmarshal(gen.do(t, "GET", "/pets?limit=5", "").body, &pets)
	for _, p := range pets {
		if tag, _ := p["tag"].(string); tag == "" {
			t.Errorf("generated pet %v has no tag", p)
		}
	}
}

// TestEvolvedResource serves the orders of a later document: listed,
// placed, read, replaced, changed and cancelled, with the statuses and
// bodies the document gives.
func TestEvolvedResource(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{Contract: readContract(t, "evolved-ops.yaml")})
	list := ts.do(t, "GET", "/store/orders?limit=3&status=placed", "")
	var orders []map[string]any
	if err := json.Unmarshal(list.body, &orders); err != nil || list.StatusCode != 200 || len(orders) != 3 {
		t.Fatalf("GET /store/orders: %s", list)
	}
	for _, o := range orders {
		if o["status"] != "placed" {
			t.Errorf("status=placed listed %v", o)
		}
	}
	if !strings.Contains(list.Header.Get("Link"), "/v1/store/orders?cursor=") {
		t.Errorf("Link = %q, want the next page of orders", list.Header.Get("Link"))
	}

	placed := ts.do(t, "POST", "/store/orders", `{"petId":3,"quantity":2}`)
	want := `{"id":51,"petId":3,"quantity":2,"status":"placed","complete":false}` + "\n"
	if placed.StatusCode != 201 || string(placed.body) != want || !strings.HasSuffix(placed.Header.Get("Location"), "/v1/store/orders/51") {
		t.Fatalf("POST /store/orders: %s (Location %q), want 201 %s", placed, placed.Header.Get("Location"), want)
	}
	if got := ts.do(t, "GET", "/store/orders/51", ""); string(got.body) != want {
		t.Errorf("GET /store/orders/51: %s, want %s", got, want)
	}

	replaced := ts.do(t, "PUT", "/store/orders/51", `{"petId":4,"quantity":1,"shipDate":"2026-01-02T03:04:05Z"}`)
	want = `{"id":51,"petId":4,"quantity":1,"shipDate":"2026-01-02T03:04:05Z","status":"placed","complete":false}` + "\n"
	if replaced.StatusCode != 200 || string(replaced.body) != want {
		t.Errorf("PUT /store/orders/51: %s, want 200 %s", replaced, want)
	}
	changed := ts.do(t, "PATCH", "/store/orders/51", `{"status":"approved","complete":true}`)
	want = `{"id":51,"petId":4,"quantity":1,"shipDate":"2026-01-02T03:04:05Z","status":"approved","complete":true}` + "\n"
	if changed.StatusCode != 200 || string(changed.body) != want {
		t.Errorf("PATCH /store/orders/51: %s, want 200 %s", changed, want)
	}
	if got := ts.do(t, "GET", "/store/orders?status=approved&limit=100", ""); !strings.Contains(string(got.body), `"id":51,`) {
		t.Errorf("the changed order is not listed under its new status: %s", got)
	}
	if got := ts.do(t, "GET", "/store/orders?status=placed&limit=100", ""); strings.Contains(string(got.body), `"id":51,`) {
		t.Errorf("the changed order is still listed under its old status")
	}
	for _, bad := range []struct{ method, body, message string }{
		{"PUT", `{"petId":4,"quantity":11}`, "quantity: must be at most 10"},
		{"PUT", `{"quantity":1}`, "petId: is required"},
		{"PATCH", `{"quantity":0}`, "quantity: must be at least 1"},
		{"PATCH", `{"status":"lost"}`, "status: must be one of placed, approved, delivered"},
	} {
		if resp := ts.do(t, bad.method, "/store/orders/51", bad.body); resp.StatusCode != 400 || resp.apiError(t).Message != bad.message {
			t.Errorf("%s %s: %s, want 400 %q", bad.method, bad.body, resp, bad.message)
		}
	}
	if got := ts.do(t, "GET", "/store/orders/51", ""); string(got.body) != want {
		t.Errorf("refused changes changed the order: %s", got)
	}

	if resp := ts.do(t, "DELETE", "/store/orders/51", ""); resp.StatusCode != 204 || len(resp.body) != 0 {
		t.Errorf("DELETE /store/orders/51: %s, want 204 with no body", resp)
	}
	for _, method := range []string{"GET", "DELETE"} {
		if resp := ts.do(t, method, "/store/orders/51", ""); resp.StatusCode != 404 || resp.apiError(t).Message != "orderId: no order has id 51" {
			t.Errorf("%s of a cancelled order: %s, want 404", method, resp)
		}
	}
	if resp := ts.do(t, "PUT", "/store/orders/51", `{"petId":4,"quantity":1}`); resp.StatusCode != 404 {
		t.Errorf("PUT of a cancelled order: %s, want 404", resp)
	}
	if resp := ts.do(t, "POST", "/store/orders", `{"petId":3,"quantity":2}`); !strings.Contains(string(resp.body), `"id":52,`) {
		t.Errorf("the order placed after a cancelled one: %s, want id 52, not the cancelled 51 again", resp)
	}

	// The control interface exports, replaces and resets every resource.
	var export bytes.Buffer
	if _, err := ts.Items().Store("orders").Export(&export); err != nil || strings.Count(export.String(), `"petId"`) != 51 {
		t.Errorf("export of orders: %v with %d orders, want 51", err, strings.Count(export.String(), `"petId"`))
	}
	if n, err := ts.Items().ReplaceItems("orders", strings.NewReader(`[{"id":7,"petId":1,"quantity":1}]`)); n != 1 || err != nil {
		t.Errorf("ReplaceItems of an order: %d, %v", n, err)
	}
	if _, err := ts.Items().ReplaceItems("orders", strings.NewReader(`[{"id":7,"petId":1,"quantity":12}]`)); err == nil || err.Error() != "orders[0]: quantity: must be at most 10" {
		t.Errorf("ReplaceItems of a bad order: %v, want it named", err)
	}
	if health, err := ts.Items().Health(); err != nil || health["orders"] != 1 || health["pets"] != 50 || len(health) != 2 {
		t.Errorf("health: %v, %v", health, err)
	}
	if _, err := ts.Items().Reset(); err != nil {
		t.Fatal(err)
	}
	if health, err := ts.Items().Health(); err != nil || health["orders"] != 50 || health["pets"] != 50 || len(health) != 2 {
		t.Errorf("health after reset: %v, %v", health, err)
	}
}

// TestGeneratedAnswers: an operation that is not part of a resource is
// answered with a value made from its schema, the same for the same
// request and seed, another for another.
func TestGeneratedAnswers(t *testing.T) {
	c := readContract(t, "evolved-ops.yaml")
	ts := newTestServer(t, mockserver.Config{Contract: c, ChaosSeed: 7})
	a, b := ts.do(t, "GET", "/store/inventory", ""), ts.do(t, "GET", "/store/inventory", "")
	if a.StatusCode != 200 || string(a.body) != string(b.body) {
		t.Errorf("two answers to one request differ: %s and %s", a, b)
	}
	var inventory map[string]int
	if err := json.Unmarshal(a.body, &inventory); err != nil || len(inventory) == 0 {
		t.Errorf("inventory %s: %v", a.body, err)
	}
	other := newTestServer(t, mockserver.Config{Contract: c, ChaosSeed: 8})
	if o := other.do(t, "GET", "/store/inventory", ""); string(o.body) == string(a.body) {
		t.Errorf("seeds 7 and 8 answer alike: %s", o.body)
	}
	if resp := ts.do(t, "GET", "/store/inventory", "", "Authorization", ""); resp.StatusCode != 401 {
		t.Errorf("inventory without a key: %s, want 401", resp)
	}
	if resp := ts.do(t, "GET", "/store/inventory", "", "Prefer", "code=401"); resp.StatusCode != 401 {
		t.Errorf("inventory with Prefer: code=401: %s", resp)
	}
}
