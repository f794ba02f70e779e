package admin_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

// TestReloadShowsTheNewDocument: once a server for a new version of the
// document takes over, as petmock --watch makes one, the admin API shows
// its operations and resources, and what the reload kept; a version that
// could not be served shows until then; an event stream opened before
// hears of both, and counts against the caps of the new handler.
func TestReloadShowsTheNewDocument(t *testing.T) {
	first, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	h1, err := admin.New(first, admin.Config{MaxStreams: 2})
	if err != nil {
		t.Fatal(err)
	}
	var cur atomic.Pointer[http.Handler]
	cur.Store(&h1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*cur.Load()).ServeHTTP(w, r) }))
	t.Cleanup(hs.Close)
	evolved := readContract(t, "evolved-ops.yaml")
	// The API is only asked after the reload: its answers are judged by
	// the new document.
	ts := &testServer{URL: hs.URL + "/v1", root: hs.URL, client: &http.Client{}}
	ts.checks = &checks{admin: newJudge(t, adminDocument(t)), api: newJudge(t, evolved)}
	ts.client.Transport = &checkingTransport{tb: t, next: http.DefaultTransport, checks: ts.checks}

	events := openEvents(t, hs.Client(), hs.URL)
	contract := func() (v struct {
		Operations []struct{ ID string }
		Resources  []struct{ Name string }
		Document   mockserver.DocumentStatus
	}) {
		t.Helper()
		resp := ts.admin(t, "GET", "contract", "")
		if resp.StatusCode != 200 {
			t.Fatalf("GET contract: %s", resp)
		}
		if err := json.Unmarshal(resp.body, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	if c := contract(); c.Document.Reloads != 0 || c.Document.Refused != nil {
		t.Errorf("contract before any reload: %+v", c.Document)
	}
	first.RefuseDocument("--spec pets.yaml: yaml: line 3: mapping values are not allowed in this context")
	events.waitFor(t, "document")
	if c := contract(); c.Document.Refused == nil || c.Document.Refused.Message != "--spec pets.yaml: yaml: line 3: mapping values are not allowed in this context" {
		t.Errorf("contract after a refused version: %+v, want the refusal", c.Document)
	}

	next, err := mockserver.New(mockserver.Config{Contract: evolved})
	if err != nil {
		t.Fatal(err)
	}
	h2, err := admin.NewAfter(h1, next, admin.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := next.TakeOver(first, func() { cur.Store(&h2) }); err != nil {
		t.Fatal(err)
	}
	events.waitFor(t, "document")
	c := contract()
	if !slices.ContainsFunc(c.Operations, func(op struct{ ID string }) bool { return op.ID == "listOrders" }) ||
		!slices.ContainsFunc(c.Resources, func(r struct{ Name string }) bool { return r.Name == "orders" }) {
		t.Errorf("contract after the reload lacks the orders: %+v %+v", c.Operations, c.Resources)
	}
	if d := c.Document; d.Reloads != 1 || d.Refused != nil || d.Last == nil || !slices.Equal(d.Last.AddedResources, []string{"orders"}) || d.Last.Kept["pets"] != catalogue.DefaultCount {
		t.Errorf("contract's document after the reload: %+v, last %+v", d, d.Last)
	}
	if resp := ts.admin(t, "GET", "orders", ""); resp.StatusCode != 200 {
		t.Errorf("GET /__petmock/orders after the reload: %s", resp)
	}
	if resp := ts.do(t, "GET", "/store/orders?limit=2", ""); resp.StatusCode != 200 {
		t.Errorf("GET /v1/store/orders after the reload: %s", resp)
	}
	req, _ := http.NewRequest("GET", hs.URL+"/openapi.yaml", nil)
	if resp := ts.send(t, req); resp.StatusCode != 200 || !strings.Contains(string(resp.body), "operationId: listOrders") {
		t.Errorf("GET /openapi.yaml after the reload: %d, want the new document", resp.StatusCode)
	}
	// The stream of the first handler is one of the two the caps allow.
	if status, _ := streamStatus(t, hs.Client(), hs.URL); status != 200 {
		t.Errorf("a second stream, within the cap of 2: %d", status)
	}
	if status, _ := streamStatus(t, hs.Client(), hs.URL); status != 503 {
		t.Errorf("a third stream, the stream of the first handler counted: %d, want 503", status)
	}
}
