package mockserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec/fake"
)

func TestAuthentication(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{APIKeys: []string{"k1", "second-key"}})
	requests := []struct{ method, path, body string }{
		{"GET", "/pets", ""},
		{"POST", "/pets", `{"name":"Rex","categoryId":1}`},
		{"GET", "/pets/1", ""},
	}
	tests := []struct {
		name, authorization string
		wantStatus          int
		wantMessage         string
		wantChallenge       string
	}{
		{"no header", "", 401, "authorization: missing", `Bearer realm="petstore"`},
		{"unknown key", "Bearer nope", 401, "authorization: unknown API key", `Bearer realm="petstore", error="invalid_token"`},
		{"key as Basic", "Basic k1", 401, "authorization: scheme must be Bearer", `Bearer realm="petstore", error="invalid_request"`},
		{"bare key", "k1", 401, "authorization: malformed", `Bearer realm="petstore", error="invalid_request"`},
		{"scheme alone", "Bearer", 401, "authorization: malformed", `Bearer realm="petstore", error="invalid_request"`},
		{"prefix of a key", "Bearer k", 401, "authorization: unknown API key", `Bearer realm="petstore", error="invalid_token"`},
		{"first key", "Bearer k1", 0, "", ""},
		{"second key", "Bearer second-key", 0, "", ""},
		{"scheme in lower case", "bearer k1", 0, "", ""},
	}
	for _, rq := range requests {
		for _, tt := range tests {
			resp := ts.do(t, rq.method, rq.path, rq.body, "Authorization", tt.authorization)
			what := fmt.Sprintf("%s /v1%s with %s", rq.method, rq.path, tt.name)
			if tt.wantStatus == 0 {
				if resp.StatusCode >= 300 {
					t.Errorf("%s: status = %d, want success: %s", what, resp.StatusCode, resp.body)
				}
				continue
			}
			if resp.StatusCode != tt.wantStatus {
				t.Errorf("%s: status = %d, want %d", what, resp.StatusCode, tt.wantStatus)
				continue
			}
			e := resp.apiError(t)
			if !strings.HasPrefix(e.Message, tt.wantMessage) || e.Code != edge.CodeUnauthorized {
				t.Errorf("%s: error = %+v, want code %s and a message starting %q", what, e, edge.CodeUnauthorized, tt.wantMessage)
			}
			if got := resp.Header.Get("WWW-Authenticate"); got != tt.wantChallenge {
				t.Errorf("%s: WWW-Authenticate = %q, want %q", what, got, tt.wantChallenge)
			}
			if strings.Contains(string(resp.body), "k1") {
				t.Errorf("%s: the answer repeats the key: %s", what, resp.body)
			}
		}
	}
}

// TestAuthenticationComesFirst checks that an unauthenticated request is
// refused for its key, whatever else is wrong with it.
func TestAuthenticationComesFirst(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	tests := []struct{ method, path, body string }{
		{"GET", "/pets?limit=0", ""},
		{"POST", "/pets", `{"name":`},
		{"GET", "/pets/abc", ""},
		{"POST", "/pets", strings.Repeat("x", mockserver.MaxBodyBytes+1)},
	}
	for _, tt := range tests {
		resp := ts.do(t, tt.method, tt.path, tt.body, "Authorization", "")
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s /v1%s without a key: status = %d, want 401", tt.method, tt.path, resp.StatusCode)
		}
	}
}

