package admin_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

func TestAdminNeedsAKey(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	for _, rq := range []struct{ method, name string }{
		{"POST", "reset"}, {"GET", "pets"}, {"PUT", "pets"}, {"GET", "requests"}, {"DELETE", "requests"},
	} {
		for _, auth := range []string{"", "Bearer wrong", "Basic " + key} {
			if resp := ts.admin(t, rq.method, rq.name, "[]", auth); resp.StatusCode != 401 || resp.apiError(t).Code != "unauthorized" {
				t.Errorf("%s %s with %q: %s, want a 401 Error", rq.method, rq.name, auth, resp)
			}
		}
	}
	if ts.Store("pets").Len() != mockserver.DefaultCount {
		t.Errorf("refused admin requests changed the store")
	}
	health := ts.admin(t, "GET", "health", "", "")
	if health.StatusCode != 200 || !strings.Contains(string(health.body), `"status":"ok"`) {
		t.Errorf("GET health without a key: %s, want 200 ok", health)
	}
	for _, tt := range []struct {
		method, name string
		want         int
	}{{"GET", "nope", 404}, {"GET", "reset", 405}, {"POST", "pets", 405}, {"PUT", "health", 405}} {
		resp := ts.admin(t, tt.method, tt.name, "")
		if resp.StatusCode != tt.want || resp.apiError(t).Status != tt.want {
			t.Errorf("%s %s: %s, want a %d Error", tt.method, tt.name, resp, tt.want)
		}
	}
}

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
	if created.ID != mockserver.DefaultCount+1 {
		t.Errorf("first pet after reset has id %d, want %d", created.ID, mockserver.DefaultCount+1)
	}
}

func TestAdminExportAndReplace(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	export := ts.admin(t, "GET", "pets", "")
	var pets []Pet
	if err := json.Unmarshal(export.body, &pets); err != nil || len(pets) != mockserver.DefaultCount {
		t.Fatalf("GET pets: %d pets, %v; want %d", len(pets), err, mockserver.DefaultCount)
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
	if ts.Store("pets").Len() != 3 {
		t.Errorf("refused fixtures changed the store: %d pets, want 3", ts.Store("pets").Len())
	}
}

func TestRequestJournal(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{JournalSize: 3, APIKeys: []string{"journal-secret"}})
	auth := "Bearer journal-secret"
	ts.do(t, "GET", "/pets?limit=1", "", "Authorization", auth)
	ts.do(t, "POST", "/pets", `{"name":"Logged","categoryId":1}`, "Authorization", auth, "Cookie", "session=abc")
	ts.do(t, "GET", "/pets/424242", "", "Authorization", auth)
	ts.do(t, "GET", "/pets?status=lost", "", "Authorization", auth)
	resp := ts.admin(t, "GET", "requests", "", auth)
	if strings.Contains(string(resp.body), "journal-secret") || strings.Contains(string(resp.body), "session=abc") {
		t.Errorf("the journal holds a secret: %s", resp.body)
	}
	// Keys sent anywhere else are hidden too: in other headers, in the
	// query, in the body.
	ts.do(t, "POST", "/pets?access_token=other-token&note=journal-secret", `{"name":"journal-secret","categoryId":1}`,
		"Authorization", auth, "X-Api-Key", "journal-secret", "X-Forwarded-Key", "Bearer journal-secret")
	leaky := ts.admin(t, "GET", "requests?limit=1", "", auth)
	for _, secret := range []string{"journal-secret", "other-token"} {
		if strings.Contains(string(leaky.body), secret) {
			t.Errorf("the journal shows %q: %s", secret, leaky.body)
		}
	}
	var got struct{ Requests []mockserver.Exchange }
	if err := json.Unmarshal(resp.body, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Requests) != 3 {
		t.Fatalf("journal of size 3 holds %d requests", len(got.Requests))
	}
	newest := got.Requests[0]
	if newest.Method != "GET" || newest.Path != "/v1/pets" || newest.Query != "status=lost" || newest.Status != 400 {
		t.Errorf("newest = %+v, want GET /v1/pets?status=lost 400", newest)
	}
	post := got.Requests[2]
	if post.Method != "POST" || post.Status != 201 || post.Request.Body != `{"name":"Logged","categoryId":1}` ||
		!strings.Contains(post.Response.Body, `"name":"Logged"`) || post.Request.Header.Get("Authorization") != "[redacted]" ||
		post.Response.Header.Get("Location") == "" {
		t.Errorf("POST exchange = %+v", post)
	}
	if one := ts.admin(t, "GET", "requests?limit=2", "", auth); !strings.Contains(string(one.body), "status=lost") || strings.Count(string(one.body), `"method"`) != 2 {
		t.Errorf("GET requests?limit=1: %s", one.body)
	}
	ts.admin(t, "DELETE", "requests", "", auth)
	if empty := ts.admin(t, "GET", "requests", "", auth); string(empty.body) != `{"requests":[]}`+"\n" {
		t.Errorf("after DELETE requests: %s", empty.body)
	}
}

func TestJournalTurnedOff(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{JournalSize: -1})
	ts.do(t, "GET", "/pets", "")
	for _, method := range []string{"GET", "DELETE"} {
		if resp := ts.admin(t, method, "requests", ""); resp.StatusCode != 200 || string(resp.body) != `{"requests":[]}`+"\n" {
			t.Errorf("%s requests with the journal off: %s, want an empty journal", method, resp)
		}
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
	if ts.Store("pets").Len() != mockserver.DefaultCount {
		t.Errorf("an endless fixture changed the store")
	}
}

// TestAdminStoreFull checks that a fixture a store cannot hold is refused
// with 507, and changes nothing.
func TestAdminStoreFull(t *testing.T) {
	start := []Pet{{ID: 1, Name: "a", CategoryID: 1}, {ID: 2, Name: "b", CategoryID: 1}}
	ts := newTestServer(t, mockserver.Config{Items: items(start), MaxItems: 3})
	resp := ts.admin(t, "PUT", "pets", `[{"id":1,"name":"a","categoryId":1},{"id":2,"name":"b","categoryId":1},{"id":3,"name":"c","categoryId":1},{"id":4,"name":"d","categoryId":1}]`)
	if resp.StatusCode != 507 || resp.apiError(t).Code != mockserver.CodeStoreFull {
		t.Errorf("PUT of 4 pets over a cap of 3: %s, want 507", resp)
	}
	if n := ts.Store("pets").Len(); n != 2 {
		t.Errorf("the refused fixture changed the store: %d pets, want 2", n)
	}
}
