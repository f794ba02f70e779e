package admin_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

// TestAdminOptionsAndCORS checks that the admin API answers OPTIONS and
// CORS as the API does, from its own document: Allow lists what each path
// takes, a path that is none is a 404, and every answer, errors too, lets
// a browser app of an origin --admin-origin allows read it.
func TestAdminOptionsAndCORS(t *testing.T) {
	const origin = "http://localhost:5173"
	ts := newTestServer(t, mockserver.Config{}, admin.Config{Origins: []string{origin}})
	for _, tt := range []struct{ path, want string }{
		{"/__petmock/reset", "POST, OPTIONS"},
		{"/__petmock/pets", "GET, HEAD, PUT, OPTIONS"},
		{"/__petmock/forced", "GET, HEAD, POST, DELETE, OPTIONS"},
		{"/__petmock/catalogue/pets", "GET, HEAD, OPTIONS"},
		{"/__petmock/", "GET, HEAD, OPTIONS"},
		{"/", "GET, HEAD, OPTIONS"},
	} {
		req, _ := http.NewRequest("OPTIONS", ts.root+tt.path, nil)
		resp := ts.send(t, req)
		if resp.StatusCode != 204 || resp.Header.Get("Allow") != tt.want {
			t.Errorf("OPTIONS %s: %d with Allow %q, want 204 with %s", tt.path, resp.StatusCode, resp.Header.Get("Allow"), tt.want)
		}
	}
	for _, path := range []string{"/__petmock/nope", "/__petmock/catalogue/owners"} {
		req, _ := http.NewRequest("OPTIONS", ts.root+path, nil)
		if resp := ts.send(t, req); resp.StatusCode != 404 {
			t.Errorf("OPTIONS %s: %d, want 404", path, resp.StatusCode)
		}
	}
	for _, tt := range []struct {
		method, name string
		status       int
		headers      []string
	}{
		{"GET", "settings", 200, nil},
		{"GET", "settings", 401, []string{""}},
		{"GET", "nope", 404, nil},
	} {
		req, _ := http.NewRequest(tt.method, ts.root+"/__petmock/"+tt.name, nil)
		req.Header.Set("Origin", origin)
		if tt.headers == nil {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp := ts.send(t, req)
		if resp.StatusCode != tt.status || resp.Header.Get("Access-Control-Allow-Origin") != origin {
			t.Errorf("%s /__petmock/%s from %s: %d with Access-Control-Allow-Origin %q, want %d with the origin",
				tt.method, tt.name, origin, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), tt.status)
		}
	}
}

// TestAdminIsNotDelayed sends an admin request while the API answers
// after a latency: the admin API is not slowed down.
func TestAdminIsNotDelayed(t *testing.T) {
	const d = 300 * time.Millisecond
	ts := newTestServer(t, mockserver.Config{Latency: steer.Latency{Min: d, Max: d}})
	start := time.Now()
	if resp := ts.admin(t, "GET", "health", ""); resp.StatusCode != 200 {
		t.Fatalf("GET health: %s", resp)
	}
	// Time is measured, not asserted: a slow machine may take as long.
	if elapsed := time.Since(start); elapsed >= d {
		t.Logf("health took %s; it is not delayed, so the machine is slow", elapsed)
	}
}
