package admin_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver"
)

// violationsView is the body of GET and DELETE /__petmock/violations.
type violationsView struct {
	Backend    string             `json:"backend"`
	Violations []journal.Exchange `json:"violations"`
}

func (r *response) violations(tb testing.TB) violationsView {
	tb.Helper()
	var v violationsView
	if err := json.Unmarshal(r.body, &v); err != nil {
		tb.Fatalf("decoding %s: %v", r.body, err)
	}
	return v
}

// TestViolations: the backend's answers that break the document are
// listed, newest first, with the backend, its key hidden, and announced
// on the event stream; DELETE forgets them. Without a backend, the list
// is empty and says so.
func TestViolations(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Seen", r.Header.Get("Authorization"))
		w.WriteHeader(http.StatusTeapot)
		io.WriteString(w, `{"code":"teapot","message":"short and stout","status":418}`)
	}))
	defer backend.Close()
	ts := newTestServer(t, mockserver.Config{Proxy: mockserver.Proxy{URL: backend.URL + "/v1", Key: "staging-secret-key"}})
	stream := openEvents(t, &http.Client{}, ts.root)

	// The backend's answers break the document, which the checking client
	// would fail: a plain one sends the API's requests.
	for _, path := range []string{"/pets?limit=1", "/pets/7"} {
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusTeapot || resp.Header.Get(mockserver.SourceHeader) != mockserver.SourceBackend {
			t.Fatalf("GET /v1%s: %d from %q, want the backend's 418", path, resp.StatusCode, resp.Header.Get(mockserver.SourceHeader))
		}
	}
	stream.waitFor(t, "violations")

	got := ts.admin(t, "GET", "violations", "")
	if strings.Contains(string(got.body), "staging-secret-key") {
		t.Errorf("the violations show the backend's key: %s", got.body)
	}
	view := got.violations(t)
	if view.Backend != backend.URL+"/v1" || len(view.Violations) != 2 {
		t.Fatalf("GET violations: %s, want the backend and two answers", got.body)
	}
	if newest := view.Violations[0]; newest.Path != "/v1/pets/7" || newest.Status != 418 || len(newest.Violations) != 1 || newest.Violations[0].Rule != "response.status" {
		t.Errorf("the newest violation is %+v, want GET /v1/pets/7 breaking response.status", newest)
	}
	if one := ts.admin(t, "GET", "violations?limit=1", "").violations(t); len(one.Violations) != 1 {
		t.Errorf("GET violations?limit=1: %d answers", len(one.Violations))
	}
	if cleared := ts.admin(t, "DELETE", "violations", "").violations(t); len(cleared.Violations) != 0 || cleared.Backend == "" {
		t.Errorf("DELETE violations: %+v, want none, and the backend", cleared)
	}
	stream.waitFor(t, "violations")
	if after := ts.admin(t, "GET", "violations", "").violations(t); len(after.Violations) != 0 {
		t.Errorf("after DELETE: %d answers", len(after.Violations))
	}

	plain := newTestServer(t, mockserver.Config{})
	plain.do(t, "GET", "/pets", "")
	if got := plain.admin(t, "GET", "violations", ""); string(got.body) != `{"backend":"","violations":[]}`+"\n" {
		t.Errorf("GET violations without a backend: %s", got.body)
	}
}
