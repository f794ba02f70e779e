package mockserver_test

import (
	"encoding/base64"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// securityDocument has an operation for each way security can be asked
// for: one scheme of each kind, alternatives, two schemes at once, an
// optional key, a scheme petmock does not check, and none at all.
const securityDocument = `openapi: 3.0.3
info: {title: Keys, version: 1.0.0}
servers: [{url: /v1}]
paths:
  /bearer: {get: {operationId: bearer, security: [{bearer: []}], responses: {'204': {description: Done.}, '401': {$ref: '#/components/responses/Refused'}}}}
  /basic: {get: {operationId: basic, security: [{basic: []}], responses: {'204': {description: Done.}, '401': {$ref: '#/components/responses/Refused'}}}}
  /header: {get: {operationId: header, security: [{header: []}], responses: {'204': {description: Done.}, '401': {$ref: '#/components/responses/Refused'}}}}
  /query: {get: {operationId: query, security: [{query: []}], responses: {'204': {description: Done.}, '401': {$ref: '#/components/responses/Refused'}}}}
  /cookie: {get: {operationId: cookie, security: [{cookie: []}], responses: {'204': {description: Done.}, '401': {$ref: '#/components/responses/Refused'}}}}
  /either: {get: {operationId: either, security: [{header: []}, {basic: []}], responses: {'204': {description: Done.}, '401': {$ref: '#/components/responses/Refused'}}}}
  /both: {get: {operationId: both, security: [{header: [], basic: []}], responses: {'204': {description: Done.}, '401': {$ref: '#/components/responses/Refused'}}}}
  /optional: {get: {operationId: optional, security: [{header: []}, {}], responses: {'204': {description: Done.}, '401': {$ref: '#/components/responses/Refused'}}}}
  /digest: {get: {operationId: digest, security: [{digest: []}], responses: {'204': {description: Done.}, '401': {$ref: '#/components/responses/Refused'}}}}
  /open: {get: {operationId: open, security: [], responses: {'204': {description: Done.}, '401': {$ref: '#/components/responses/Refused'}}}}
components:
  securitySchemes:
    bearer: {type: http, scheme: bearer}
    basic: {type: http, scheme: basic}
    header: {type: apiKey, in: header, name: X-API-Key}
    query: {type: apiKey, in: query, name: api_key}
    cookie: {type: apiKey, in: cookie, name: session}
    digest: {type: http, scheme: digest}
  responses:
    Refused: {description: No key., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  schemas:
    Error:
      type: object
      required: [code, message, status]
      properties:
        code: {type: string}
        message: {type: string}
        status: {type: integer}
`

// TestSecurityAsTheDocumentAsks: each scheme reads the key where it
// travels; alternatives pass with any one of them and refuse with what
// is wrong with the first; schemes asked for together all need the key;
// every 401 carries its scheme's challenge, and an apiKey's none.
func TestSecurityAsTheDocumentAsks(t *testing.T) {
	c, err := spec.Read([]byte(securityDocument))
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, mockserver.Config{Contract: c, APIKeys: []string{"s3cret"}})
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("user:s3cret"))
	tests := []struct {
		path      string
		headers   []string
		status    int
		message   string
		challenge string
	}{
		{"/bearer", []string{"Authorization", "Bearer s3cret"}, 204, "", ""},
		{"/bearer", []string{"Authorization", "Bearer nope"}, 401, "authorization: unknown API key", `Bearer realm="petstore", error="invalid_token"`},
		{"/bearer", []string{"Authorization", ""}, 401, "authorization: missing; send Authorization: Bearer <API key>", `Bearer realm="petstore"`},
		{"/basic", []string{"Authorization", basic}, 204, "", ""},
		{"/basic", []string{"Authorization", ""}, 401, "authorization: missing; send Authorization: Basic with the API key as the password", `Basic realm="petstore"`},
		{"/header", []string{"Authorization", "", "X-API-Key", "s3cret"}, 204, "", ""},
		{"/header", []string{"Authorization", "", "X-API-Key", "nope"}, 401, "x-api-key: unknown API key", ""},
		{"/query?api_key=s3cret", []string{"Authorization", ""}, 204, "", ""},
		{"/query?api_key=s3cret&api_key=s3cret", []string{"Authorization", ""}, 401, "api_key: sent more than once", ""},
		{"/query", []string{"Authorization", ""}, 401, "api_key: missing; send the API key as the query api_key", ""},
		{"/cookie", []string{"Authorization", "", "Cookie", "session=s3cret"}, 204, "", ""},
		{"/cookie", []string{"Authorization", "", "Cookie", "session=nope"}, 401, "session: unknown API key", ""},
		{"/either", []string{"Authorization", "", "X-API-Key", "s3cret"}, 204, "", ""},
		{"/either", []string{"Authorization", basic}, 204, "", ""},
		{"/either", []string{"Authorization", "Basic bm9wZQ=="}, 401, "x-api-key: missing; send the API key as the header X-API-Key", ""},
		{"/both", []string{"Authorization", basic, "X-API-Key", "s3cret"}, 204, "", ""},
		{"/both", []string{"Authorization", basic}, 401, "x-api-key: missing; send the API key as the header X-API-Key", ""},
		{"/both", []string{"Authorization", "", "X-API-Key", "s3cret"}, 401, "authorization: missing; send Authorization: Basic with the API key as the password", `Basic realm="petstore"`},
		{"/optional", []string{"Authorization", ""}, 204, "", ""},
		{"/digest", []string{"Authorization", "Digest x"}, 401, "authorization: malformed Digest credentials", `Digest realm="petstore", qop="auth", algorithm=SHA-256, nonce="` + spec.DigestNonce + `"`},
		{"/open", []string{"Authorization", ""}, 204, "", ""},
	}
	for _, tt := range tests {
		resp := ts.do(t, "GET", tt.path, "", tt.headers...)
		if resp.StatusCode != tt.status {
			t.Errorf("GET %s %v: %s, want %d", tt.path, tt.headers, resp, tt.status)
			continue
		}
		if tt.status != 401 {
			continue
		}
		if got := resp.apiError(t).Message; got != tt.message {
			t.Errorf("GET %s %v: %q, want %q", tt.path, tt.headers, got, tt.message)
		}
		if got := resp.Header.Get("WWW-Authenticate"); got != tt.challenge {
			t.Errorf("GET %s %v: WWW-Authenticate = %q, want %q", tt.path, tt.headers, got, tt.challenge)
		}
	}
}

