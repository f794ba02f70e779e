package mockserver_test

import (
	"bytes"
	"context"
	"image/png"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// documented checks an answer against the document the way kin-openapi's
// response validator does, with every status held to the document: the
// status is documented (or default), the Content-Type is one the response
// names, and the body, where kin-openapi can read its media type, matches
// the schema. It is the plain check of "every answer validates against
// the document", without the Petstore's own rules.
func documented(tb testing.TB, c *spec.Contract, req *http.Request, status int, header http.Header, body []byte) error {
	tb.Helper()
	router, err := spec.NewRouter(c.Doc)
	if err != nil {
		tb.Fatal(err)
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		return err
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 status,
		Header:                 header,
		Options:                &openapi3filter.Options{IncludeResponseStatus: true},
	}
	if status == http.StatusNoContent && len(body) == 0 {
		// HTTP gives a 204 no body, whatever the document describes
		// (Asana's 204s of JSON): there is none to judge.
		in.Options.ExcludeResponseBody = true
	}
	if mt, _, err := mime.ParseMediaType(header.Get("Content-Type")); err == nil && openapi3filter.RegisteredBodyDecoder(mt) == nil {
		// A media type kin-openapi cannot read, as Directus' ping's
		// application/text, is judged by its status and headers.
		in.Options.ExcludeResponseBody = true
	}
	in.SetBodyBytes(body)
	return openapi3filter.ValidateResponse(context.Background(), in)
}

// plainServer serves c over HTTP without the Petstore's checks of every
// answer: the tests of other documents check what they are about.
func plainServer(tb testing.TB, cfg mockserver.Config) (*mockserver.Server, string) {
	tb.Helper()
	srv, err := mockserver.New(cfg)
	if err != nil {
		tb.Fatalf("mockserver.New: %v", err)
	}
	hs := httptest.NewServer(srv)
	tb.Cleanup(hs.Close)
	return srv, hs.URL
}

// fetch sends a request and reads its answer.
func fetch(tb testing.TB, method, url string, body string, headers ...string) (*http.Request, *http.Response, []byte) {
	tb.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		tb.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return req, resp, b
}

// TestAnswersOfAnyMediaType: an operation of no resource is answered in
// the media type its document names, whatever it is, and the answer
// validates against the document: JSON of any name, examples where there
// is no schema, text, bytes of the type, and the one status documented
// where there is no success.
func TestAnswersOfAnyMediaType(t *testing.T) {
	c := document(t, `
  /spring:
    get:
      operationId: spring
      security: []
      responses:
        '200': {description: ok, content: {application/json;charset=UTF-8: {schema: {type: object, required: [n], properties: {n: {type: integer}}}}}}
  /vendor:
    get:
      operationId: vendor
      security: []
      responses:
        '200': {description: ok, content: {application/vnd.shop.v2+json: {schema: {type: array, items: {type: string}}}}}
  /told:
    get:
      operationId: told
      security: []
      responses:
        '200':
          description: ok
          content:
            application/json:
              examples:
                only: {value: {greeting: hello}}
  /free:
    get:
      operationId: free
      security: []
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, minProperties: 3}}}}
  /report.csv:
    get:
      operationId: csv
      security: []
      responses:
        '200': {description: ok, content: {text/csv: {schema: {type: string}}}}
  /download:
    get:
      operationId: download
      security: []
      responses:
        '200': {description: ok, content: {application/octet-stream: {schema: {type: string, format: binary}}}}
  /picture:
    get:
      operationId: picture
      security: []
      responses:
        '200': {description: ok, content: {image/png: {}}}
  /feed:
    get:
      operationId: feed
      security: []
      responses:
        '200': {description: ok, content: {application/xml: {example: '<feed/>'}}}
  /legacy:
    post:
      operationId: legacy
      security: []
      responses:
        '405': {description: Invalid input.}`)
	srv, url := plainServer(t, mockserver.Config{Contract: c})
	tests := []struct {
		method, path, contentType string
		status                    int
		body                      func([]byte) bool
	}{
		{"GET", "/spring", "application/json;charset=UTF-8", 200, func(b []byte) bool { return bytes.HasPrefix(b, []byte(`{"n":`)) }},
		{"GET", "/vendor", "application/vnd.shop.v2+json", 200, func(b []byte) bool { return bytes.HasPrefix(b, []byte("[")) }},
		{"GET", "/told", "application/json", 200, func(b []byte) bool { return string(b) == `{"greeting":"hello"}`+"\n" }},
		{"GET", "/free", "application/json", 200, func(b []byte) bool { return bytes.Count(b, []byte(":")) >= 3 }},
		{"GET", "/report.csv", "text/csv; charset=utf-8", 200, func(b []byte) bool { return len(b) > 0 }},
		{"GET", "/download", "application/octet-stream", 200, func(b []byte) bool { return len(b) > 0 }},
		{"GET", "/picture", "image/png", 200, func(b []byte) bool { _, err := png.Decode(bytes.NewReader(b)); return err == nil }},
		{"GET", "/feed", "application/xml", 200, func(b []byte) bool { return string(b) == "<feed/>" }},
		{"POST", "/legacy", "", 405, func(b []byte) bool { return len(b) == 0 }},
	}
	for _, tt := range tests {
		req, resp, body := fetch(t, tt.method, url+"/v1"+tt.path, "")
		if resp.StatusCode != tt.status || resp.Header.Get("Content-Type") != tt.contentType || !tt.body(body) {
			t.Errorf("%s %s: %d %q %q, want %d %q and a body of it", tt.method, tt.path, resp.StatusCode, resp.Header.Get("Content-Type"), body, tt.status, tt.contentType)
			continue
		}
		if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
			t.Errorf("%s %s: %d %q: the answer does not match the document: %v", tt.method, tt.path, resp.StatusCode, body, err)
		}
	}
	if notes := strings.Join(srv.Notes(), "\n"); !strings.Contains(notes, "paths./legacy.post.responses: no success") {
		t.Errorf("notes = %q, want one on the operation that documents no success", notes)
	}
}

