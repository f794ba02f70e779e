package mockserver_test

import (
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// document returns a small document with the given paths, below a server
// at /v1, whose operations need an API key in the X-API-Key header unless
// they say otherwise, read leniently. Its schemas are Error and Pet.
func document(tb testing.TB, paths string) *spec.Contract {
	tb.Helper()
	return readDocument(tb, paths, "", spec.ReadOptions{})
}

// documentWith is document with more schemas, given as YAML below
// components.schemas.
func documentWith(tb testing.TB, paths, schemas string) *spec.Contract {
	tb.Helper()
	return readDocument(tb, paths, schemas, spec.ReadOptions{})
}

// strictDocument is document, read strictly.
func strictDocument(tb testing.TB, paths string) *spec.Contract {
	tb.Helper()
	return readDocument(tb, paths, "", spec.ReadOptions{Strict: true})
}

func readDocument(tb testing.TB, paths, schemas string, o spec.ReadOptions) *spec.Contract {
	tb.Helper()
	src := `openapi: 3.0.3
info: {title: Small, version: 1.0.0}
servers: [{url: 'http://small.example/v1'}]
security: [{apiKey: []}]
paths:
` + paths + `
components:
  securitySchemes:
    apiKey: {type: apiKey, in: header, name: X-API-Key}
    basic: {type: http, scheme: basic}
  schemas:
    Error:
      type: object
      required: [code, message, status]
      properties:
        code: {type: string}
        message: {type: string}
        status: {type: integer}
    Pet:
      type: object
      required: [id, name]
      properties:
        id: {type: integer, format: int64}
        name: {type: string}
        tag: {type: string}
` + schemas
	c, err := o.Read([]byte(src))
	if err != nil {
		tb.Fatalf("document: %v\n%s", err, src)
	}
	return c
}

// TestDocumentsPetmockCannotServe: a schema no value petmock makes can
// match is refused at start in a document read strictly, with the place
// in it that is at fault; read leniently, it is served, with a warning
// that names the place.
func TestDocumentsPetmockCannotServe(t *testing.T) {
	paths := `
  /report:
    get:
      operationId: report
      responses:
        '200': {description: A code., content: {application/json: {schema: {type: string, pattern: '^[a-c]$', minLength: 3}}}}`
	const place = "paths./report.get.responses.200: no value made from the schema matches it"
	_, err := mockserver.New(mockserver.Config{Contract: strictDocument(t, paths)})
	if err == nil || !strings.Contains(err.Error(), place) || strings.Contains(err.Error(), "\n") {
		t.Errorf("strict: New = %v, want one line that says %q", err, place)
	}
	srv, err := mockserver.New(mockserver.Config{Contract: document(t, paths)})
	if err != nil {
		t.Fatalf("lenient: New = %v, want the document served", err)
	}
	if w := srv.Warnings(); len(w) != 1 || !strings.HasPrefix(w[0], place) {
		t.Errorf("lenient: warnings = %q, want one that begins %q", w, place)
	}
}

// TestOtherSecuritySchemes: the document decides how the key is sent: an
// apiKey header, HTTP basic, or nothing at all.
func TestOtherSecuritySchemes(t *testing.T) {
	c := document(t, `
  /report:
    get:
      operationId: report
      responses:
        '200': {description: A report., content: {application/json: {schema: {type: object, properties: {count: {type: integer, minimum: 0}}}}}}
        '401': {description: No key., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  /basic:
    get:
      operationId: basic
      security: [{basic: []}]
      responses:
        '204': {description: Done.}
        '401': {description: No key., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  /public:
    get:
      operationId: public
      security: []
      responses:
        '200': {description: A greeting., content: {text/plain: {schema: {type: string, example: hello}}}}`)
	ts := newTestServer(t, mockserver.Config{Contract: c, APIKeys: []string{"s3cret"}})
	tests := []struct {
		path    string
		headers []string
		status  int
		message string
	}{
		{"/report", []string{"Authorization", "", "X-API-Key", "s3cret"}, 200, ""},
		{"/report", []string{"Authorization", ""}, 401, "x-api-key: missing; send the API key as the header X-API-Key"},
		{"/report", []string{"Authorization", "", "X-API-Key", "nope"}, 401, "x-api-key: unknown API key"},
		{"/basic", []string{"Authorization", "Basic dXNlcjpzM2NyZXQ="}, 204, ""}, // user:s3cret
		{"/basic", []string{"Authorization", "Basic czNjcmV0"}, 204, ""},         // s3cret, no password
		{"/basic", []string{"Authorization", "Basic dXNlcjpub3Bl"}, 401, "authorization: unknown API key"},
		{"/basic", []string{"Authorization", "Bearer s3cret"}, 401, "authorization: scheme must be Basic"},
		{"/public", []string{"Authorization", ""}, 200, ""},
	}
	for _, tt := range tests {
		resp := ts.do(t, "GET", tt.path, "", tt.headers...)
		if resp.StatusCode != tt.status {
			t.Errorf("GET %s %v: %s, want %d", tt.path, tt.headers, resp, tt.status)
			continue
		}
		if tt.message != "" && resp.apiError(t).Message != tt.message {
			t.Errorf("GET %s %v: %q, want %q", tt.path, tt.headers, resp.apiError(t).Message, tt.message)
		}
	}
	if resp := ts.do(t, "GET", "/public", "", "Authorization", ""); string(resp.body) != "hello" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Errorf("GET /public: %s (%s), want the example as text", resp, resp.Header.Get("Content-Type"))
	}
}

// TestRootPathIsOnlyItself: an operation at the path "/" answers that
// path alone, not every path of one segment.
func TestRootPathIsOnlyItself(t *testing.T) {
	c := document(t, `
  /:
    get:
      operationId: root
      security: []
      responses:
        '200': {description: The service's name., content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}`)
	ts := newTestServer(t, mockserver.Config{Contract: c})
	if resp := ts.do(t, "GET", "/", ""); resp.StatusCode != 200 {
		t.Errorf("GET /v1/: %s, want 200", resp)
	}
	for _, path := range []string{"/nope", "/root"} {
		if resp := ts.do(t, "GET", path, ""); resp.StatusCode != 404 {
			t.Errorf("GET /v1%s: %s, want 404", path, resp)
		}
	}
}

// TestMemberTheBodyDoesNotTake: a body whose schema takes no other
// members names the one it does not take.
func TestMemberTheBodyDoesNotTake(t *testing.T) {
	c := document(t, `
  /notes:
    post:
      operationId: note
      security: []
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: object
              additionalProperties: false
              properties:
                text: {type: string}
                tags: {type: object, additionalProperties: false, properties: {color: {type: string}}}
      responses:
        '204': {description: Noted.}
        '400': {description: Refused., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}`)
	ts := newTestServer(t, mockserver.Config{Contract: c})
	for _, tt := range []struct{ body, want string }{
		{`{"text":"hi","txet":"ho"}`, "txet: is not a member; the members are tags, text"},
		{`{"tags":{"colour":"red"}}`, "tags.colour: is not a member; the members are color"},
	} {
		resp := ts.do(t, "POST", "/notes", tt.body)
		if resp.StatusCode != 400 || resp.apiError(t).Message != tt.want {
			t.Errorf("POST /v1/notes %s: %s, want 400 %q", tt.body, resp, tt.want)
		}
	}
	if resp := ts.do(t, "POST", "/notes", `{"text":"hi","tags":{"color":"red"}}`); resp.StatusCode != 204 {
		t.Errorf("POST /v1/notes of known members: %s, want 204", resp)
	}
}
