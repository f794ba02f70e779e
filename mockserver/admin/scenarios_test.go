package admin_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/store"
	"github.com/petstore/contract/spec"
)

func TestEmptyThenReset(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	ts.do(t, "POST", "/pets", `{"name":"Gone soon","categoryId":1}`)
	if resp := ts.admin(t, "POST", "empty", ""); resp.StatusCode != 200 || string(resp.body) != `{"pets":0}`+"\n" {
		t.Fatalf("POST empty: %s, want {\"pets\":0}", resp)
	}
	if pets := ts.do(t, "GET", "/pets", "").pets(t); len(pets) != 0 {
		t.Errorf("after POST empty the list holds %d pets", len(pets))
	}
	if p := ts.do(t, "POST", "/pets", `{"name":"First","categoryId":1}`).pet(t); p.ID != 1 {
		t.Errorf("the first pet after POST empty has id %d, want 1", p.ID)
	}
	if resp := ts.admin(t, "POST", "reset", ""); string(resp.body) != `{"pets":50}`+"\n" {
		t.Errorf("POST reset after empty: %s, want the seeded 50", resp)
	}
}

func TestLoadWholeFixture(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	fixture := `[{"id":4,"name":"Four","categoryId":1,"status":"sold"},{"id":9,"name":"Nine","categoryId":2}]`
	if resp := ts.admin(t, "PUT", "fixture", fixture); resp.StatusCode != 200 || string(resp.body) != `{"pets":2}`+"\n" {
		t.Fatalf("PUT fixture: %s", resp)
	}
	if pets := ts.do(t, "GET", "/pets", "").pets(t); len(pets) != 2 || pets[0].Name != "Four" || pets[1].ID != 9 {
		t.Errorf("after PUT fixture: %+v", pets)
	}
	for _, tt := range []struct{ body, want string }{
		{`[{"id":1,"name":"a","categoryId":1},{"id":2,"categoryId":1}]`, "pets[1]: name: is required"},
		{`{"owners":[]}`, `fixture: "owners" is no resource of the document (it has pets)`},
		{`{"pets":{}}`, "pets: fixture: want a JSON array of pets"},
		{`7`, "fixture: want a JSON array of items"},
	} {
		resp := ts.admin(t, "PUT", "fixture", tt.body)
		if resp.StatusCode != 400 || !strings.HasPrefix(resp.apiError(t).Message, tt.want) {
			t.Errorf("PUT fixture %s: %s, want 400 %q", tt.body, resp, tt.want)
		}
	}
	if n := ts.Items().Store("pets").Len(); n != 2 {
		t.Errorf("refused fixtures changed the store: %d pets, want 2", n)
	}
}

// TestLoadFixtureOfSeveralResources checks that a fixture of a document of
// several resources sets each one it names, and returns those it leaves
// out to their starting items, as every file loaded does.
func TestLoadFixtureOfSeveralResources(t *testing.T) {
	c, err := spec.ReadFile("../../testdata/evolved-ops.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, mockserver.Config{Contract: c})
	ts.do(t, "POST", "/pets", `{"name":"Gone after the fixture","categoryId":1}`)
	fixture := `{"orders":[{"id":3,"petId":1,"quantity":2,"status":"placed","complete":false}]}`
	if resp := ts.admin(t, "PUT", "fixture", fixture); resp.StatusCode != 200 || !strings.Contains(string(resp.body), `"orders":1`) || !strings.Contains(string(resp.body), `"pets":50`) {
		t.Errorf("PUT fixture of orders: %s, want 1 order and the 50 starting pets", resp)
	}
	fixture = `{"orders":[],"pets":[]}`
	if resp := ts.admin(t, "PUT", "fixture", fixture); resp.StatusCode != 200 || string(resp.body) != `{"orders":0,"pets":0}`+"\n" {
		t.Errorf("PUT fixture of no order and no pet: %s, want both empty", resp)
	}
}

// TestRefusedFixtureChangesNothing loads a fixture that one resource's
// store cannot hold: it is refused, and no store changes, not even those
// of the resources before that one.
func TestRefusedFixtureChangesNothing(t *testing.T) {
	c, err := spec.ReadFile("../../testdata/evolved-ops.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, mockserver.Config{Contract: c, Items: catalogue.Items{}, MaxItems: 2})
	pets, orders := ts.Items().Store("pets").Entries(), ts.Items().Store("orders").Entries()
	fixture := `{"pets":[{"id":1,"name":"Kept?","categoryId":1}],` +
		`"orders":[{"id":1,"petId":1,"quantity":1},{"id":2,"petId":1,"quantity":1},{"id":3,"petId":1,"quantity":1}]}`
	unchanged := func(how string) {
		t.Helper()
		if got := ts.Items().Store("pets").Entries(); !reflect.DeepEqual(got, pets) {
			t.Errorf("%s changed the pets: %d pets, want the %d there were", how, len(got), len(pets))
		}
		if got := ts.Items().Store("orders").Entries(); !reflect.DeepEqual(got, orders) {
			t.Errorf("%s changed the orders: %d orders, want the %d there were", how, len(got), len(orders))
		}
	}
	if resp := ts.admin(t, "PUT", "fixture", fixture); resp.StatusCode != 507 {
		t.Fatalf("PUT fixture of more orders than the store holds: %s, want 507", resp)
	}
	unchanged("a refused PUT fixture")
	// Server.Load, with which petmock --state starts, likewise.
	if err := ts.Items().Load(strings.NewReader(fixture)); !errors.Is(err, store.ErrStoreFull) {
		t.Fatalf("Load of more orders than the store holds: %v, want ErrStoreFull", err)
	}
	unchanged("a refused Load")
}