func TestBadRequests(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	tests := []struct {
		method, path, body string
		contentType        string
		wantStatus         int
		wantMessage        string
	}{
		{"GET", "/pets?limit=0", "", "", 400, "limit: must be at least 1"},
		{"GET", "/pets?limit=101", "", "", 400, "limit: must be at most 100"},
		{"GET", "/pets?limit=-5", "", "", 400, "limit: must be at least 1"},
		{"GET", "/pets?limit=abc", "", "", 400, "limit: must be an integer"},
		{"GET", "/pets?limit=2.5", "", "", 400, "limit: must be an integer"},
		{"GET", "/pets?limit=", "", "", 400, "limit: must not be empty"},
		{"GET", "/pets?limit=99999999999999999999", "", "", 400, "limit: must be at most 100"},
		{"GET", "/pets?limit=2147483648", "", "", 400, "limit: must be at most 100"},
		{"GET", "/pets?limit=-2147483649", "", "", 400, "limit: must be at least 1"},
		{"GET", "/pets?limit=1&limit=2", "", "", 400, "limit: must be given at most once"},
		{"GET", "/pets?status=lost", "", "", 400, "status: must be one of available, pending, sold"},
		{"GET", "/pets?status=Available", "", "", 400, "status: must be one of available, pending, sold"},
		{"GET", "/pets?cursor=bogus", "", "", 400, "cursor: is not a cursor this server issued"},
		{"GET", "/pets?cursor=" + strings.Repeat("A", 65), "", "", 400, "cursor: must be at most 64 characters long"},
		{"GET", "/pets/abc", "", "", 400, "petId: must be an integer (int64)"},
		{"GET", "/pets/1.5", "", "", 400, "petId: must be an integer (int64)"},
		{"GET", "/pets/99999999999999999999", "", "", 400, "petId: must be an integer (int64)"},
		{"POST", "/pets", `{"categoryId":1}`, "application/json", 400, "name: is required"},
		{"POST", "/pets", `{"name":"Rex"}`, "application/json", 400, "categoryId: is required"},
		{"POST", "/pets", `{"name":7,"categoryId":1}`, "application/json", 400, "name: must be a string"},
		{"POST", "/pets", `{"name":"Rex","categoryId":"1"}`, "application/json", 400, "categoryId: must be an integer (int64)"},
		{"POST", "/pets", `{"name":"Rex","categoryId":1.5}`, "application/json", 400, "categoryId: must be an integer (int64)"},
		{"POST", "/pets", `{"name":"Rex","categoryId":9223372036854775808}`, "application/json", 400, "categoryId: must be an integer (int64)"},
		{"POST", "/pets", `{"name":"Rex","categoryId":-9223372036854775809}`, "application/json", 400, "categoryId: must be an integer (int64)"},
		{"POST", "/pets", `{"name":"Rex","categoryId":1e400}`, "application/json", 400, "categoryId: must be an integer (int64)"},
		{"POST", "/pets", `{"name":"Rex","categoryId":null}`, "application/json", 400, "categoryId: must not be null"},
		{"POST", "/pets", `{"name":null,"categoryId":1}`, "application/json", 400, "name: must not be null"},
		{"POST", "/pets", `{"name":"Rex","categoryId":1,"status":"lost"}`, "application/json", 400, "status: must be one of available, pending, sold"},
		{"POST", "/pets", `{"name":"Rex","categoryId":1,"status":null}`, "application/json", 400, "status: must be one of available, pending, sold"},
		{"POST", "/pets", `null`, "application/json", 400, "body: must not be null"},
		{"POST", "/pets", `[{"name":"Rex","categoryId":1}]`, "application/json", 400, "body: must be a JSON object"},
		{"POST", "/pets", `"Rex"`, "application/json", 400, "body: must be a JSON object"},
		{"POST", "/pets", `{"name":"Rex",`, "application/json", 400, "body: malformed JSON"},
		{"POST", "/pets", `{"name":"Rex","categoryId":1} {}`, "application/json", 400, "body: malformed JSON: data after the JSON value"},
		{"POST", "/pets", ``, "application/json", 400, "body: is required"},
		{"POST", "/pets", `{"name":"Rex","categoryId":1}`, "text/plain", 415, "content-type: must be application/json, not text/plain"},
		{"POST", "/pets", `{"name":"Rex","categoryId":1}`, "", 415, "content-type: must be application/json, not none"},
		{"GET", "/store/orders", "", "", 404, "path: /v1/store/orders is not an operation of this API"},
		{"GET", "/pets/", "", "", 404, "path: /v1/pets/ is not an operation of this API"},
		{"DELETE", "/pets/1", "", "", 405, "method: DELETE is not allowed on /v1/pets/1; use GET, HEAD, OPTIONS"},
		{"PUT", "/pets", "", "", 405, "method: PUT is not allowed on /v1/pets; use GET, HEAD, POST, OPTIONS"},
	}
	before := ts.Items().Store("pets").Len()
	for _, tt := range tests {
		resp := ts.do(t, tt.method, tt.path, tt.body, "Content-Type", tt.contentType)
		what := tt.method + " /v1" + tt.path
		if tt.body != "" {
			what += " " + tt.body
		}
		if resp.StatusCode != tt.wantStatus {
			t.Errorf("%s: status = %d, want %d: %s", what, resp.StatusCode, tt.wantStatus, resp.body)
			continue
		}
		if e := resp.apiError(t); !strings.HasPrefix(e.Message, tt.wantMessage) {
			t.Errorf("%s: message = %q, want it to start %q", what, e.Message, tt.wantMessage)
		}
	}
	if after := ts.Items().Store("pets").Len(); after != before {
		t.Errorf("refused requests changed the store: %d pets, want %d", after, before)
	}
}

