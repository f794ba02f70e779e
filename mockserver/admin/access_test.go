package admin_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

const evil = "http://evil.example"

// TestOtherPagesCannotUseTheControlPlane sends what a page of another
// origin makes a browser send, with the published key: none gets a CORS
// header that would let the browser send the request or show the answer,
// and none changes anything.
func TestOtherPagesCannotUseTheControlPlane(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	for _, tt := range []struct {
		method, name, body string
		preflight          bool
	}{
		{"PATCH", "settings", "", true},
		{"GET", "requests", "", true},
		{"DELETE", "requests", "", true},
		{"GET", "events", "", true},
		{"GET", "requests", "", false},
		{"GET", "settings", "", false},
		{"PATCH", "settings", `{"failRate":1}`, false},
		{"POST", "empty", "", false},
		{"PUT", "pets", `[]`, false},
		{"GET", "", "", false},
		{"GET", "health", "", false},
	} {
		for _, origin := range []string{evil, "null", "http://127.0.0.1:1", "http://localhost:5173"} {
			method := tt.method
			if tt.preflight {
				method = "OPTIONS"
			}
			req, _ := http.NewRequest(method, ts.root+admin.Prefix+tt.name, strings.NewReader(tt.body))
			req.Header.Set("Origin", origin)
			if tt.preflight {
				req.Header.Set("Access-Control-Request-Method", tt.method)
				req.Header.Set("Access-Control-Request-Headers", "authorization, content-type")
			} else {
				req.Header.Set("Authorization", "Bearer "+key)
				req.Header.Set("Content-Type", "application/json")
			}
			resp := ts.send(t, req)
			what := method + " " + admin.Prefix + tt.name + " from " + origin
			if resp.StatusCode != http.StatusForbidden || resp.apiError(t).Code != admin.CodeForbiddenOrigin {
				t.Errorf("%s: %s, want 403 %s", what, resp, admin.CodeForbiddenOrigin)
			}
			for name := range resp.Header {
				if strings.HasPrefix(name, "Access-Control-") {
					t.Errorf("%s: answered with %s: %s", what, name, resp.Header.Get(name))
				}
			}
			if e := resp.apiError(t); !strings.Contains(e.Message, "--admin-origin "+origin) {
				t.Errorf("%s: %q names no --admin-origin %s", what, e.Message, origin)
			}
		}
	}
	if got := ts.settings(t).FailRate; got != 0 {
		t.Errorf("after the pages' PATCH, the fail rate is %v", got)
	}
	if n := ts.Items().Store("pets").Len(); n != catalogue.DefaultCount {
		t.Errorf("after the pages' POST empty and PUT pets, %d pets, want %d", n, catalogue.DefaultCount)
	}
}

