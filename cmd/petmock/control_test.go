package main

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// send sends a request to a started petmock, with the given Host (""
// for the URL's), Origin and Authorization, and returns the status and
// the headers of the answer.
func send(t *testing.T, method, url, host, origin, authorization string) (int, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	if host != "" {
		req.Host = host
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if method == "OPTIONS" {
		req.Header.Set("Access-Control-Request-Method", "PATCH")
	}
	req.Header.Set("Authorization", authorization)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header
}

// TestControlPlaneFlags starts petmock with an admin key, an allowed
// origin and an allowed host, and holds the admin API to them.
func TestControlPlaneFlags(t *testing.T) {
	const adminKey = "admin-7c1d0b"
	s := start(t, "--admin-key", adminKey, "--admin-origin", "http://localhost:5173", "--allow-host", "petmock.test", "--pets", "3")
	if strings.Contains(s.line, adminKey) || !strings.Contains(s.line, "the admin API takes only the admin key you set") {
		t.Errorf("start line = %q, want it to say the admin key is set, without it", s.line)
	}
	settings := strings.TrimSuffix(s.url, "/v1") + "/__petmock/settings"
	for _, tt := range []struct {
		what, method, host, origin, key string
		want                            int
	}{
		{"the admin key", "GET", "", "", adminKey, 200},
		{"the API key on the admin API", "GET", "", "", mockserver.DefaultAPIKey, 401},
		{"an allowed host", "GET", "petmock.test:4010", "", adminKey, 200},
		{"another host", "GET", "evil.example", "", adminKey, 421},
		{"an allowed origin's preflight", "OPTIONS", "", "http://localhost:5173", "", 204},
		{"another origin's preflight", "OPTIONS", "", "http://evil.example", "", 403},
		{"another origin", "GET", "", "http://evil.example", adminKey, 403},
	} {
		status, header := send(t, tt.method, settings, tt.host, tt.origin, "Bearer "+tt.key)
		if status != tt.want {
			t.Errorf("%s: %s /__petmock/settings: %d, want %d", tt.what, tt.method, status, tt.want)
		}
		if status == 403 && header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s: refused with Access-Control-Allow-Origin %q", tt.what, header.Get("Access-Control-Allow-Origin"))
		}
	}
	if status, _ := send(t, "GET", s.url+"/pets", "", "", "Bearer "+mockserver.DefaultAPIKey); status != 200 {
		t.Errorf("the API with its key: %d", status)
	}
}

// TestAddrNameIsAnswered: the name --addr listens on is one of petmock's.
func TestAddrNameIsAnswered(t *testing.T) {
	s := start(t, "--addr", "localhost:0", "--pets", "1")
	admin := strings.TrimSuffix(s.url, "/v1") + "/__petmock/settings"
	if status, _ := send(t, "GET", admin, "localhost", "", "Bearer "+mockserver.DefaultAPIKey); status != 200 {
		t.Errorf("Host localhost: %d", status)
	}
	if got := controlHosts(options{addr: "devbox.lan:4010", allowHosts: []string{"a.test"}}); strings.Join(got, ",") != "a.test,devbox.lan" {
		t.Errorf("controlHosts of --addr devbox.lan:4010 = %q, want a.test and devbox.lan", got)
	}
	if got := controlHosts(options{addr: "0.0.0.0:4010"}); len(got) != 0 {
		t.Errorf("controlHosts of --addr 0.0.0.0:4010 = %q, want none", got)
	}
}

// TestStartLineSaysWhichKeys: the published key is named with what it
// means; a key the user chose never is.
func TestStartLineSaysWhichKeys(t *testing.T) {
	addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 4010}
	const warning = "; the admin API takes petmock-dev-key, the published default key, so any program on this machine can steer petmock: set --admin-key to keep it yours"
	for _, tt := range []struct {
		keys     []string
		adminKey string
		want     string
	}{
		{nil, "", "petmock serving http://127.0.0.1:4010/v1 with API key petmock-dev-key" + warning},
		{[]string{"mine"}, "", "petmock serving http://127.0.0.1:4010/v1 with the 1 API key(s) you set"},
		{nil, "adm", "petmock serving http://127.0.0.1:4010/v1 with API key petmock-dev-key; the admin API takes only the admin key you set"},
		{[]string{"a", "b"}, "adm", "petmock serving http://127.0.0.1:4010/v1 with the 2 API key(s) you set; the admin API takes only the admin key you set"},
		{[]string{"mine"}, mockserver.DefaultAPIKey, "petmock serving http://127.0.0.1:4010/v1 with the 1 API key(s) you set" + warning},
	} {
		if got := startLine(addr, "/v1", "", tt.keys, tt.adminKey); got != tt.want {
			t.Errorf("keys %q, admin key %q: start line\n  %q\nwant\n  %q", tt.keys, tt.adminKey, got, tt.want)
		}
	}
}

func TestStreamCapsKeepDescriptorsInReserve(t *testing.T) {
	for _, tt := range []struct {
		limit          uint64
		known          bool
		all, perClient int
	}{
		{1 << 20, true, 256, 16},
		{4096, true, 256, 16},
		{1024, true, 256, 16},
		{256, true, 64, 16},
		{40, true, 10, 10},
		{2, true, 1, 1},
		{0, false, 256, 16},
	} {
		all, perClient := streamCaps(tt.limit, tt.known)
		if all != tt.all || perClient != tt.perClient {
			t.Errorf("streamCaps(%d, %v) = %d, %d; want %d, %d", tt.limit, tt.known, all, perClient, tt.all, tt.perClient)
		}
		if tt.known && uint64(all) > tt.limit/4 && tt.limit >= 4 {
			t.Errorf("streamCaps(%d): %d streams, more than a quarter of the descriptors", tt.limit, all)
		}
	}
}