func TestMethodNotAllowedSendsAllow(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	tests := []struct{ method, path, want string }{
		{"DELETE", "/pets/1", "GET, HEAD, OPTIONS"},
		{"PATCH", "/pets", "GET, HEAD, POST, OPTIONS"},
		{"POST", "/pets/1", "GET, HEAD, OPTIONS"},
	}
	for _, tt := range tests {
		resp := ts.do(t, tt.method, tt.path, "")
		if resp.StatusCode != 405 || resp.Header.Get("Allow") != tt.want {
			t.Errorf("%s /v1%s: %d with Allow %q, want 405 with Allow %q", tt.method, tt.path, resp.StatusCode, resp.Header.Get("Allow"), tt.want)
		}
	}
}

// countingReader counts the bytes taken from it, and has no end of its own.
type countingReader struct {
	mu sync.Mutex
	n  int64
}

func (r *countingReader) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := range p {
		p[i] = ' '
	}
	r.n += int64(len(p))
	return len(p), nil
}

func (r *countingReader) count() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

func TestBodyLimit(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	t.Run("just under the limit is read", func(t *testing.T) {
		body := `{"name":"Rex","categoryId":1}` + strings.Repeat(" ", mockserver.MaxBodyBytes-30)
		resp := ts.do(t, "POST", "/pets", body)
		if resp.StatusCode != 201 {
			t.Errorf("POST /v1/pets with %d bytes: status = %d, want 201: %s", len(body), resp.StatusCode, resp.body)
		}
	})
	t.Run("declared length over the limit", func(t *testing.T) {
		resp := ts.do(t, "POST", "/pets", strings.Repeat(" ", mockserver.MaxBodyBytes+1))
		if resp.StatusCode != 413 || resp.apiError(t).Message != "body: larger than 1048576 bytes" {
			t.Errorf("POST /v1/pets with 1 MiB + 1: %s, want 413", resp)
		}
	})
	t.Run("endless chunked body is not read to its end", func(t *testing.T) {
		src := &countingReader{}
		const sent = 64 << 20
		req, err := http.NewRequest("POST", ts.URL+"/pets", io.LimitReader(src, sent))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := ts.client.Do(req)
		if err != nil {
			// The server may close the connection while the client is
			// still writing; the status has then been sent already.
			t.Logf("client: %v", err)
		} else {
			resp.Body.Close()
			if resp.StatusCode != 413 {
				t.Errorf("status = %d, want 413", resp.StatusCode)
			}
		}
		if n := src.count(); n > 16<<20 {
			t.Errorf("the server took %d bytes of a %d-byte body; it must stop soon after %d", n, sent, mockserver.MaxBodyBytes)
		}
	})
}