// TestResourceOfAnotherJSONName: a resource whose document names its JSON
// application/json;charset=UTF-8, as Spring's do, answers with that
// Content-Type, and takes bodies sent as plain application/json.
func TestResourceOfAnotherJSONName(t *testing.T) {
	const json = "application/json;charset=UTF-8"
	c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Things, version: '1'}
servers: [{url: /v1}]
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200': {description: ok, content: {'` + json + `': {schema: {type: array, items: {$ref: '#/components/schemas/Thing'}}}}}
    post:
      operationId: createThing
      requestBody:
        required: true
        content: {'` + json + `': {schema: {$ref: '#/components/schemas/NewThing'}}}
      responses:
        '201': {description: ok, content: {'` + json + `': {schema: {$ref: '#/components/schemas/Thing'}}}}
  /things/{id}:
    get:
      operationId: getThing
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: ok, content: {'` + json + `': {schema: {$ref: '#/components/schemas/Thing'}}}}
components:
  schemas:
    NewThing:
      type: object
      required: [name]
      properties:
        name: {type: string}
    Thing:
      allOf:
        - $ref: '#/components/schemas/NewThing'
        - type: object
          required: [id]
          properties:
            id: {type: integer}
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Resources) != 1 {
		t.Fatalf("resources = %v, want things", c.Resources)
	}
	_, url := plainServer(t, mockserver.Config{Contract: c})
	for _, tt := range []struct {
		method, path, body, contentType string
		status                          int
	}{
		{"GET", "/things", "", "", 200},
		{"POST", "/things", `{"name":"a"}`, "application/json", 201},
		{"POST", "/things", `{"name":"b"}`, json, 201},
		{"POST", "/things", `{"nom":"c"}`, "application/json", 400},
		{"GET", "/things/1", "", "", 200},
	} {
		req, resp, body := fetch(t, tt.method, url+"/v1"+tt.path, tt.body, "Content-Type", tt.contentType)
		if resp.StatusCode != tt.status {
			t.Errorf("%s %s %s: %d %s, want %d", tt.method, tt.path, tt.body, resp.StatusCode, body, tt.status)
			continue
		}
		if tt.status < 300 && resp.Header.Get("Content-Type") != json {
			t.Errorf("%s %s: Content-Type %q, want %q", tt.method, tt.path, resp.Header.Get("Content-Type"), json)
		}
		if tt.status < 300 {
			if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
				t.Errorf("%s %s: %d %s: the answer does not match the document: %v", tt.method, tt.path, resp.StatusCode, body, err)
			}
		}
	}
}

