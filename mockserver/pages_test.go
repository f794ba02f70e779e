package mockserver_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/spec"
)

// answerOf serves one request of s, with petmock's key, and returns the
// answer. host, when not "", is the Host it is sent to.
func answerOf(tb testing.TB, s http.Handler, method, target, host, body string) *httptest.ResponseRecorder {
	tb.Helper()
	r := httptest.NewRequest(method, "http://petmock"+target, strings.NewReader(body))
	if host != "" {
		r.Host = host
	}
	r.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

// page is what a list answered: its status, body and Link.
type page struct {
	status int
	body   string
	link   string
}

func pageOf(tb testing.TB, s http.Handler, target, host string) page {
	tb.Helper()
	w := answerOf(tb, s, "GET", target, host, "")
	return page{w.Code, w.Body.String(), w.Header().Get("Link")}
}

// TestKeptPagesAreNeverStale holds that a page asked again is answered as
// a page made anew would be: the same bytes while nothing changed, and
// after a create, a reset, a fixture loaded, a forced answer, a setting
// that fails requests, and a reload, what each changed. Each step is
// judged against a server that has never answered the request before.
func TestKeptPagesAreNeverStale(t *testing.T) {
	s, err := mockserver.New(mockserver.Config{Catalogue: &catalogue.Seeded{Seed: 5, Count: 5}, JournalSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	const all, first = "/v1/pets?limit=20", "/v1/pets?limit=2"
	// fresh is the page a server that keeps nothing yet answers, of the
	// same items as s.
	fresh := func(target, host string) page {
		t.Helper()
		var export bytes.Buffer
		if _, err := s.Items().Export(&export); err != nil {
			t.Fatal(err)
		}
		other, err := mockserver.New(mockserver.Config{Items: catalogue.Items{}, JournalSize: 10})
		if err != nil {
			t.Fatal(err)
		}
		if err := other.Items().Load(&export); err != nil {
			t.Fatal(err)
		}
		return pageOf(t, other, target, host)
	}
	same := func(step string, got, want page) {
		t.Helper()
		if got != want {
			t.Errorf("%s: answered\n%+v\nwant\n%+v", step, got, want)
		}
	}
	start := pageOf(t, s, all, "")
	startFirst := pageOf(t, s, first, "")
	if startFirst.link == "" {
		t.Fatal("the first page of 2 of 5 pets has no Link to the next")
	}
	for range 3 {
		same("asked again", pageOf(t, s, all, ""), start)
		same("the first page asked again", pageOf(t, s, first, ""), startFirst)
	}
	same("the first page, made anew", startFirst, fresh(first, ""))
	// Another origin is named in the Link.
	elsewhere := pageOf(t, s, first, "elsewhere.example:8080")
	same("another host", elsewhere, fresh(first, "elsewhere.example:8080"))
	if !strings.Contains(elsewhere.link, "http://elsewhere.example:8080/") {
		t.Errorf("the Link names %s, want the host asked", elsewhere.link)
	}
	same("the first host again", pageOf(t, s, first, ""), startFirst)

	if w := answerOf(t, s, "POST", "/v1/pets", "", `{"name":"Kept Not","categoryId":1}`); w.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	created := pageOf(t, s, all, "")
	if !strings.Contains(created.body, "Kept Not") {
		t.Errorf("after a create, the page lacks it: %s", created.body)
	}
	same("after a create", created, fresh(all, ""))

	if _, err := s.Items().Reset(); err != nil {
		t.Fatal(err)
	}
	same("after a reset", pageOf(t, s, all, ""), start)

	fixture := `{"pets": [{"id": 3, "name": "Only", "categoryId": 2}]}`
	if _, err := s.Items().LoadFixture(strings.NewReader(fixture)); err != nil {
		t.Fatal(err)
	}
	loaded := pageOf(t, s, all, "")
	if !strings.Contains(loaded.body, `"Only"`) || strings.Contains(loaded.body, start.body[:20]) {
		t.Errorf("after a fixture, the page is %s", loaded.body)
	}
	same("after a fixture", loaded, fresh(all, ""))

	if err := s.Steering().Force(http.StatusServiceUnavailable, 1, "listPets"); err != nil {
		t.Fatal(err)
	}
	if got := pageOf(t, s, all, ""); got.status != http.StatusServiceUnavailable {
		t.Errorf("with an answer forced: %d, want 503", got.status)
	}
	same("once the forced answer is spent", pageOf(t, s, all, ""), loaded)

	if err := s.Steering().ChangeSettings(map[string]any{"failRate": 1.0}); err != nil {
		t.Fatal(err)
	}
	if got := pageOf(t, s, all, ""); got.status != http.StatusServiceUnavailable {
		t.Errorf("with every request failed: %d, want 503", got.status)
	}
	if err := s.Steering().ChangeSettings(map[string]any{"failRate": 0.0}); err != nil {
		t.Fatal(err)
	}
	same("once requests are no longer failed", pageOf(t, s, all, ""), loaded)

	evolved, err := spec.ReadFile("../testdata/evolved-field.yaml")
	if err != nil {
		t.Fatal(err)
	}
	next, err := mockserver.New(mockserver.Config{Contract: evolved, Items: catalogue.Items{}, JournalSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := next.TakeOver(s, nil); err != nil {
		t.Fatal(err)
	}
	reloaded := pageOf(t, next, all, "")
	if reloaded.status != http.StatusOK || reloaded.body == loaded.body {
		t.Errorf("after a reload that adds a field, the page is unchanged: %d %s", reloaded.status, reloaded.body)
	}
}

// TestKeptPagesInTheJournal holds that the journal shows the answer of a
// page kept as it shows any: the same body, each time it is answered.
func TestKeptPagesInTheJournal(t *testing.T) {
	s, err := mockserver.New(mockserver.Config{Catalogue: &catalogue.Seeded{Seed: 5, Count: 5}, JournalSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := pageOf(t, s, "/v1/pets?limit=20", "").body
	pageOf(t, s, "/v1/pets?limit=20", "")
	answerOf(t, s, "POST", "/v1/pets", "", `{"name":"Later","categoryId":1}`)
	got := s.Journal().Recent(0)
	if len(got) != 3 {
		t.Fatalf("the journal holds %d exchanges, want 3", len(got))
	}
	for _, x := range got[1:] {
		if x.Response.Body != want {
			t.Errorf("the journal shows %q, want %q", x.Response.Body, want)
		}
	}
	if !strings.Contains(got[0].Response.Body, "Later") {
		t.Errorf("the journal shows the create's answer as %q", got[0].Response.Body)
	}
}