func TestCreateThenRead(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{Items: items([]Pet{})})
	tests := []struct {
		body string
		want Pet
	}{
		{`{"name":"Rex","categoryId":3,"status":"sold"}`, Pet{ID: 1, Name: "Rex", CategoryID: 3, Status: "sold"}},
		{`{"name":"Bella","categoryId":2}`, Pet{ID: 2, Name: "Bella", CategoryID: 2, Status: "available"}},
		{`{"name":"Max","categoryId":9223372036854775807,"status":"pending"}`, Pet{ID: 3, Name: "Max", CategoryID: 9223372036854775807, Status: "pending"}},
		{`{"name":"Min","categoryId":-9223372036854775808}`, Pet{ID: 4, Name: "Min", CategoryID: -9223372036854775808, Status: "available"}},
		{`{"name":"Exp","categoryId":1e2}`, Pet{ID: 5, Name: "Exp", CategoryID: 100, Status: "available"}},
		{`{"name":"Dot","categoryId":4.0}`, Pet{ID: 6, Name: "Dot", CategoryID: 4, Status: "available"}},
		{`{"name":"","categoryId":0,"extra":true,"NAME":"shadow"}`, Pet{ID: 7, Name: "", CategoryID: 0, Status: "available"}},
		{`{"name":"<Zoë> & \"Co\"\u2028","categoryId":1}`, Pet{ID: 8, Name: "<Zoë> & \"Co\"\u2028", CategoryID: 1, Status: "available"}},
	}
	for _, tt := range tests {
		resp := ts.do(t, "POST", "/pets", tt.body)
		if resp.StatusCode != 201 {
			t.Errorf("POST /v1/pets %s: status = %d, want 201: %s", tt.body, resp.StatusCode, resp.body)
			continue
		}
		if got := resp.pet(t); got != tt.want {
			t.Errorf("POST /v1/pets %s: created %+v, want %+v", tt.body, got, tt.want)
		}
		wantLocation := ts.URL + "/pets/" + strconv.FormatInt(tt.want.ID, 10)
		if got := resp.Header.Get("Location"); got != wantLocation {
			t.Errorf("POST /v1/pets %s: Location = %q, want %q", tt.body, got, wantLocation)
		}
		got := ts.do(t, "GET", "/pets/"+strconv.FormatInt(tt.want.ID, 10), "")
		if got.StatusCode != 200 || !bytes.Equal(got.body, resp.body) {
			t.Errorf("GET the created pet: %s, want 200 %s", got, resp.body)
		}
	}
	list := ts.do(t, "GET", "/pets?limit=100", "").pets(t)
	if len(list) != len(tests) {
		t.Fatalf("GET /v1/pets?limit=100: %d pets, want %d", len(list), len(tests))
	}
	for i, tt := range tests {
		if list[i] != tt.want {
			t.Errorf("GET /v1/pets?limit=100: pet %d = %+v, want %+v", i, list[i], tt.want)
		}
	}
	sold := ts.do(t, "GET", "/pets?status=sold", "").pets(t)
	if len(sold) != 1 || sold[0] != tests[0].want {
		t.Errorf("GET /v1/pets?status=sold = %+v, want only %+v", sold, tests[0].want)
	}
}

func TestGetPetIsDeprecated(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	host := strings.TrimSuffix(ts.URL, "/v1")
	pet := ts.do(t, "GET", "/pets/1", "").pet(t)
	tests := []struct {
		name     string
		path     string
		headers  []string
		status   int
		wantLink string
	}{
		{"found", "/pets/1", nil, 200, "<" + ts.URL + "/pets?status=" + pet.Status + `>; rel="successor-version"`},
		{"not found", "/pets/424242", nil, 404, "<" + ts.URL + `/pets>; rel="successor-version"`},
		{"not an integer", "/pets/x", nil, 400, "<" + ts.URL + `/pets>; rel="successor-version"`},
		{"no key", "/pets/1", []string{"Authorization", ""}, 401, "<" + ts.URL + `/pets>; rel="successor-version"`},
	}
	for _, tt := range tests {
		resp := ts.do(t, "GET", tt.path, "", tt.headers...)
		if resp.StatusCode != tt.status {
			t.Errorf("%s: status = %d, want %d", tt.name, resp.StatusCode, tt.status)
		}
		want := map[string]string{
			"Deprecation": "@1767225600",
			"Sunset":      "Thu, 05 Dec 2030 00:00:00 GMT",
			"Link":        tt.wantLink,
		}
		for name, value := range want {
			if got := resp.Header.Get(name); got != value {
				t.Errorf("GET /v1%s (%s): %s = %q, want %q", tt.path, tt.name, name, got, value)
			}
		}
	}
	_ = host
	for _, path := range []string{"/pets", "/pets?limit=1"} {
		if d := ts.do(t, "GET", path, "").Header.Get("Deprecation"); d != "" {
			t.Errorf("GET /v1%s: Deprecation = %q on an operation that is not deprecated", path, d)
		}
	}
}