// TestOwnAndAllowedOriginsUseTheControlPlane: the console's own requests,
// which name its origin, and a page of an origin --admin-origin lists.
func TestOwnAndAllowedOriginsUseTheControlPlane(t *testing.T) {
	const allowed = "http://localhost:5173"
	ts := newTestServer(t, mockserver.Config{}, admin.Config{Origins: []string{"HTTP://LOCALHOST:5173/"}})
	for _, origin := range []string{ts.root, allowed} {
		req, _ := http.NewRequest("OPTIONS", ts.root+"/__petmock/settings", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "PATCH")
		resp := ts.send(t, req)
		if resp.StatusCode != 204 || !strings.Contains(resp.Header.Get("Access-Control-Allow-Methods"), "PATCH") ||
			resp.Header.Get("Access-Control-Allow-Origin") != origin {
			t.Errorf("preflight of PATCH settings from %s: %d, Allow-Methods %q, Allow-Origin %q; want 204 allowing PATCH to it",
				origin, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Methods"), resp.Header.Get("Access-Control-Allow-Origin"))
		}
		req, _ = http.NewRequest("PATCH", ts.root+"/__petmock/settings", strings.NewReader(`{"latency":"5ms"}`))
		req.Header.Set("Origin", origin)
		req.Header.Set("Authorization", "Bearer "+key)
		req.Header.Set("Content-Type", "application/json")
		if resp := ts.send(t, req); resp.StatusCode != 200 {
			t.Errorf("PATCH settings from %s: %s", origin, resp)
		}
	}
	anyOrigin := newTestServer(t, mockserver.Config{}, admin.Config{Origins: []string{"*"}})
	req, _ := http.NewRequest("GET", anyOrigin.root+"/__petmock/settings", nil)
	req.Header.Set("Origin", evil)
	req.Header.Set("Authorization", "Bearer "+key)
	if resp := anyOrigin.send(t, req); resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != evil {
		t.Errorf("with --admin-origin '*', GET settings from %s: %s", evil, resp)
	}
}

// TestTheAPIKeepsItsCORS: the API still lets any page call it, as apps on
// dev servers do.
func TestTheAPIKeepsItsCORS(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	req, _ := http.NewRequest("OPTIONS", ts.URL+"/pets", nil)
	req.Header.Set("Origin", evil)
	req.Header.Set("Access-Control-Request-Method", "POST")
	resp := ts.send(t, req)
	if resp.StatusCode != 204 || resp.Header.Get("Access-Control-Allow-Origin") != evil {
		t.Errorf("preflight of POST /v1/pets from %s: %d with Allow-Origin %q", evil, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
	}
	if resp := ts.do(t, "GET", "/pets?limit=1", "", "Origin", evil); resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != evil {
		t.Errorf("GET /v1/pets from %s: %s with Allow-Origin %q", evil, resp, resp.Header.Get("Access-Control-Allow-Origin"))
	}
}

// TestRebindingIsRefused sends the Host a page that rebinds its own name
// to petmock's address makes the browser send: the control plane refuses
// it, naming the host and the flag; petmock's own names are answered.
func TestRebindingIsRefused(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{}, admin.Config{Hosts: []string{"petmock.test"}})
	get := func(path, host string) *response {
		req, _ := http.NewRequest("GET", ts.root+path, nil)
		req.Host = host
		req.Header.Set("Authorization", "Bearer "+key)
		return ts.send(t, req)
	}
	for _, host := range []string{"evil.example", "evil.example:4010", "127.0.0.1.evil.example", "localhost.evil.example", "EVIL.example."} {
		for _, path := range []string{"/__petmock/requests", "/__petmock/", "/", "/__petmock/health", "/__petmock/nope"} {
			resp := get(path, host)
			e := resp.apiError(t)
			name := strings.TrimSuffix(strings.ToLower(strings.TrimSuffix(host, ":4010")), ".")
			if resp.StatusCode != http.StatusMisdirectedRequest || e.Code != admin.CodeMisdirected ||
				!strings.Contains(e.Message, `"`+name+`"`) || !strings.Contains(e.Message, "--allow-host "+name) {
				t.Errorf("GET %s with Host %s: %s, want 421 naming the host and --allow-host", path, host, resp)
			}
		}
	}
	// A port is a number: net.SplitHostPort reads 127.0.0.1:4010.evil.example
	// as 127.0.0.1 with a port of 4010.evil.example, and a page of
	// evil.example can rebind such names.
	for _, host := range []string{"127.0.0.1:4010.evil.example", strings.TrimPrefix(ts.root, "http://") + ".evil.example",
		"localhost:4010.evil.example", "[::1]:4010.evil.example", "[::1].evil.example", "127.0.0.1:99999", "127.0.0.1:4010:4010",
		"petmock.test:4010x", "[evil.example]:4010"} {
		resp := get("/__petmock/health", host)
		if e := resp.apiError(t); resp.StatusCode != http.StatusMisdirectedRequest || e.Code != admin.CodeMisdirected || !strings.Contains(e.Message, "port") {
			t.Errorf("GET /__petmock/health with Host %s: %s, want 421 saying the port is no number", host, resp)
		}
	}
	for _, host := range []string{"localhost", "localhost:4010", "LOCALHOST.", "app.localhost:3000", "127.0.0.1", "127.8.9.10:4010",
		"[::1]:4010", "[::1]", "127.0.0.1:", "192.168.1.20:4010", "petmock.test:4010", strings.TrimPrefix(ts.root, "http://")} {
		if resp := get("/__petmock/requests", host); resp.StatusCode != 200 {
			t.Errorf("GET /__petmock/requests with Host %s: %s", host, resp)
		}
	}
	// The API answers any Host: see docs/hardening.md.
	req, _ := http.NewRequest("GET", ts.URL+"/pets?limit=1", nil)
	req.Host = "evil.example"
	req.Header.Set("Authorization", "Bearer "+key)
	if resp := ts.send(t, req); resp.StatusCode != 200 {
		t.Errorf("GET /v1/pets with Host evil.example: %s", resp)
	}
	anyHost := newTestServer(t, mockserver.Config{}, admin.Config{Hosts: []string{"*"}})
	req, _ = http.NewRequest("GET", anyHost.root+"/__petmock/requests", nil)
	req.Host = "evil.example"
	req.Header.Set("Authorization", "Bearer "+key)
	if resp := anyHost.send(t, req); resp.StatusCode != 200 {
		t.Errorf("with --allow-host '*', Host evil.example: %s", resp)
	}
}

// TestAccessConfigIsChecked: an origin or a host that cannot be one is
// refused when the handler is made, naming it.
func TestAccessConfigIsChecked(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []admin.Config{
		{Origins: []string{"localhost:5173"}},
		{Origins: []string{"ftp://localhost"}},
		{Origins: []string{"http://localhost:5173/app"}},
		{Origins: []string{"http://"}},
		{Hosts: []string{""}},
		{Hosts: []string{"evil.example/path"}},
		{Hosts: []string{"petmock.test:4010.evil.example"}},
	} {
		if _, err := admin.New(srv, cfg); err == nil {
			t.Errorf("admin.New(%+v): no error", cfg)
		}
	}
}

// TestAdminNeverEchoesTheKeyInAHeader: a key sent as a forwarded host, a
// Host or an Origin comes back in no answer header of the admin API.
func TestAdminNeverEchoesTheKeyInAHeader(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{}, admin.Config{Hosts: []string{"*"}, Origins: []string{"*"}})
	for _, v := range []struct{ name, value string }{
		{"X-Forwarded-Host", key}, {"Forwarded", "host=" + key}, {"Host", key}, {"Origin", "http://" + key},
	} {
		req, _ := http.NewRequest("GET", ts.root+"/__petmock/catalogue/pets?limit=1", nil)
		req.Header.Set("Authorization", "Bearer "+key)
		if v.name == "Host" {
			req.Host = v.value
		} else {
			req.Header.Set(v.name, v.value)
		}
		resp := ts.send(t, req)
		if resp.StatusCode != 200 || resp.Header.Get("Link") == "" {
			t.Errorf("GET catalogue/pets?limit=1 with %s: %s, want 200 with a Link", v.name, resp)
		}
		for name, values := range resp.Header {
			if strings.Contains(name+strings.Join(values, ""), key) {
				t.Errorf("GET catalogue/pets?limit=1 with %s: %s: answered %s: %s", v.name, v.value, name, values)
			}
		}
	}
}
