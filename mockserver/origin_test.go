package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// TestForwardedOrigin: behind a proxy, the URLs petmock answers (next
// pages, the created pet, the replacement of getPet, the servers of the
// served document) are at the origin the proxy names, and a forwarded
// value that is not a plain scheme or host[:port] is ignored.
func TestForwardedOrigin(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{})
	own := strings.TrimSuffix(ts.URL, "/v1")
	tests := []struct {
		name    string
		headers []string
		want    string // the origin; "" for petmock's own
	}{
		{"no proxy", nil, ""},
		{"X-Forwarded-Host and -Proto", []string{"X-Forwarded-Host", "app.example.com", "X-Forwarded-Proto", "https"}, "https://app.example.com"},
		{"X-Forwarded-Host with a port", []string{"X-Forwarded-Host", "app.example.com:8443"}, "http://app.example.com:8443"},
		{"X-Forwarded-Proto alone", []string{"X-Forwarded-Proto", "https"}, "https://" + strings.TrimPrefix(own, "http://")},
		{"the first of X-Forwarded lists", []string{"X-Forwarded-Host", "a.example, proxy.internal", "X-Forwarded-Proto", "https, http"}, "https://a.example"},
		{"an IPv6 host", []string{"X-Forwarded-Host", "[::1]:4010"}, "http://[::1]:4010"},
		{"a Docker service name", []string{"X-Forwarded-Host", "pet_mock:4010"}, "http://pet_mock:4010"},
		{"Forwarded", []string{"Forwarded", "for=192.0.2.60;proto=https;host=tunnel.example"}, "https://tunnel.example"},
		{"Forwarded with quoted values", []string{"Forwarded", `for="[2001:db8::1]:4711";Host="tunnel.example:8443";PROTO=HTTPS`}, "https://tunnel.example:8443"},
		{"the first element of Forwarded", []string{"Forwarded", "host=a.example;proto=https, host=b.example;proto=http"}, "https://a.example"},
		{"a quoted comma in Forwarded", []string{"Forwarded", `for="a,b";host=a.example`}, "http://a.example"},
		{"Forwarded wins", []string{"Forwarded", "proto=https;host=a.example", "X-Forwarded-Host", "b.example", "X-Forwarded-Proto", "http"}, "https://a.example"},
		{"a bad Forwarded host gives way", []string{"Forwarded", `host="bad host"`, "X-Forwarded-Host", "good.example"}, "http://good.example"},
		{"a path in the host", []string{"X-Forwarded-Host", "evil.example/x?", "X-Forwarded-Proto", "javascript"}, ""},
		{"credentials in the host", []string{"X-Forwarded-Host", "user@evil.example"}, ""},
		{"a quote in the host", []string{"Forwarded", `host="a.example\"><script>";proto=ftp`}, ""},
		{"an empty host", []string{"Forwarded", `host=""`, "X-Forwarded-Host", ":80"}, ""},
		{"a bad port", []string{"X-Forwarded-Host", "a.example:http"}, ""},
	}
	for _, tt := range tests {
		want := tt.want
		if want == "" {
			want = own
		}
		if got := ts.do(t, "GET", "/pets?limit=1", "", tt.headers...).Header.Get("Link"); !strings.HasPrefix(got, "<"+want+"/v1/pets?") {
			t.Errorf("%s: GET /v1/pets?limit=1: Link = %q, want a next page at %s", tt.name, got, want)
		}
		if got := ts.do(t, "POST", "/pets", `{"name":"Rex","categoryId":1}`, tt.headers...).Header.Get("Location"); !strings.HasPrefix(got, want+"/v1/pets/") {
			t.Errorf("%s: POST /v1/pets: Location = %q, want a pet at %s", tt.name, got, want)
		}
		if got := ts.do(t, "GET", "/pets/1", "", tt.headers...).Header.Get("Link"); !strings.HasPrefix(got, "<"+want+"/v1/pets?status=") {
			t.Errorf("%s: GET /v1/pets/1: Link = %q, want the replacement at %s", tt.name, got, want)
		}
		for _, path := range []string{"/openapi.yaml", "/openapi.json"} {
			req, _ := http.NewRequest("GET", own+path, nil)
			for i := 0; i+1 < len(tt.headers); i += 2 {
				req.Header.Set(tt.headers[i], tt.headers[i+1])
			}
			c, err := spec.Read(ts.send(t, req).body)
			if err != nil {
				t.Fatalf("%s: GET %s: %v", tt.name, path, err)
			}
			if len(c.Doc.Servers) != 1 || c.Doc.Servers[0].URL != want+"/v1" {
				t.Errorf("%s: GET %s: servers = %v, want only %s/v1", tt.name, path, c.Doc.Servers, want)
			}
		}
	}
}
