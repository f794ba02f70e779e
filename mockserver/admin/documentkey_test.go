package admin_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
	"github.com/petstore/contract/spec"
)

// securedDocument is a document of defaultOnlyPaths whose key goes as
// the security scheme scheme, given as YAML, asks.
func securedDocument(tb testing.TB, scheme string) *spec.Contract {
	tb.Helper()
	src := `openapi: 3.0.3
info: {title: Small, version: 1.0.0}
servers: [{url: 'http://small.example/v1'}]
security: [{key: []}]
paths:
` + defaultOnlyPaths + `
components:
  securitySchemes:
    key: ` + scheme + `
  schemas:
    Error:
      type: object
      required: [code, message, status]
      properties:
        code: {type: string}
        message: {type: string}
        status: {type: integer}
`
	c, err := spec.Read([]byte(src))
	if err != nil {
		tb.Fatalf("document: %v\n%s", err, src)
	}
	return c
}

// TestAdminTakesTheDocumentsKey: the admin API takes the key as the
// document petmock serves asks for it, and as a bearer token, as ever;
// a key it refuses is named in the form it was sent; and the contract
// tells the console the header to send it in.
func TestAdminTakesTheDocumentsKey(t *testing.T) {
	basic := func(user, password string) string {
		return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
	}
	tests := []struct {
		name, scheme string
		// present sets a key on a request as the document asks.
		present func(r *http.Request, key string)
		refused string // the message of a key refused
		console map[string]any
	}{
		{"apiKey header", "{type: apiKey, in: header, name: X-API-Key}",
			func(r *http.Request, k string) { r.Header.Set("X-API-Key", k) },
			"x-api-key: unknown API key", map[string]any{"header": "X-API-Key", "scheme": ""}},
		{"basic", "{type: http, scheme: basic}",
			func(r *http.Request, k string) { r.Header.Set("Authorization", basic("me", k)) },
			"authorization: unknown API key", map[string]any{"header": "Authorization", "scheme": "Basic"}},
		{"apiKey query", "{type: apiKey, in: query, name: api_key}",
			func(r *http.Request, k string) { r.URL.RawQuery = "api_key=" + k },
			"api_key: unknown API key", map[string]any{"header": "Authorization", "scheme": "Bearer"}},
		{"bearer", "{type: http, scheme: bearer}",
			func(r *http.Request, k string) { r.Header.Set("Authorization", "Bearer "+k) },
			"authorization: unknown API key", map[string]any{"header": "Authorization", "scheme": "Bearer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := newTestServer(t, mockserver.Config{Contract: securedDocument(t, tt.scheme)})
			settings := func(present func(*http.Request)) *response {
				req, _ := http.NewRequest("GET", ts.root+admin.Prefix+"settings", nil)
				present(req)
				return ts.send(t, req)
			}
			if resp := settings(func(r *http.Request) { tt.present(r, key) }); resp.StatusCode != 200 {
				t.Errorf("GET settings with the key as the document asks: %s, want 200", resp)
			}
			if resp := settings(func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+key) }); resp.StatusCode != 200 {
				t.Errorf("GET settings with a bearer token: %s, want 200", resp)
			}
			refused := settings(func(r *http.Request) { tt.present(r, "not-the-key") })
			if refused.StatusCode != 401 || !strings.Contains(string(refused.body), tt.refused) {
				t.Errorf("GET settings with another key as the document asks: %s, want 401 saying %q", refused, tt.refused)
			}
			if resp := settings(func(*http.Request) {}); resp.StatusCode != 401 {
				t.Errorf("GET settings without a key: %s, want 401", resp)
			}
			got, _ := contractView(t, ts)["key"].(map[string]any)
			if len(got) != 2 || got["header"] != tt.console["header"] || got["scheme"] != tt.console["scheme"] {
				t.Errorf("the contract's key: %v, want %v", got, tt.console)
			}
		})
	}
}