// TestForcedRefusalChallenges: a 401 forced by Prefer, or from the admin
// API, carries the challenge of the operation's scheme, as a refused key
// does; an operation that asks for no key gets a bearer token's.
func TestForcedRefusalChallenges(t *testing.T) {
	c, err := spec.Read([]byte(securityDocument))
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, mockserver.Config{Contract: c, APIKeys: []string{"s3cret"}})
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("user:s3cret"))
	tests := []struct {
		path      string
		headers   []string
		challenge string
	}{
		{"/bearer", []string{"Authorization", "Bearer s3cret"}, `Bearer realm="petstore"`},
		{"/basic", []string{"Authorization", basic}, `Basic realm="petstore"`},
		{"/header", []string{"Authorization", "", "X-API-Key", "s3cret"}, ""},
		{"/open", []string{"Authorization", ""}, `Bearer realm="petstore"`},
	}
	for _, tt := range tests {
		resp := ts.do(t, "GET", tt.path, "", append(tt.headers, "Prefer", "code=401")...)
		if resp.StatusCode != 401 {
			t.Errorf("GET %s, Prefer: code=401: %s, want 401", tt.path, resp)
			continue
		}
		if got := resp.Header.Get("WWW-Authenticate"); got != tt.challenge {
			t.Errorf("GET %s, Prefer: code=401: WWW-Authenticate = %q, want %q", tt.path, got, tt.challenge)
		}
		if err := ts.Steering().Force(401, 1, tt.path[1:]); err != nil { // the operation ids are the paths
			t.Fatal(err)
		}
		resp = ts.do(t, "GET", tt.path, "", tt.headers...)
		if got := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 401 || got != tt.challenge {
			t.Errorf("GET %s, forced 401: %d, WWW-Authenticate = %q; want 401, %q", tt.path, resp.StatusCode, got, tt.challenge)
		}
	}
}
