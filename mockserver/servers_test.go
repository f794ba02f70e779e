package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// serversDocument has a protocol-relative server, and paths and
// operations with servers of their own: relative, on other hosts, with
// variables, and one at the root of another host, as Twilio's every path.
const serversDocument = `openapi: 3.0.3
info: {title: Servers, version: 1.0.0}
servers: [{url: '//api.example.com/v1'}]
paths:
  /plain:
    get: {operationId: plain, responses: {'200': {description: ok, content: {application/json: {schema: {type: object, properties: {n: {type: integer}}}}}}}}
  /relative-path:
    servers: [{url: /v2}]
    get: {operationId: relativePath, responses: {'204': {description: ok}}}
  /operation:
    get:
      operationId: operation
      servers: [{url: 'https://{region}.other.example/v3', variables: {region: {default: eu}}}]
      responses: {'204': {description: ok}}
    delete: {operationId: deleteOperation, responses: {'204': {description: ok}}}
  /Messages/{Sid}:
    servers: [{url: 'https://messaging.example.com'}]
    get:
      operationId: message
      parameters: [{name: Sid, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok, content: {application/json: {schema: {type: object, properties: {sid: {type: string}}}}}}}
`

// TestServersOfPathsAndOperations: each operation is served below its
// own base path, the path of its server, whatever the host: a
// protocol-relative server's path, a relative one, one with variables,
// and the root of another host; at another base path it is no operation,
// a request outside every base path is told the path it probably meant,
// and the document served sends a client of it to each where it is
// served.
func TestServersOfPathsAndOperations(t *testing.T) {
	c, err := spec.ReadOptions{Strict: true}.Read([]byte(serversDocument))
	if err != nil {
		t.Fatal(err)
	}
	_, origin := plainServer(t, mockserver.Config{Contract: c})
	tests := []struct {
		method, path string
		status       int
	}{
		{"GET", "/v1/plain", 200},
		{"GET", "/v2/relative-path", 204},
		{"GET", "/v3/operation", 204},
		{"DELETE", "/v1/operation", 204},
		{"GET", "/Messages/SM1", 200},
		{"GET", "//api.example.com/v1/plain", 404},
		{"GET", "/v1/relative-path", 404},
		{"GET", "/v1/Messages/SM1", 404},
		{"DELETE", "/v3/operation", 405},
		{"GET", "/plain", 404},
	}
	for _, tt := range tests {
		req, resp, body := fetch(t, tt.method, origin+tt.path, "", "Authorization", "Bearer "+mockserver.DefaultAPIKey)
		if resp.StatusCode != tt.status {
			t.Errorf("%s %s: %d, want %d\n%s", tt.method, tt.path, resp.StatusCode, tt.status, body)
			continue
		}
		if tt.status < 400 {
			if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
				t.Errorf("%s %s: the answer breaks the document: %v", tt.method, tt.path, err)
			}
		}
	}

	// The document served names the mock at each base path.
	_, resp, body := fetch(t, "GET", origin+"/openapi.json", "")
	if resp.StatusCode != 200 {
		t.Fatalf("GET /openapi.json: %d", resp.StatusCode)
	}
	if strings.Contains(string(body), "example.com") || strings.Contains(string(body), "other.example") {
		t.Errorf("the document served still names the document's hosts:\n%s", body)
	}
	served, err := spec.ReadOptions{Strict: true}.Read(body)
	if err != nil {
		t.Fatalf("the document served does not read: %v", err)
	}
	for _, op := range served.Operations {
		path := op.Template.Expand(map[string]string{"Sid": "SM1"})
		if _, resp, got := fetch(t, op.Method, origin+op.Base+path, "", "Authorization", "Bearer "+mockserver.DefaultAPIKey); resp.StatusCode/100 != 2 {
			t.Errorf("%s %s%s, as the document served has it: %d\n%s", op.Method, op.Base, path, resp.StatusCode, got)
		}
	}
}

// TestOutsideTheBasePaths: a request outside every base path of the
// operations is told the one it probably meant, among them all.
func TestOutsideTheBasePaths(t *testing.T) {
	c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Servers, version: 1.0.0}
servers: [{url: /v1}]
paths:
  /pets:
    get: {operationId: pets, responses: {'204': {description: ok}}}
  /orders:
    servers: [{url: /store}]
    get: {operationId: orders, responses: {'204': {description: ok}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	_, origin := plainServer(t, mockserver.Config{Contract: c})
	tests := []struct{ path, says string }{
		{"/pets", "/pets is outside the API's base paths /v1, /store; did you mean /v1/pets?"},
		{"/v2/orders", "/v2/orders is outside the API's base paths /v1, /store; did you mean /store/orders?"},
		{"/nothing", "/nothing is outside the API's base paths /v1, /store, below which every operation's path begins"},
	}
	for _, tt := range tests {
		_, resp, body := fetch(t, "GET", origin+tt.path, "")
		if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), tt.says) {
			t.Errorf("GET %s: %d %s, want 404 saying %q", tt.path, resp.StatusCode, body, tt.says)
		}
	}
	for _, path := range []string{"/v1/pets", "/store/orders"} {
		if _, resp, body := fetch(t, "GET", origin+path, ""); resp.StatusCode != 204 {
			t.Errorf("GET %s: %d %s, want 204", path, resp.StatusCode, body)
		}
	}
}

// TestResourceBelowItsOwnBase: the items of a resource whose paths have a
// server of their own are created, found and read back below its base
// path, where Location names them.
func TestResourceBelowItsOwnBase(t *testing.T) {
	c, err := spec.ReadOptions{Strict: true}.Read([]byte(`openapi: 3.0.3
info: {title: Servers, version: 1.0.0}
servers: [{url: /v1}]
paths:
  /things:
    servers: [{url: 'https://things.example/v2'}]
    get:
      operationId: listThings
      responses: {'200': {description: ok, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Thing'}}}}}}
    post:
      operationId: createThing
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
      responses: {'201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}}
  /things/{thingId}:
    servers: [{url: 'https://things.example/v2'}]
    get:
      operationId: getThing
      parameters: [{name: thingId, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
        '404': {description: none}
components:
  schemas:
    Thing:
      type: object
      required: [name]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
`))
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Resource("things"); r == nil || r.CreateOp == nil || r.Read == nil {
		t.Fatalf("resources %v, want things with a create and a read", c.Resources)
	}
	_, origin := plainServer(t, mockserver.Config{Contract: c})
	_, resp, body := fetch(t, "POST", origin+"/v2/things", `{"name":"kettle"}`, "Content-Type", "application/json")
	loc := resp.Header.Get("Location")
	if resp.StatusCode != 201 || !strings.HasPrefix(loc, "/v2/things/") && !strings.Contains(loc, "/v2/things/") {
		t.Fatalf("POST /v2/things: %d, Location %q, want 201 below /v2/things\n%s", resp.StatusCode, loc, body)
	}
	if _, resp, body := fetch(t, "GET", origin+loc[strings.Index(loc, "/v2/"):], ""); resp.StatusCode != 200 || !strings.Contains(string(body), "kettle") {
		t.Errorf("GET %s: %d %s, want the item created", loc, resp.StatusCode, body)
	}
}
