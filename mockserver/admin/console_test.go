package admin_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
)

func TestConsoleIsServed(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{APIKeys: []string{"console-served-key"}})
	root := strings.TrimSuffix(ts.URL, "/v1")
	for _, tt := range []struct{ path, contentType, contains string }{
		{"/", "text/html; charset=utf-8", `<script type="module" src="/__petmock/console/console.js"></script>`},
		{"/__petmock/", "text/html; charset=utf-8", `<link rel="stylesheet" href="/__petmock/console/console.css">`},
		{"/__petmock/console/console.css", "text/css; charset=utf-8", `prefers-color-scheme`},
		{"/__petmock/console/console.js", "text/javascript; charset=utf-8", `from "./petmock.js"`},
		{"/__petmock/console/petmock.js", "text/javascript; charset=utf-8", `sessionStorage`},
		{"/__petmock/console/catalogue.js", "text/javascript; charset=utf-8", `export function wireCatalogue`},
		{"/__petmock/console/journal.js", "text/javascript; charset=utf-8", `export function wireJournal`},
		{"/__petmock/console/settings.js", "text/javascript; charset=utf-8", `export function wireSettings`},
		{"/__petmock/console/scenarios.js", "text/javascript; charset=utf-8", `export function wireScenarios`},
		{"/__petmock/console/operations.js", "text/javascript; charset=utf-8", `export function renderOperations`},
		{"/__petmock/console/violations.js", "text/javascript; charset=utf-8", `export function wireViolations`},
		{"/__petmock/console/expectations.js", "text/javascript; charset=utf-8", `export function wireExpectations`},
		{"/__petmock/console/verification.js", "text/javascript; charset=utf-8", `export function wireVerification`},
		{"/__petmock/console/reloads.js", "text/javascript; charset=utf-8", `export function renderReloads`},
	} {
		// No key: the page asks for one itself.
		req, _ := http.NewRequest("GET", root+tt.path, nil)
		resp := ts.send(t, req)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != tt.contentType || !strings.Contains(string(resp.body), tt.contains) {
			t.Errorf("GET %s: %d %s, want 200 %s holding %q", tt.path, resp.StatusCode, resp.Header.Get("Content-Type"), tt.contentType, tt.contains)
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self'") || !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("GET %s: Content-Security-Policy %q, want requests to this origin only", tt.path, csp)
		}
		if strings.Contains(string(resp.body), "console-served-key") {
			t.Errorf("GET %s holds the key", tt.path)
		}
	}
	req, _ := http.NewRequest("POST", root+"/", nil)
	if resp := ts.send(t, req); resp.StatusCode != 405 || resp.Header.Get("Allow") != "GET, HEAD, OPTIONS" {
		t.Errorf("POST /: %s with Allow %q, want 405 with GET, HEAD, OPTIONS", resp, resp.Header.Get("Allow"))
	}
	for _, path := range []string{"/__petmock/console.map", "/__petmock/console/nope.js"} {
		req, _ = http.NewRequest("GET", root+path, nil)
		if resp := ts.send(t, req); resp.StatusCode != 404 {
			t.Errorf("GET %s: %s, want 404", path, resp)
		}
	}
}
