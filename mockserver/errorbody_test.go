package mockserver_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/petstore/contract/conformance"
	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// errorDocument is a document of one resource, things, whose operations
// need a key in X-API-Key, with errs as the error responses of each
// operation, and schemas beside Thing and NewThing.
func errorDocument(tb testing.TB, errs, schemas string) *spec.Contract {
	tb.Helper()
	src := `openapi: 3.0.3
info: {title: Things, version: '1'}
servers: [{url: /v1}]
security: [{key: []}]
paths:
  /things:
    get:
      operationId: listThings
      parameters: [{name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 10}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Thing'}}}}}
ERRS
    post:
      operationId: createThing
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/NewThing'}}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
ERRS
  /things/{id}:
    get:
      operationId: getThing
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
ERRS
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-API-Key}
  schemas:
    NewThing:
      type: object
      required: [name]
      properties:
        name: {type: string}
    Thing:
      type: object
      required: [id, name]
      properties:
        id: {type: integer}
        name: {type: string}
` + schemas
	c, err := spec.Read([]byte(strings.ReplaceAll(src, "ERRS\n", errs)))
	if err != nil {
		tb.Fatalf("document: %v", err)
	}
	return c
}

// TestErrorBodiesFollowTheDocument: whatever the document's error body,
// every error petmock answers matches it: the response the operation
// documents for the status, or its default; for a status it does not
// document and a request of no operation, the document's error body; and
// problem details where the document describes none. The message is in
// the member the schema names for it, and the suite's AnswerJudge finds
// each error as the document describes it.
func TestErrorBodiesFollowTheDocument(t *testing.T) {
	const errorRef = `{description: error, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}`
	tests := []struct {
		name           string
		errs, schemas  string
		messageMembers []string // where the message may be, a path of members
	}{
		{"an integer code", `        '400': ` + errorRef + `
        '401': ` + errorRef + `
        '404': ` + errorRef + "\n", `    Error:
      type: object
      required: [code, message]
      properties:
        code: {type: integer, minimum: 400, maximum: 599}
        message: {type: string}
`, []string{"message"}},
		{"SendGrid's errors, of a member named \"\"", `        '400': ` + errorRef + `
        '401': ` + errorRef + `
        '404': ` + errorRef + "\n", `    Error:
      type: object
      properties:
        errors:
          type: array
          items:
            type: object
            properties:
              '': {type: string}
              error_id: {type: string}
              message: {type: string}
`, []string{"errors", "0", "message"}},
		{"Spring's error", `        '400': ` + errorRef + `
        '401': ` + errorRef + `
        '404': ` + errorRef + "\n", `    Error:
      type: object
      required: [timestamp, status, error, message, path]
      properties:
        timestamp: {type: string, format: date-time}
        status: {type: integer}
        error: {type: string}
        message: {type: string}
        path: {type: string}
`, []string{"message"}},
		{"problem details of a schema", `        '400': {description: error, content: {application/problem+json: {schema: {$ref: '#/components/schemas/Problem'}}}}
        '401': {description: error, content: {application/problem+json: {schema: {$ref: '#/components/schemas/Problem'}}}}
`, `    Problem:
      type: object
      required: [type, title, status, detail]
      properties:
        type: {type: string, format: uri-reference}
        title: {type: string}
        status: {type: integer, minimum: 100, maximum: 599}
        detail: {type: string, minLength: 1}
        instance: {type: string}
`, []string{"detail"}},
		{"only a default, nested, of an enumeration", `        default:
          description: error
          content:
            application/json:
              schema:
                type: object
                required: [error]
                properties:
                  error:
                    type: object
                    required: [code, message, status]
                    properties:
                      code: {type: integer}
                      message: {type: string}
                      status: {type: string, enum: [INVALID_ARGUMENT, UNAUTHENTICATED, NOT_FOUND, INTERNAL]}
`, "", []string{"error", "message"}},
		{"422 of a list of details, as FastAPI's", `        '422':
          description: invalid
          content:
            application/json:
              schema:
                type: object
                properties:
                  detail:
                    type: array
                    items:
                      type: object
                      required: [loc, msg, type]
                      properties:
                        loc: {type: array, items: {anyOf: [{type: string}, {type: integer}]}}
                        msg: {type: string}
                        type: {type: string}
`, "", []string{"detail", "0", "msg"}},
		{"members required and declared nowhere, as openchannel's default", `        default: ` + errorRef + "\n", `    Error:
      type: object
      required: [message, eventId, createdDate]
      properties:
        eventId: {type: string}
        description: {type: string}
`, []string{"message"}},
		{"nothing documented", "", "", []string{"detail"}},
		{"statuses documented without a body", `        '401': {description: no key}
        '404': {description: none}
`, "", nil},
	}
	for _, tt := range tests {
		c := errorDocument(t, tt.errs, tt.schemas)
		judge, err := conformance.NewAnswerJudge(c, true)
		if err != nil {
			t.Fatal(err)
		}
		_, url := plainServer(t, mockserver.Config{Contract: c, APIKeys: []string{"s3cret-key"}})
		requests := []struct {
			method, path, body, contentType, key string
			status                               int
			op                                   string // "" for none
		}{
			{"GET", "/things", "", "", "", 401, "listThings"},
			{"GET", "/things?limit=0", "", "", "s3cret-key", 400, "listThings"},
			{"POST", "/things", `{"nom":1}`, "application/json", "s3cret-key", 400, "createThing"},
			{"POST", "/things", `name`, "text/plain", "s3cret-key", 415, "createThing"},
			{"GET", "/things/999", "", "", "s3cret-key", 404, "getThing"},
			{"GET", "/nothing", "", "", "s3cret-key", 404, ""},
			{"DELETE", "/things", "", "", "s3cret-key", 405, ""},
		}
		for _, rq := range requests {
			req, resp, body := fetch(t, rq.method, url+"/v1"+rq.path, rq.body, "Content-Type", rq.contentType, "X-API-Key", rq.key)
			what := tt.name + ": " + rq.method + " " + rq.path
			status := rq.status
			var op *spec.Operation
			if rq.op != "" {
				op = c.Operation(rq.op)
				if status == 400 && !op.Documents(400) && op.Documents(422) {
					status = 422
				}
			}
			if resp.StatusCode != status {
				t.Errorf("%s: %d %s, want %d", what, resp.StatusCode, body, status)
				continue
			}
			if op != nil && op.Documents(status) {
				if err := documented(t, c, req, status, resp.Header, body); err != nil {
					t.Errorf("%s: %d %s: does not match the document: %v", what, status, body, err)
				}
				// The judge of the suite holds the error to the same body.
				if err := judge.Judge(req, status, resp.Header, body); err != nil {
					t.Errorf("%s: %d %s: the AnswerJudge finds: %v", what, status, body, err)
				}
			} else {
				if err := isErrorBody(c.ErrorBody(nil, status), status, resp.Header, body); err != "" {
					t.Errorf("%s: %d %s: %s", what, status, body, err)
				}
				if err := judge.JudgeError(req, status, resp.Header, body); err != nil {
					t.Errorf("%s: %d %s: the AnswerJudge finds: %v", what, status, body, err)
				}
			}
			if b := c.ErrorBody(op, status); b.Kind == spec.AnswerEmpty {
				if len(body) > 0 {
					t.Errorf("%s: %s, want no body, as the document describes none", what, body)
				}
			} else if b.Documented || b.Problem || op == nil {
				members := tt.messageMembers
				if b.Problem {
					members = []string{"detail"}
				}
				if msg := member(body, members...); msg == "" {
					t.Errorf("%s: %s: no message at %v", what, body, members)
				}
			}
		}
	}
}