// TestQueryArraysRepeat: an array in the query, exploded as the form
// style is by default, is given once per value; each value is still held
// to the items' schema, and a parameter of one value given twice is still
// refused.
func TestQueryArraysRepeat(t *testing.T) {
	c := document(t, `
  /found:
    get:
      security: []
      parameters:
        - {name: status, in: query, required: true, schema: {type: array, items: {type: string, enum: [available, pending, sold]}}}
        - {name: tags, in: query, explode: false, schema: {type: array, items: {type: string}}}
        - {name: limit, in: query, schema: {type: integer}}
      responses:
        '200': {description: Found., content: {application/json: {schema: {type: array, items: {type: string}}}}}
        '400': {description: Refused., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	for _, tc := range []struct {
		query string
		want  int
		words string
	}{
		{"status=pending&status=available", 200, ""},
		{"status=sold", 200, ""},
		{"status=pending&status=lost", 400, "status"},
		{"status=sold&tags=a,b", 200, ""},
		{"status=sold&limit=1&limit=2", 400, "limit: must be given at most once"},
		{"status=sold&tags=a&tags=b", 400, "tags: must be given at most once"},
	} {
		req, resp, body := fetch(t, "GET", base+"/v1/found?"+tc.query, "")
		if resp.StatusCode != tc.want || !strings.Contains(string(body), tc.words) {
			t.Errorf("GET /v1/found?%s: %d %s, want %d naming %q", tc.query, resp.StatusCode, body, tc.want, tc.words)
		}
		if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
			t.Errorf("GET /v1/found?%s: %v", tc.query, err)
		}
	}
}

// TestOpenAPI31Requests: the requests of an OpenAPI 3.1 document are
// checked by the JSON Schema 2020-12 validator: a valid one is served, and
// an invalid one refused naming the parameter and why.
func TestOpenAPI31Requests(t *testing.T) {
	c, err := spec.ReadOptions{}.Read([]byte(`openapi: 3.1.0
info: {title: Small, version: 1.0.0}
paths:
  /things/{thingId}:
    get:
      parameters:
        - {name: thingId, in: path, required: true, schema: {type: string, format: uuid}}
        - {name: status, in: query, schema: {type: string, enum: [a, b]}}
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, properties: {id: {type: string}}}}}}
        '400': {description: Refused., content: {application/json: {schema: {type: object, properties: {message: {type: string}}}}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	_, base := plainServer(t, mockserver.Config{Contract: c})
	for _, tc := range []struct {
		path  string
		want  int
		words string
	}{
		{"/things/1725ff48-ab45-4bb5-9d02-88745177dedb?status=a", 200, ""},
		{"/things/1725ff48-ab45-4bb5-9d02-88745177dedb?status=c", 400, `status: value must be one of`},
	} {
		req, resp, body := fetch(t, "GET", base+tc.path, "")
		if resp.StatusCode != tc.want || !strings.Contains(string(body), tc.words) {
			t.Errorf("GET %s: %d %s, want %d saying %q", tc.path, resp.StatusCode, body, tc.want, tc.words)
		}
		if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
			t.Errorf("GET %s: %v", tc.path, err)
		}
	}
}
