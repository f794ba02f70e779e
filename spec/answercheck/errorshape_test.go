package answercheck_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/petstore/contract/spec/answercheck"
)

// thingsWith returns a document of one operation, getThing, whose error
// responses are errs, with schemas beside Thing.
func thingsWith(errs, schemas string) string {
	return `openapi: 3.0.3
info: {title: Things, version: 1.0.0}
servers: [{url: /v1}]
paths:
  /things/{id}:
    get:
      operationId: getThing
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: A thing., content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
` + errs + `components:
  schemas:
    Thing: {type: object, required: [id], properties: {id: {type: integer}}}
` + schemas
}

// errorOf is the 404 and the 401 of getThing, of the schema named.
func errorOf(schema string) string {
	return `        '401': {description: No key., content: {application/json: {schema: {$ref: '#/components/schemas/` + schema + `'}}}}
        '404': {description: No thing., content: {application/json: {schema: {$ref: '#/components/schemas/` + schema + `'}}}}
`
}

var (
	// integerCode is an error whose code is a number of the document's
	// own, with no status.
	integerCode = thingsWith(errorOf("Error"), `    Error:
      type: object
      required: [code, message]
      properties: {code: {type: integer}, message: {type: string}}
`)
	// jsend is an error whose status is a string: "error" or "fail".
	jsend = thingsWith(errorOf("Failure"), `    Failure:
      type: object
      required: [status, message]
      properties: {status: {type: string, enum: [error, fail]}, message: {type: string}}
`)
	// problem is an error of problem details, documented.
	problem = thingsWith(errorOf("Problem"), `    Problem:
      type: object
      required: [title, status]
      properties: {type: {type: string}, title: {type: string}, status: {type: integer}, detail: {type: string}}
`)
	// undescribed documents no error at all.
	undescribed = thingsWith("", "")
)

// TestErrorShapeFollowsTheDocument: an error is held to the body its
// operation documents for its status, and to the Petstore's meaning of
// code, message and status only where that body has them: the Petstore's
// Error keeps its rule, and an integer code or a string status of another
// document breaks nothing.
func TestErrorShapeFollowsTheDocument(t *testing.T) {
	for _, tc := range []struct {
		name, doc, path string
		status          int
		body            string
		want            []string
		says            string
	}{
		{"the Petstore's Error", "", "/v1/pets/7", 404, `{"code":"not_found","message":"no pet","status":404}`, nil, ""},
		{"the Petstore's Error of another status", "", "/v1/pets/7", 404, `{"code":"not_found","message":"no pet","status":400}`,
			[]string{answercheck.RuleErrorShape}, "status is 400, but the HTTP status is 404"},
		{"the Petstore's Error with an empty message", "", "/v1/pets/7", 404, `{"code":"not_found","message":"","status":404}`,
			[]string{answercheck.RuleErrorShape}, "message is missing or empty"},
		{"the Petstore's Error with an empty code", "", "/v1/pets/7", 401, `{"code":"","message":"no key","status":401}`,
			[]string{answercheck.RuleErrorShape}, "code is missing or empty"},
		{"the Petstore's Error without status", "", "/v1/pets/7", 404, `{"code":"not_found","message":"no pet"}`,
			[]string{answercheck.RuleBody, answercheck.RuleErrorShape}, `property "status" is missing`},
		{"an integer code", integerCode, "/v1/things/7", 404, `{"code":404,"message":"no thing"}`, nil, ""},
		{"an integer code of the document's own", integerCode, "/v1/things/7", 404, `{"code":1207,"message":"no thing"}`, nil, ""},
		{"a status the schema does not name", integerCode, "/v1/things/7", 404, `{"code":404,"message":"no thing","status":500}`, nil, ""},
		{"a string for the integer code", integerCode, "/v1/things/7", 404, `{"code":"not_found","message":"no thing"}`,
			[]string{answercheck.RuleBody}, "code"},
		{"an integer code with an empty message", integerCode, "/v1/things/7", 401, `{"code":401,"message":""}`,
			[]string{answercheck.RuleErrorShape}, "message is missing or empty"},
		{"a string status", jsend, "/v1/things/7", 404, `{"status":"fail","message":"no thing"}`, nil, ""},
		{"problem details", problem, "/v1/things/7", 404, `{"title":"Not Found","status":404}`, nil, ""},
		{"problem details of another status", problem, "/v1/things/7", 404, `{"title":"Not Found","status":500}`,
			[]string{answercheck.RuleErrorShape}, "status is 500, but the HTTP status is 404"},
	} {
		_, k := newChecker(t, tc.doc, false)
		req := httptest.NewRequest("GET", "http://example.test"+tc.path, nil)
		got, err := k.Check(req, answercheck.Answer{Status: tc.status, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(tc.body)})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !slices.Equal(rules(got), append([]string{}, tc.want...)) {
			t.Errorf("%s: GET %s answered %d %s: broke %v, want %v (%v)", tc.name, tc.path, tc.status, tc.body, rules(got), tc.want, got)
			continue
		}
		if tc.says != "" && !strings.Contains(got[0].Message+" "+got[len(got)-1].Message, tc.says) {
			t.Errorf("%s: the messages %v do not say %q", tc.name, got, tc.says)
		}
	}
}