// isErrorBody says what is wrong with an error answer of a status the
// operation does not document, whose body must be the document's error
// body b; "" when nothing is.
func isErrorBody(b spec.ErrorBody, status int, header http.Header, body []byte) string {
	if ct := header.Get("Content-Type"); ct != b.MediaType {
		return "Content-Type " + ct + ", want " + b.MediaType
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "not JSON: " + err.Error()
	}
	if b.Problem {
		m, _ := v.(map[string]any)
		if m["status"] != json.Number(strconv.Itoa(status)) || m["title"] != http.StatusText(status) || m["type"] != "about:blank" {
			return "not problem details of the status"
		}
		return ""
	}
	if err := b.Schema.VisitJSON(v); err != nil {
		return "does not match the document's error body: " + err.Error()
	}
	return ""
}

// member returns the string at the path of members of a JSON body, where
// "0" is the first item of an array; "" when there is none.
func member(body []byte, path ...string) string {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	for _, name := range path {
		switch x := v.(type) {
		case map[string]any:
			v = x[name]
		case []any:
			if name != "0" || len(x) == 0 {
				return ""
			}
			v = x[0]
		default:
			return ""
		}
	}
	s, _ := v.(string)
	return s
}

// TestPetstoreErrorsAreAsBefore: the Petstore's errors are its Error body,
// byte for byte, whichever path refuses the request, and each operation
// documents every status it answers.
func TestPetstoreErrorsAreAsBefore(t *testing.T) {
	srv, url := plainServer(t, mockserver.Config{})
	if notes := srv.Notes(); len(notes) > 0 {
		t.Errorf("notes = %q, want none", notes)
	}
	tests := []struct {
		method, path, key, want string
	}{
		{"GET", "/v1/pets", "", `{"code":"unauthorized","message":"authorization: missing; send Authorization: Bearer <API key>","status":401}`},
		{"GET", "/v1/pets?limit=0", "Bearer " + mockserver.DefaultAPIKey, `{"code":"bad_request","message":"limit: must be at least 1","status":400}`},
		{"GET", "/v1/pets/999999", "Bearer " + mockserver.DefaultAPIKey, `{"code":"not_found","message":"petId: no pet has id 999999","status":404}`},
		{"GET", "/v1/nope", "Bearer " + mockserver.DefaultAPIKey, `{"code":"not_found","message":"path: /v1/nope is not an operation of this API","status":404}`},
		{"DELETE", "/v1/pets", "Bearer " + mockserver.DefaultAPIKey, `{"code":"method_not_allowed","message":"method: DELETE is not allowed on /v1/pets; use GET, HEAD, POST, OPTIONS","status":405}`},
	}
	for _, tt := range tests {
		_, resp, body := fetch(t, tt.method, url+tt.path, "", "Authorization", tt.key)
		if string(body) != tt.want+"\n" || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: %s (%s), want %s", tt.method, tt.path, body, resp.Header.Get("Content-Type"), tt.want)
		}
	}
}

