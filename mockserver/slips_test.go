package mockserver_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// TestResponseRanges: a range of statuses, such as 4XX, is a documented
// response: petmock answers a success of 2XX, refuses a request in the
// body of 4XX, and answers an operation that documents only 4XX with a
// status of it, every answer held to the document.
func TestResponseRanges(t *testing.T) {
	c := document(t, `
  /things/{id}:
    get:
      operationId: getThing
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        2XX: {description: A thing., content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
        4XX: {description: Refused., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  /refusals:
    get:
      operationId: refuse
      responses:
        4XX: {description: Refused., content: {application/json: {schema: {type: object, properties: {reason: {type: string}}}}}}`)
	ts := newTestServer(t, mockserver.Config{Contract: c})
	key := []string{"X-API-Key", mockserver.DefaultAPIKey}
	tests := []struct {
		path    string
		headers []string
		status  int
	}{
		{"/things/7", key, 200},
		{"/things/seven", key, 400},
		{"/things/7", []string{"Authorization", ""}, 401},
		{"/refusals", key, 400},
	}
	for _, tt := range tests {
		resp := ts.do(t, "GET", tt.path, "", tt.headers...)
		if resp.StatusCode != tt.status {
			t.Errorf("GET /v1%s %v: %s, want %d", tt.path, tt.headers, resp, tt.status)
			continue
		}
		if tt.status >= 400 && tt.path != "/refusals" && resp.apiError(t).Status != tt.status {
			t.Errorf("GET /v1%s %v: %s, want the Error body of 4XX", tt.path, tt.headers, resp)
		}
	}
	if n := srvNotes(ts.Server); !strings.Contains(n, "paths./refusals.get.responses: no success (2xx) or default response, so a valid request is answered 400, the first status of 4XX") {
		t.Errorf("notes = %s, want one that says /refusals is answered 400", n)
	}
}

// srvNotes returns the start-up notes of srv, one a line.
func srvNotes(srv *mockserver.Server) string {
	return strings.Join(append(srv.Contract().Notes, srv.Notes()...), "\n")
}

// slippingPaths are the paths of a document with a slip of each kind
// petmock serves past, below the small document's header.
const slippingPaths = `
  /sizes:
    get:
      operationId: sizes
      parameters: [{name: q, in: query}]
      responses:
        '200':
          content:
            application/json:
              schema:
                type: object
                required: [size, meta, kind, label]
                properties:
                  size: {type: integer, enum: ['6', '12']}
                  meta: {anyOf: [{type: string}, {type: 'null'}]}
                  kind: {type: string, const: box}
                  label: {type: [string, 'null'], examples: [small]}
  /boxes/{id}:
    get:
      operationId: getBox
      responses:
        '200': {description: A box., content: {application/json: {schema: {type: object, properties: {id: {type: string}}}}}}
  /boxes/{boxId}:
    delete:
      operationId: deleteBox
      parameters: [{name: boxId, in: path, required: true, schema: {type: string}}]
      responses:
        '204': {description: Gone.}`

// TestSlipsServed: petmock serves a document with a slip of each kind,
// each answer held to the document as it means: an enum written as
// strings answered as integers, a 3.1 keyword of a 3.0 schema honoured,
// a parameter without schema taken as a string, an undeclared path
// parameter, and paths that differ by the names of their parameters
// joined. Strict, the document is refused.
func TestSlipsServed(t *testing.T) {
	c := document(t, slippingPaths)
	if len(c.Warnings) < 8 {
		t.Errorf("warnings = %q, want one for each slip", c.Warnings)
	}
	ts := newTestServer(t, mockserver.Config{Contract: c})
	key := []string{"X-API-Key", mockserver.DefaultAPIKey}
	for range 5 {
		resp := ts.do(t, "GET", "/sizes?q=any", "", key...)
		if resp.StatusCode != 200 {
			t.Fatalf("GET /v1/sizes: %s, want 200", resp)
		}
		var got struct {
			Size  any    `json:"size"`
			Kind  string `json:"kind"`
			Label any    `json:"label"`
		}
		if err := json.Unmarshal(resp.body, &got); err != nil || (got.Size != 6.0 && got.Size != 12.0) || got.Kind != "box" {
			t.Errorf("GET /v1/sizes: %s, want a size of 6 or 12 and the kind box", resp.body)
		}
	}
	joined := []struct {
		method, path string
		status       int
	}{{"GET", "/boxes/b1", 200}, {"DELETE", "/boxes/b1", 204}}
	for _, tt := range joined {
		if resp := ts.do(t, tt.method, tt.path, "", key...); resp.StatusCode != tt.status {
			t.Errorf("%s /v1%s: %s, want %d", tt.method, tt.path, resp, tt.status)
		}
	}
	if _, err := (spec.ReadOptions{Strict: true}).Read(c.Source()); err == nil {
		t.Errorf("strict: the document was read, want it refused for its first slip")
	}
}

