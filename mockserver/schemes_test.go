package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// schemeKindsDocument has an operation for each kind of scheme petmock
// could not check before: HTTP Digest, http schemes of another name, as
// Airflow's negotiate and Conjur's mutual, and mutualTLS, alone and beside
// a key.
const schemeKindsDocument = `
openapi: 3.1.0
info: {title: schemes, version: "1"}
servers: [{url: /v1}]
paths:
  /digest:
    get:
      operationId: digest
      security: [{digest: []}]
      responses: {'200': {description: ok, content: {application/json: {schema: {type: object}}}}}
  /negotiate:
    get:
      operationId: negotiate
      security: [{negotiate: []}]
      responses: {'200': {description: ok, content: {application/json: {schema: {type: object}}}}}
  /mutual:
    post:
      operationId: mutual
      security: [{mutual: []}]
      responses: {'200': {description: ok, content: {application/json: {schema: {type: object}}}}}
  /tls:
    get:
      operationId: tls
      security: [{tls: []}]
      responses: {'200': {description: ok, content: {application/json: {schema: {type: object}}}}}
  /tls-and-key:
    get:
      operationId: tlsAndKey
      security: [{tls: [], key: []}]
      responses: {'200': {description: ok, content: {application/json: {schema: {type: object}}}}}
components:
  securitySchemes:
    digest: {type: http, scheme: digest}
    negotiate: {type: http, scheme: negotiate}
    mutual: {type: http, scheme: mutual}
    tls: {type: mutualTLS}
    key: {type: apiKey, in: header, name: X-API-Key}
`

// TestEverySchemeKindIsReachable: an operation whose only scheme is one
// petmock cannot play out is reachable all the same, as the start-up
// notes say: Digest with a response computed from the key, another http
// scheme with the key as its credentials, mutualTLS by every request; and
// a request without them, or with another key, is refused with the
// scheme's challenge.
func TestEverySchemeKindIsReachable(t *testing.T) {
	c, err := spec.Read([]byte(schemeKindsDocument))
	if err != nil {
		t.Fatal(err)
	}
	srv, base := plainServer(t, mockserver.Config{Contract: c})
	digestOf := func(key, method, path string) string { return spec.DigestCredentials(key, method, "/v1"+path) }
	for _, tt := range []struct {
		method, path  string
		headers       []string
		want          int
		challengeWord string // the challenge of a 401 begins with it
	}{
		{"GET", "/digest", []string{"Authorization", digestOf(key, "GET", "/digest")}, 200, ""},
		{"GET", "/digest", nil, 401, "Digest "},
		{"GET", "/digest", []string{"Authorization", digestOf("another", "GET", "/digest")}, 401, "Digest "},
		{"GET", "/digest", []string{"Authorization", digestOf(key, "POST", "/digest")}, 401, "Digest "},
		{"GET", "/digest", []string{"Authorization", "Bearer " + key}, 401, "Digest "},
		{"GET", "/negotiate", []string{"Authorization", "Negotiate " + key}, 200, ""},
		{"GET", "/negotiate", nil, 401, "negotiate "},
		{"GET", "/negotiate", []string{"Authorization", "Negotiate another"}, 401, "negotiate "},
		{"POST", "/mutual", []string{"Authorization", "mutual " + key}, 200, ""},
		{"POST", "/mutual", []string{"Authorization", "Bearer " + key}, 401, "mutual "},
		{"GET", "/tls", nil, 200, ""},
		{"GET", "/tls-and-key", []string{"X-API-Key", key}, 200, ""},
		{"GET", "/tls-and-key", nil, 401, ""},
	} {
		req, resp, body := fetch(t, tt.method, base+"/v1"+tt.path, "", tt.headers...)
		what := tt.method + " " + tt.path + " " + strings.Join(tt.headers, " ")
		if resp.StatusCode != tt.want {
			t.Errorf("%s: %d, want %d\n%s", what, resp.StatusCode, tt.want, body)
			continue
		}
		if got := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(got, tt.challengeWord) || tt.challengeWord == "" && got != "" {
			t.Errorf("%s: WWW-Authenticate %q, want a challenge %q", what, got, tt.challengeWord)
		}
		if resp.StatusCode == http.StatusOK {
			if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
				t.Errorf("%s: %v", what, err)
			}
		}
	}
	notes := strings.Join(srv.Notes(), "\n")
	for _, want := range []string{
		"components.securitySchemes.digest: HTTP Digest is met with the API key as the password",
		"components.securitySchemes.negotiate: HTTP negotiate is one petmock cannot play out: it takes the API key as its credentials, Authorization: negotiate <API key>",
		"components.securitySchemes.tls: mutualTLS asks for a client certificate, which petmock, serving plain HTTP, never sees: every request meets it, so these operations answer without a key: tls",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("the start-up notes do not say %q:\n%s", want, notes)
		}
	}
}