// TestUndocumentedStatusesAreNoted: the start-up notes name the
// operations that answer a status HTTP requires and they do not document,
// one line a status.
func TestUndocumentedStatusesAreNoted(t *testing.T) {
	c := errorDocument(t, `        '401': {description: no key}
`, "")
	srv, _ := plainServer(t, mockserver.Config{Contract: c})
	want := map[string]string{
		"400 ": "listThings, createThing, getThing",
		"404 ": "getThing",
		"413 ": "createThing",
		"415 ": "createThing",
	}
	notes := srv.Notes()
	for _, n := range notes {
		if strings.HasPrefix(n, "401 ") {
			t.Errorf("note %q: every operation documents 401", n)
		}
		for prefix, ids := range want {
			if strings.HasPrefix(n, prefix) && strings.HasSuffix(n, ": "+ids+"; its body is the document's error body") {
				delete(want, prefix)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("notes = %q, want ones of %v", notes, want)
	}
}

// TestErrorCodesOfAnEnumeration: a code the schema enumerates is the
// value of the enumeration that names the error, whatever its case or
// its words: NOT_FOUND for not_found, UNAUTHENTICATED or OAuth's
// invalid_token for a 401.
func TestErrorCodesOfAnEnumeration(t *testing.T) {
	google := errorDocument(t, `        default:
          description: error
          content:
            application/json:
              schema:
                type: object
                required: [error]
                properties:
                  error:
                    type: object
                    required: [message, status]
                    properties:
                      message: {type: string}
                      status: {type: string, enum: [INVALID_ARGUMENT, UNAUTHENTICATED, NOT_FOUND, INTERNAL]}
`, "")
	oauth := errorDocument(t, `        default:
          description: error
          content:
            application/json:
              schema:
                type: object
                required: [error, error_description]
                properties:
                  error: {type: string, enum: [invalid_request, invalid_token, insufficient_scope]}
                  error_description: {type: string}
`, "")
	for _, tt := range []struct {
		c         *spec.Contract
		path, key string
		member    []string
		want      string
	}{
		{google, "/things", "", []string{"error", "status"}, "UNAUTHENTICATED"},
		{google, "/things?limit=0", "s3cret-key", []string{"error", "status"}, "INVALID_ARGUMENT"},
		{google, "/things/999", "s3cret-key", []string{"error", "status"}, "NOT_FOUND"},
		{oauth, "/things", "", []string{"error"}, "invalid_token"},
		{oauth, "/things?limit=0", "s3cret-key", []string{"error"}, "invalid_request"},
	} {
		_, url := plainServer(t, mockserver.Config{Contract: tt.c, APIKeys: []string{"s3cret-key"}})
		_, _, body := fetch(t, "GET", url+"/v1"+tt.path, "", "X-API-Key", tt.key)
		if got := member(body, tt.member...); got != tt.want {
			t.Errorf("GET %s: %s: %v = %q, want %q", tt.path, body, tt.member, got, tt.want)
		}
	}
}