// TestCheckError: an error the operation does not document, or of a
// request of no operation, is held to the error body the document gives
// it, and any body passes where the document describes none.
func TestCheckError(t *testing.T) {
	asJSON := http.Header{"Content-Type": {"application/json"}}
	for _, tc := range []struct {
		name, doc, path string
		status          int
		header          http.Header
		body            string
		want            []string
	}{
		{"the Petstore's Error", "", "/v1/pets", 503, asJSON, `{"code":"unavailable","message":"try later","status":503}`, nil},
		{"the Petstore's Error as text", "", "/v1/pets", 503, http.Header{"Content-Type": {"text/plain"}}, `{"code":"unavailable","message":"try later","status":503}`,
			[]string{answercheck.RuleMediaType}},
		{"the Petstore's Error of another status", "", "/v1/pets", 503, asJSON, `{"code":"unavailable","message":"try later","status":500}`,
			[]string{answercheck.RuleErrorShape}},
		{"the Petstore's Error with a number for code", "", "/v1/pets", 503, asJSON, `{"code":5,"message":"try later","status":503}`,
			[]string{answercheck.RuleBody}},
		{"no JSON", "", "/v1/owners", 404, asJSON, `not found`, []string{answercheck.RuleBody}},
		{"an integer code, of no operation", integerCode, "/v1/owners", 404, asJSON, `{"code":404,"message":"no such path"}`, nil},
		{"an integer code, not documented", integerCode, "/v1/things/7", 503, asJSON, `{"code":503,"message":"try later"}`, nil},
		{"an integer code without message", integerCode, "/v1/owners", 404, asJSON, `{"code":404}`, []string{answercheck.RuleBody}},
		{"problem details of another status", problem, "/v1/things/7", 503, http.Header{"Content-Type": {"application/problem+json"}}, `{"title":"Unavailable","status":500}`,
			[]string{answercheck.RuleErrorShape}},
		{"a page, where the document describes no error", undescribed, "/v1/owners", 404, http.Header{"Content-Type": {"text/html"}}, `<h1>Not Found</h1>`, nil},
		{"problem details, where the document describes no error", undescribed, "/v1/things/7", 503, http.Header{"Content-Type": {"application/problem+json"}}, `{"title":"Service Unavailable","status":503}`, nil},
	} {
		_, k := newChecker(t, tc.doc, false)
		req := httptest.NewRequest("GET", "http://example.test"+tc.path, nil)
		got := k.CheckError(req, answercheck.Answer{Status: tc.status, Header: tc.header, Body: []byte(tc.body)})
		if !slices.Equal(rules(got), append([]string{}, tc.want...)) {
			t.Errorf("%s: GET %s answered %d %s: broke %v, want %v (%v)", tc.name, tc.path, tc.status, tc.body, rules(got), tc.want, got)
		}
	}
}

// bodiless documents its 400 and 404 without a body, as Swagger Petstore
// does ('400': {description: Invalid ID supplied}), beside an Error of
// the Petstore's shape for its 401.
var bodiless = thingsWith(`        '400': {description: Invalid ID supplied.}
        '401': {description: No key., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
        '404': {description: No thing.}
`, `    Error:
      type: object
      required: [code, message, status]
      properties: {code: {type: string}, message: {type: string}, status: {type: integer}}
`)

// TestErrorWithoutDocumentedBody: where the document gives a status no
// body, any body passes, an empty one included, and the Petstore's rule
// of code, message and status asks nothing of it; the status beside it
// that documents an Error is held to it still.
func TestErrorWithoutDocumentedBody(t *testing.T) {
	_, k := newChecker(t, bodiless, false)
	for _, tc := range []struct {
		name   string
		status int
		header http.Header
		body   string
		want   []string
	}{
		{"an empty body", 400, http.Header{}, ``, nil},
		{"an empty body served as JSON", 404, http.Header{"Content-Type": {"application/json"}}, ``, nil},
		{"text", 400, http.Header{"Content-Type": {"text/plain"}}, `Invalid ID supplied`, nil},
		{"an object of no shape the document names", 404, http.Header{"Content-Type": {"application/json"}}, `{"error":"no thing"}`, nil},
		{"the Petstore's Error of another status", 404, http.Header{"Content-Type": {"application/json"}}, `{"code":"","message":"","status":500}`, nil},
		{"problem details", 400, http.Header{"Content-Type": {"application/problem+json"}}, `{"title":"Bad Request","status":400}`, nil},
		{"an empty body where an Error is documented", 401, http.Header{}, ``, []string{answercheck.RuleMediaType, answercheck.RuleErrorShape}},
	} {
		req := httptest.NewRequest("GET", "http://example.test/v1/things/7", nil)
		got, err := k.Check(req, answercheck.Answer{Status: tc.status, Header: tc.header, Body: []byte(tc.body)})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !slices.Equal(rules(got), append([]string{}, tc.want...)) {
			t.Errorf("%s: GET /v1/things/7 answered %d %q: broke %v, want %v (%v)", tc.name, tc.status, tc.body, rules(got), tc.want, got)
		}
	}
}