// TestSwaggerSlipsServed: a Swagger 2.0 document with a list of types, an
// OpenAPI 3.1 way of saying nullable, is served, its answers held to the
// document as it means, and its warning in Swagger 2.0's words.
func TestSwaggerSlipsServed(t *testing.T) {
	c, err := spec.Read([]byte(`swagger: '2.0'
info: {title: Small, version: 1.0.0}
basePath: /v1
paths:
  /things:
    get:
      produces: [application/json]
      responses:
        '200': {description: ok, schema: {$ref: '#/definitions/Thing'}}
definitions:
  Thing:
    type: object
    required: [name]
    properties:
      name: {type: [string, 'null']}
`))
	if err != nil {
		t.Fatalf("Read = %v, want the document served", err)
	}
	if len(c.Warnings) != 1 || !strings.HasPrefix(c.Warnings[0], `definitions.Thing.properties.name.type: ["string","null"]: Swagger 2.0 has no list of types`) {
		t.Errorf("warnings = %q, want one in Swagger 2.0's words", c.Warnings)
	}
	ts := newTestServer(t, mockserver.Config{Contract: c})
	if resp := ts.do(t, "GET", "/things", ""); resp.StatusCode != 200 {
		t.Errorf("GET /v1/things: %s, want 200", resp)
	}
}

// TestSwaggerEmptyValues: a Swagger 2.0 query parameter that says
// allowEmptyValue: false, its own or shared, refuses an empty value, as
// Prism does; one that does not say it takes one.
func TestSwaggerEmptyValues(t *testing.T) {
	c, err := spec.Read([]byte(`swagger: '2.0'
info: {title: Small, version: 1.0.0}
basePath: /v1
parameters:
  Sort: {name: sort, in: query, type: string, allowEmptyValue: false}
paths:
  /things:
    get:
      produces: [application/json]
      parameters:
        - {name: name, in: query, type: string, allowEmptyValue: false}
        - {name: tag, in: query, type: string}
        - $ref: '#/parameters/Sort'
      responses:
        '200': {description: ok, schema: {type: array, items: {type: string}}}
        '400': {description: bad}
`))
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, mockserver.Config{Contract: c})
	for _, tt := range []struct {
		query string
		want  int
	}{
		{"name=Rex", 200},
		{"name=", 400},
		{"sort=", 400},
		{"tag=", 200},
		{"", 200},
	} {
		if resp := ts.do(t, "GET", "/things?"+tt.query, ""); resp.StatusCode != tt.want {
			t.Errorf("GET /v1/things?%s: %s, want %d", tt.query, resp, tt.want)
		}
	}
}

// TestSwaggerWildcardExample: a Swagger 2.0 example given for */* is the
// example of the media type the operation produces, text/plain here,
// answered as text whatever the Accept, where it was answered as JSON.
func TestSwaggerWildcardExample(t *testing.T) {
	c, err := spec.Read([]byte(`swagger: '2.0'
info: {title: Small, version: 1.0.0}
basePath: /v1
paths:
  /ping:
    get:
      produces: [text/plain]
      responses:
        '200':
          description: ok
          schema: {type: string}
          examples:
            '*/*': pong
`))
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, mockserver.Config{Contract: c})
	for _, accept := range []string{"", "text/plain", "*/*"} {
		resp := ts.do(t, "GET", "/ping", "", "Accept", accept)
		if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || !strings.HasPrefix(ct, "text/plain") || string(resp.body) != "pong" {
			t.Errorf("GET /v1/ping with Accept %q: %d %s %q, want 200 text/plain pong", accept, resp.StatusCode, ct, resp.body)
		}
	}
}