func TestListLimits(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	tests := []struct {
		query string
		want  int
	}{
		{"", 20},
		{"?limit=1", 1},
		{"?limit=37", 37},
		{"?limit=50", 50},
		{"?limit=100", 50},
		{"?status=sold&limit=100", -1},
	}
	for _, tt := range tests {
		pets := ts.do(t, "GET", "/pets"+tt.query, "").pets(t)
		if tt.want >= 0 && len(pets) != tt.want {
			t.Errorf("GET /v1/pets%s: %d pets, want %d", tt.query, len(pets), tt.want)
		}
		if !slices.IsSortedFunc(pets, func(a, b Pet) int { return int(a.ID - b.ID) }) {
			t.Errorf("GET /v1/pets%s: not ordered by id", tt.query)
		}
	}
}

func TestStatusFilter(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	all := ts.do(t, "GET", "/pets?limit=100", "").pets(t)
	for _, status := range []string{"available", "pending", "sold"} {
		var want []Pet
		for _, p := range all {
			if p.Status == status {
				want = append(want, p)
			}
		}
		got := ts.do(t, "GET", "/pets?limit=100&status="+status, "").pets(t)
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("GET /v1/pets?status=%s: %d pets, want the %d of the catalogue with that status", status, len(got), len(want))
		}
	}
}

var linkNext = regexp.MustCompile(`^<([^>]+)>; rel="next"$`)

// walk follows the Link headers from the first page and returns every pet
// it saw, and the number of pages.
func walk(t *testing.T, ts *testServer, first string) ([]Pet, int) {
	t.Helper()
	var all []Pet
	url := ts.URL + first
	pages := 0
	for url != "" {
		if pages > 10_000 {
			t.Fatalf("walking from %s: still going after %d pages", first, pages)
		}
		req, _ := http.NewRequest("GET", url, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		resp := ts.send(t, req)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %s", url, resp)
		}
		pages++
		all = append(all, resp.pets(t)...)
		url = ""
		if link := resp.Header.Get("Link"); link != "" {
			m := linkNext.FindStringSubmatch(link)
			if m == nil {
				t.Fatalf("GET %s: Link %q is not a next link", req.URL, link)
			}
			url = m[1]
		}
	}
	return all, pages
}

