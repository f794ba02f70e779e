package admin_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

// catalogPage is a page of GET /__petmock/catalogue/{resource}, with the
// path of its next link.
type catalogPage struct {
	Items   []Pet
	Total   int
	Scanned int
	next    string
}

var nextLinkRE = regexp.MustCompile(`^<([^>]+)>; rel="next"$`)

// browse reads one page of the catalogue endpoint; query is what follows
// "catalogue/".
func (ts *testServer) browse(t testing.TB, query string) catalogPage {
	t.Helper()
	resp := ts.admin(t, "GET", "catalogue/"+query, "")
	var page catalogPage
	if resp.StatusCode != 200 || json.Unmarshal(resp.body, &page) != nil {
		t.Fatalf("GET catalogue/%s: %s", query, resp)
	}
	if link := resp.Header.Get("Link"); link != "" {
		m := nextLinkRE.FindStringSubmatch(link)
		if m == nil {
			t.Fatalf("GET catalogue/%s: Link %q", query, link)
		}
		u, err := url.Parse(m[1])
		if err != nil || !strings.HasPrefix(u.Path, admin.Prefix+"catalogue/") {
			t.Fatalf("GET catalogue/%s: next link %q", query, m[1])
		}
		page.next = strings.TrimPrefix(u.Path, admin.Prefix+"catalogue/") + "?" + u.RawQuery
	}
	return page
}

// walk follows the next links from query to the end, and returns the ids
// of every page's items in order, and how many pages it read.
func (ts *testServer) walk(t testing.TB, query string) (ids []int64, pages int) {
	t.Helper()
	for query != "" && pages < 100 {
		page := ts.browse(t, query)
		for _, p := range page.Items {
			ids = append(ids, p.ID)
		}
		pages++
		query = page.next
	}
	return ids, pages
}

func TestBrowseWalksTheCatalogue(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	all := ts.do(t, "GET", "/pets?limit=100", "").pets(t)
	sold := 0
	for _, p := range all {
		if p.Status == "sold" {
			sold++
		}
	}
	for _, tt := range []struct {
		query     string
		wantPages int
		keep      func(Pet) bool
		desc      bool
	}{
		{"pets", 3, func(Pet) bool { return true }, false},
		{"pets?limit=7&order=asc", 8, func(Pet) bool { return true }, false},
		{"pets?limit=7&order=desc", 8, func(Pet) bool { return true }, true},
		{"pets?status=sold&limit=3&order=desc", (sold + 2) / 3, func(p Pet) bool { return p.Status == "sold" }, true},
	} {
		var want []int64
		for _, p := range all {
			if tt.keep(p) {
				want = append(want, p.ID)
			}
		}
		if tt.desc {
			for i, j := 0, len(want)-1; i < j; i, j = i+1, j-1 {
				want[i], want[j] = want[j], want[i]
			}
		}
		got, pages := ts.walk(t, tt.query)
		if pages != tt.wantPages || !equalIDs(got, want) {
			t.Errorf("walk of %s: %d pages of %v, want %d pages of %v", tt.query, pages, got, tt.wantPages, want)
		}
		first := ts.browse(t, tt.query)
		if total := len(want); first.Total != total {
			t.Errorf("GET catalogue/%s: total %d, want %d", tt.query, first.Total, total)
		}
	}
	// A pet created is first when newest come first.
	created := ts.do(t, "POST", "/pets", `{"name":"Newest","categoryId":1}`).pet(t)
	if page := ts.browse(t, "pets?order=desc&limit=1"); len(page.Items) != 1 || page.Items[0] != created {
		t.Errorf("newest first after a create: %+v, want %+v", page.Items, created)
	}
}

