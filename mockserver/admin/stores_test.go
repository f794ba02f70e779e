package admin_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

func TestAdminResetReturnsToTheCatalogue(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	before := ts.do(t, "GET", "/pets?limit=100", "").body
	ts.do(t, "POST", "/pets", `{"name":"Temp","categoryId":1}`)
	ts.admin(t, "PUT", "pets", `[{"id":900,"name":"Other","categoryId":2}]`)
	ts.do(t, "POST", "/pets", `{"name":"Temp2","categoryId":1}`)
	resp := ts.admin(t, "POST", "reset", "")
	if resp.StatusCode != 200 || string(resp.body) != `{"pets":50}`+"\n" {
		t.Errorf("POST reset: %s, want 200 {\"pets\":50}", resp)
	}
	if after := ts.do(t, "GET", "/pets?limit=100", "").body; !bytes.Equal(before, after) {
		t.Errorf("after reset the list differs from the starting catalogue")
	}
	created := ts.do(t, "POST", "/pets", `{"name":"New","categoryId":1}`).pet(t)
	if created.ID != catalogue.DefaultCount+1 {
		t.Errorf("first pet after reset has id %d, want %d", created.ID, catalogue.DefaultCount+1)
	}
}

func TestAdminExportAndReplace(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	export := ts.admin(t, "GET", "pets", "")
	var pets []Pet
	if err := json.Unmarshal(export.body, &pets); err != nil || len(pets) != catalogue.DefaultCount {
		t.Fatalf("GET pets: %d pets, %v; want %d", len(pets), err, catalogue.DefaultCount)
	}
	if export.Header.Get("Content-Type") != "application/json" {
		t.Errorf("GET pets: Content-Type %q", export.Header.Get("Content-Type"))
	}

	fixture := `[{"id":7,"name":"Seven","categoryId":1,"status":"sold"},{"id":3,"name":"Three","categoryId":2}]`
	if resp := ts.admin(t, "PUT", "pets", fixture); resp.StatusCode != 200 || string(resp.body) != `{"pets":2}`+"\n" {
		t.Fatalf("PUT pets: %s", resp)
	}
	list := ts.do(t, "GET", "/pets", "").pets(t)
	want := []Pet{{ID: 3, Name: "Three", CategoryID: 2}, {ID: 7, Name: "Seven", CategoryID: 1, Status: "sold"}}
	if len(list) != 2 || list[0] != want[0] || list[1] != want[1] {
		t.Errorf("after PUT, list = %+v, want %+v", list, want)
	}
	if p := ts.do(t, "POST", "/pets", `{"name":"Next","categoryId":1}`).pet(t); p.ID != 8 {
		t.Errorf("after PUT, next id = %d, want 8", p.ID)
	}

	bad := []struct{ body, want string }{
		{`{"id":1}`, "fixture: want a JSON array of pets"},
		{`[{"id":1,"name":"a","categoryId":1},{"id":2,"categoryId":1}]`, "pets[1]: name: is required"},
		{`[{"id":1,"name":"a","categoryId":1,"status":"lost"}]`, "pets[0]: status: must be one of available, pending, sold"},
		{`[{"id":1,"name":"a","categoryId":1},{"id":1,"name":"b","categoryId":1}]`, "pets[1]: id: 1 is also the id of pets[0]"},
		{`[{"id":1.5,"name":"a","categoryId":1}]`, "pets[0]: id: must be an integer (int64)"},
		{`[{"id":9223372036854775808,"name":"a","categoryId":1}]`, "pets[0]: id: must be an integer (int64)"},
		{`[{"id":1,"name":"a","categoryId":1}`, "fixture: malformed JSON"},
		{`[{"id":1,"name":"a","categoryId":1}] []`, "fixture: data after the array"},
		{`[{"id":1,"name":"a","categoryId":1},]`, "pets[1]: pet: malformed JSON"},
		{`[7]`, "pets[0]: pet: must be a JSON object"},
	}
	for _, tt := range bad {
		resp := ts.admin(t, "PUT", "pets", tt.body)
		if resp.StatusCode != 400 || !strings.HasPrefix(resp.apiError(t).Message, tt.want) {
			t.Errorf("PUT pets %s: %s, want 400 %q", tt.body, resp, tt.want)
		}
	}
	if ts.Items().Store("pets").Len() != 3 {
		t.Errorf("refused fixtures changed the store: %d pets, want 3", ts.Items().Store("pets").Len())
	}
}

// endlessFixture is a fixture that never ends: "[" and then pets.
type endlessFixture struct{ n int }

func (f *endlessFixture) Read(p []byte) (int, error) {
	if f.n == 0 {
		f.n++
		return copy(p, "["), nil
	}
	n := 0
	for {
		pet := `{"id":` + strconv.Itoa(f.n) + `,"name":"` + strings.Repeat("x", 1000) + `","categoryId":1},`
		if n+len(pet) > len(p) {
			return n, nil
		}
		n += copy(p[n:], pet)
		f.n++
	}
}

func TestAdminFixtureSizeLimit(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{}, admin.Config{MaxFixtureBytes: 1 << 20})
	req, _ := http.NewRequest("PUT", ts.root+admin.Prefix+"pets", &endlessFixture{})
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := ts.client.Do(req)
	if err != nil {
		t.Logf("the server closed the connection while the client wrote: %v", err)
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("an endless chunked fixture: status = %d, want 413", resp.StatusCode)
	}
	if ts.Items().Store("pets").Len() != catalogue.DefaultCount {
		t.Errorf("an endless fixture changed the store")
	}
}

// TestAdminStoreFull checks that a fixture a store cannot hold is refused
// with 507, and changes nothing.
func TestAdminStoreFull(t *testing.T) {
	start := []Pet{{ID: 1, Name: "a", CategoryID: 1}, {ID: 2, Name: "b", CategoryID: 1}}
	ts := newTestServer(t, mockserver.Config{Items: items(start), MaxItems: 3})
	resp := ts.admin(t, "PUT", "pets", `[{"id":1,"name":"a","categoryId":1},{"id":2,"name":"b","categoryId":1},{"id":3,"name":"c","categoryId":1},{"id":4,"name":"d","categoryId":1}]`)
	if resp.StatusCode != 507 || resp.apiError(t).Code != edge.CodeStoreFull {
		t.Errorf("PUT of 4 pets over a cap of 3: %s, want 507", resp)
	}
	if n := ts.Items().Store("pets").Len(); n != 2 {
		t.Errorf("the refused fixture changed the store: %d pets, want 2", n)
	}
}