func TestPagination(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	all := ts.do(t, "GET", "/pets?limit=100", "").pets(t)
	if len(all) != catalogue.DefaultCount {
		t.Fatalf("catalogue: %d pets, want %d", len(all), catalogue.DefaultCount)
	}
	if link := ts.do(t, "GET", "/pets?limit=100", "").Header.Get("Link"); link != "" {
		t.Errorf("last page: Link = %q, want none", link)
	}
	tests := []struct {
		first     string
		status    string
		wantPages int
	}{
		{"/pets?limit=7", "", 8},
		{"/pets", "", 3},
		{"/pets?limit=50", "", 1},
		{"/pets?limit=49", "", 2},
		{"/pets?limit=3&status=pending", "pending", -1},
	}
	for _, tt := range tests {
		got, pages := walk(t, ts, tt.first)
		var want []Pet
		for _, p := range all {
			if tt.status == "" || p.Status == tt.status {
				want = append(want, p)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("walking from %s: %d pets, want each of the %d exactly once, in order", tt.first, len(got), len(want))
		}
		if tt.wantPages >= 0 && pages != tt.wantPages {
			t.Errorf("walking from %s: %d pages, want %d", tt.first, pages, tt.wantPages)
		}
	}
}

// TestPaginationSeesNewPets checks that pets created during a walk appear
// at its end, and that no pet is seen twice.
func TestPaginationSeesNewPets(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	first := ts.do(t, "GET", "/pets?limit=30", "")
	created := ts.do(t, "POST", "/pets", `{"name":"Late","categoryId":1}`).pet(t)
	m := linkNext.FindStringSubmatch(first.Header.Get("Link"))
	if m == nil {
		t.Fatalf("first page: no next link")
	}
	req, _ := http.NewRequest("GET", m[1], nil)
	req.Header.Set("Authorization", "Bearer "+key)
	rest := ts.send(t, req).pets(t)
	all := append(first.pets(t), rest...)
	if len(all) != catalogue.DefaultCount+1 || all[len(all)-1] != created {
		t.Errorf("walk: %d pets ending with %+v, want %d ending with the new %+v", len(all), all[len(all)-1], catalogue.DefaultCount+1, created)
	}
}

func TestSeededCatalogueRepeats(t *testing.T) {
	page := func(cfg mockserver.Config) []byte {
		return newTestServer(t, cfg).do(t, "GET", "/pets?limit=100", "").body
	}
	gen := func(seed uint64, count int) catalogue.Items {
		pets, err := generate(catalogue.Seeded{Seed: seed, Count: count})
		if err != nil {
			t.Fatal(err)
		}
		return items(pets)
	}
	a := page(mockserver.Config{})
	if b := page(mockserver.Config{}); !bytes.Equal(a, b) {
		t.Errorf("two default starts differ:\n%s\n%s", a, b)
	}
	if b := page(mockserver.Config{Items: gen(catalogue.DefaultSeed, catalogue.DefaultCount)}); !bytes.Equal(a, b) {
		t.Errorf("the default start differs from seed %d with %d pets", catalogue.DefaultSeed, catalogue.DefaultCount)
	}
	if b := page(mockserver.Config{Items: gen(2, catalogue.DefaultCount)}); bytes.Equal(a, b) {
		t.Errorf("seeds 1 and 2 give the same catalogue")
	}
	if b, c := page(mockserver.Config{Items: gen(0, 10)}), page(mockserver.Config{Items: gen(0, 10)}); !bytes.Equal(b, c) {
		t.Errorf("seed 0 does not repeat")
	}
}

func TestSeededCatalogueLooksReal(t *testing.T) {
	pets, err := generate(catalogue.Seeded{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pets) != catalogue.DefaultCount {
		t.Fatalf("%d pets, want %d", len(pets), catalogue.DefaultCount)
	}
	statuses := map[string]int{}
	names := map[string]bool{}
	for i, p := range pets {
		if p.ID != int64(i+1) {
			t.Errorf("pet %d: id %d, want %d", i, p.ID, i+1)
		}
		if !slices.Contains(fake.Categories, p.CategoryID) {
			t.Errorf("pet %d: category %d, not one of %v", p.ID, p.CategoryID, fake.Categories)
		}
		if p.Name == "" || strings.ToUpper(p.Name[:1]) != p.Name[:1] {
			t.Errorf("pet %d: name %q does not look like a pet name", p.ID, p.Name)
		}
		statuses[p.Status]++
		names[p.Name] = true
	}
	for _, s := range []string{"available", "pending", "sold"} {
		if statuses[s] == 0 {
			t.Errorf("no pet is %s: %v", s, statuses)
		}
	}
	if len(names) < 20 {
		t.Errorf("only %d distinct names in %d pets", len(names), len(pets))
	}
}

func TestCORS(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	const origin = "http://localhost:5173"
	t.Run("preflight", func(t *testing.T) {
		resp := ts.do(t, "OPTIONS", "/pets", "",
			"Authorization", "",
			"Origin", origin,
			"Access-Control-Request-Method", "POST",
			"Access-Control-Request-Headers", "authorization, content-type, x-request-id")
		if resp.StatusCode != http.StatusNoContent {
			t.Errorf("preflight: status = %d, want 204", resp.StatusCode)
		}
		want := map[string]string{
			"Access-Control-Allow-Origin":      origin,
			"Access-Control-Allow-Credentials": "true",
			"Access-Control-Allow-Methods":     "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
			"Access-Control-Allow-Headers":     "Authorization, Content-Type, Prefer, x-request-id",
		}
		for name, value := range want {
			if got := resp.Header.Get(name); got != value {
				t.Errorf("preflight: %s = %q, want %q", name, got, value)
			}
		}
	})
	for _, tt := range []struct {
		name   string
		method string
		path   string
		h      []string
		status int
	}{
		{"list", "GET", "/pets", []string{"Origin", origin}, 200},
		{"unauthorized", "GET", "/pets", []string{"Origin", origin, "Authorization", ""}, 401},
		{"not found", "GET", "/pets/999", []string{"Origin", origin}, 404},
		{"bad request", "GET", "/pets?limit=0", []string{"Origin", origin}, 400},
	} {
		resp := ts.do(t, tt.method, tt.path, "", tt.h...)
		if resp.StatusCode != tt.status {
			t.Errorf("%s: status = %d, want %d", tt.name, resp.StatusCode, tt.status)
		}
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != origin {
			t.Errorf("%s: Access-Control-Allow-Origin = %q, want %q", tt.name, got, origin)
		}
		expose := resp.Header.Get("Access-Control-Expose-Headers")
		for _, h := range []string{"Link", "Location", "Deprecation", "Sunset", "Preference-Applied"} {
			if !strings.Contains(expose, h) {
				t.Errorf("%s: Access-Control-Expose-Headers = %q, want it to list %s", tt.name, expose, h)
			}
		}
	}
	t.Run("plain OPTIONS", func(t *testing.T) {
		root := strings.TrimSuffix(ts.URL, "/v1")
		for _, tt := range []struct{ url, want string }{
			{ts.URL + "/pets/1", "GET, HEAD, OPTIONS"},
			{ts.URL + "/pets", "GET, HEAD, POST, OPTIONS"},
			{root + "/openapi.yaml", "GET, HEAD, OPTIONS"},
		} {
			req, _ := http.NewRequest("OPTIONS", tt.url, nil)
			resp := ts.send(t, req)
			if resp.StatusCode != 204 || resp.Header.Get("Allow") != tt.want {
				t.Errorf("OPTIONS %s: %d with Allow %q, want 204 with %s", tt.url, resp.StatusCode, resp.Header.Get("Allow"), tt.want)
			}
		}
		req, _ := http.NewRequest("OPTIONS", ts.URL+"/nope", nil)
		if resp := ts.send(t, req); resp.StatusCode != 404 {
			t.Errorf("OPTIONS of an unknown path: %d, want 404", resp.StatusCode)
		}
	})
}

func TestHeadIsAnsweredLikeGet(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	get := ts.do(t, "GET", "/pets", "")
	head := ts.do(t, "HEAD", "/pets", "")
	if head.StatusCode != 200 || len(head.body) != 0 || head.Header.Get("Content-Length") != get.Header.Get("Content-Length") {
		t.Errorf("HEAD /v1/pets: %d, %d body bytes, Content-Length %q; want 200, none, %q",
			head.StatusCode, len(head.body), head.Header.Get("Content-Length"), get.Header.Get("Content-Length"))
	}
}

func TestLogsOneLinePerRequestWithoutKeys(t *testing.T) {
	var buf syncBuffer
	logger := slog.New(slog.NewJSONHandler(&buf, nil))
	ts := newTestServer(t, mockserver.Config{Logger: logger, APIKeys: []string{"s3cret-key"}})
	ts.do(t, "GET", "/pets?limit=2", "", "Authorization", "Bearer s3cret-key")
	ts.do(t, "POST", "/pets", `{"name":"Rex","categoryId":1}`, "Authorization", "Bearer s3cret-key")
	ts.do(t, "GET", "/pets/1", "", "Authorization", "Bearer wrong-s3cret")
	ts.FlushLog()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d log lines, want 3:\n%s", len(lines), buf.String())
	}
	want := []struct {
		method, path string
		status       int
	}{{"GET", "/v1/pets", 200}, {"POST", "/v1/pets", 201}, {"GET", "/v1/pets/1", 401}}
	for i, line := range lines {
		var entry struct {
			Method   string
			Path     string
			Status   int
			Duration *time.Duration
		}
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if entry.Method != want[i].method || entry.Path != want[i].path || entry.Status != want[i].status || entry.Duration == nil {
			t.Errorf("line %d = %s, want %s %s %d with a duration", i, line, want[i].method, want[i].path, want[i].status)
		}
	}
	if strings.Contains(buf.String(), "s3cret") {
		t.Errorf("the log holds a key:\n%s", buf.String())
	}
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		cfg  mockserver.Config
	}{
		{"empty key", mockserver.Config{APIKeys: []string{""}}},
		{"key with a space", mockserver.Config{APIKeys: []string{"a b"}}},
		{"duplicate ids", mockserver.Config{Items: items([]Pet{{ID: 1, Name: "a"}, {ID: 1, Name: "b"}})}},
		{"unknown status", mockserver.Config{Items: items([]Pet{{ID: 1, Name: "a", Status: "lost"}})}},
		{"unknown resource", mockserver.Config{Items: catalogue.Items{"owners": nil}}},
	}
	for _, tt := range tests {
		if _, err := mockserver.New(tt.cfg); err == nil {
			t.Errorf("%s: New succeeded, want an error", tt.name)
		}
	}
}