func TestBrowseSearchesValues(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{Items: items([]Pet{
		{ID: 1, Name: "Rex", CategoryID: 1, Status: "available"},
		{ID: 2, Name: "T-Rex junior", CategoryID: 22, Status: "sold"},
		{ID: 3, Name: "Bella", CategoryID: 3, Status: "pending"},
		{ID: 4, Name: "name", CategoryID: 4, Status: "sold"},
		{ID: 5, Name: `Tom & Jerry <3 "Été"`, CategoryID: 5, Status: "sold"},
	})})
	for _, tt := range []struct {
		query string
		want  []int64
	}{
		{"pets?q=rex", []int64{1, 2}},
		{"pets?q=REX&status=sold", []int64{2}},
		{"pets?q=22", []int64{2}},
		{"pets?q=pending", []int64{3}},
		// The name of a property is no value: only the pet named so.
		{"pets?q=name", []int64{4}},
		{"pets?q=categoryId", nil},
		// Characters a JSON text may hold escaped are found all the same.
		{"pets?q=" + url.QueryEscape(`"été"`), []int64{5}},
		{"pets?q=" + url.QueryEscape(`& jerry <3`), []int64{5}},
		{"pets?q=" + url.QueryEscape(`\`), nil},
	} {
		page := ts.browse(t, tt.query)
		var got []int64
		for _, p := range page.Items {
			got = append(got, p.ID)
		}
		if !equalIDs(got, tt.want) || page.next != "" {
			t.Errorf("GET catalogue/%s: %v (next %q), want %v", tt.query, got, page.next, tt.want)
		}
	}
}

// TestBrowseSearchIsBounded checks that one page of a search looks at no
// more than ten thousand items, and that its next link carries on from
// there, so that a search of a large store costs a bounded time a page.
func TestBrowseSearchIsBounded(t *testing.T) {
	const n = 25_000
	ts := newTestServer(t, mockserver.Config{Catalogue: &catalogue.Seeded{Seed: 3, Count: n}})
	created := ts.do(t, "POST", "/pets", `{"name":"Needle in the haystack","categoryId":1}`).pet(t)
	query := "pets?q=haystack&order=asc"
	var found []int64
	var scanned []int
	for query != "" {
		page := ts.browse(t, query)
		scanned = append(scanned, page.Scanned)
		for _, p := range page.Items {
			found = append(found, p.ID)
		}
		query = page.next
	}
	if !equalIDs(found, []int64{created.ID}) {
		t.Errorf("search for the pet created last found %v, want [%d]", found, created.ID)
	}
	if want := []int{10_000, 10_000, 5_001}; len(scanned) != len(want) || scanned[0] != want[0] || scanned[1] != want[1] || scanned[2] != want[2] {
		t.Errorf("items scanned by each page: %v, want %v", scanned, want)
	}
}

func TestBrowseRefusesBadQueries(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	for _, tt := range []struct{ query, want string }{
		{"pets?limit=0", "limit: must be at least 1"},
		{"pets?limit=101", "limit: must be at most 100"},
		{"pets?order=up", "order: must be one of asc, desc"},
		{"pets?status=lost", "status: lost: want one of available, pending, sold"},
		{"pets?cursor=nope", "cursor: is not a cursor this server issued"},
		{"pets?q=" + strings.Repeat("x", 201), "q: must be at most 200 characters long"},
	} {
		resp := ts.admin(t, "GET", "catalogue/"+tt.query, "")
		if resp.StatusCode != 400 || !strings.HasPrefix(resp.apiError(t).Message, tt.want) {
			t.Errorf("GET catalogue/%s: %s, want 400 %q", tt.query, resp, tt.want)
		}
	}
	for _, tt := range []struct {
		method, name string
		want         int
	}{{"GET", "catalogue/owners", 404}, {"GET", "catalogue/", 404}, {"PUT", "catalogue/pets", 405}} {
		if resp := ts.admin(t, tt.method, tt.name, ""); resp.StatusCode != tt.want {
			t.Errorf("%s %s: %s, want %d", tt.method, tt.name, resp, tt.want)
		}
	}
	if resp := ts.admin(t, "GET", "catalogue/pets", "", ""); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET catalogue/pets without a key: %s, want 401", resp)
	}
}

// TestBrowseLeavesTheAppAlone checks that reading the catalogue is not an
// API request: not journaled, and it takes no answer forced for the app.
func TestBrowseLeavesTheAppAlone(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	ts.admin(t, "POST", "forced", `{"code":503}`)
	ts.browse(t, "pets")
	if j := ts.journal(t); len(j) != 0 {
		t.Errorf("browsing was journaled: %+v", j)
	}
	if f := ts.forced(t); len(f) != 1 || f[0].Remaining != 1 {
		t.Errorf("browsing took a forced answer: %+v", f)
	}
}

func equalIDs(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
