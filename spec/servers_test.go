package spec_test

import (
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// TestBasePaths: the base path of a server is the path of its URL as a
// client reads it from the document: its variables given their defaults,
// relative and protocol-relative URLs resolved against the document's
// own address.
func TestBasePaths(t *testing.T) {
	tests := []struct{ servers, base string }{
		{"[{url: 'https://api.example.com/v1'}]", "/v1"},
		{"[{url: 'https://api.example.com/v1/'}]", "/v1"},
		{"[{url: '//api.example.com/v1'}]", "/v1"},
		{"[{url: '/v1'}]", "/v1"},
		{"[{url: 'v1'}]", "/v1"},
		{"[{url: './v1/'}]", "/v1"},
		{"[{url: 'https://api.example.com'}]", ""},
		{"[{url: '/'}]", ""},
		{"[]", ""},
		{"[{url: '{scheme}://{host}:{port}/{base}', variables: {scheme: {default: https}, host: {default: a.example}, port: {default: '443'}, base: {default: v2}}}]", "/v2"},
		{"[{url: 'https://{region}.example.com/api/{version}', variables: {region: {default: eu}, version: {default: v3}}}]", "/api/v3"},
		{"[{url: /first}, {url: /second}]", "/first"},
	}
	for _, tt := range tests {
		c, err := spec.ReadOptions{Strict: true}.Read([]byte("openapi: 3.0.3\ninfo: {title: x, version: '1'}\nservers: " + tt.servers + "\npaths: {}\n"))
		if err != nil {
			t.Errorf("servers %s: %v", tt.servers, err)
			continue
		}
		if c.Base != tt.base {
			t.Errorf("servers %s: base %q, want %q", tt.servers, c.Base, tt.base)
		}
	}
}

// ownServers is a document whose paths and operations have servers of
// their own, as OpenAPI lets them.
const ownServers = `openapi: 3.0.3
info: {title: x, version: '1'}
servers: [{url: 'https://api.example.com/v1'}]
paths:
  /plain:
    get: {operationId: plain, responses: {'204': {description: ok}}}
  /relative-path:
    servers: [{url: /v2}]
    get: {operationId: relativePath, responses: {'204': {description: ok}}}
  /relative-operation:
    get: {operationId: relativeOperation, servers: [{url: /v3}], responses: {'204': {description: ok}}}
    delete: {operationId: deleteRelativeOperation, responses: {'204': {description: ok}}}
  /variables:
    get:
      operationId: variables
      servers: [{url: 'https://operation.example.com/{version}', variables: {version: {default: v4}}}]
      responses: {'204': {description: ok}}
  /elsewhere:
    servers: [{url: 'https://messaging.example.com'}]
    get: {operationId: elsewhere, servers: [], responses: {'204': {description: ok}}}
  /empty:
    servers: []
    get: {operationId: empty, responses: {'204': {description: ok}}}
`

// TestOperationBases: an operation with servers of its own, or of its
// path's, is served below the path of the first of them; an empty list
// of servers is none.
func TestOperationBases(t *testing.T) {
	c, err := spec.ReadOptions{Strict: true}.Read([]byte(ownServers))
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{
		"plain": "/v1", "relativePath": "/v2", "relativeOperation": "/v3", "deleteRelativeOperation": "/v1",
		"variables": "/v4", "elsewhere": "", "empty": "/v1",
	} {
		if got := c.Operation(id).Base; got != want {
			t.Errorf("%s: base %q, want %q", id, got, want)
		}
	}
	if got, want := c.Bases(), []string{"/v1", "", "/v2", "/v3", "/v4"}; !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) || got[0] != "/v1" {
		t.Errorf("Bases() = %q, want %q, the document's first", got, want)
	}
	if c.PathBase("/relative-path") != "/v2" || c.PathBase("/relative-operation") != "/v1" {
		t.Errorf("PathBase: %q, %q; want /v2, /v1", c.PathBase("/relative-path"), c.PathBase("/relative-operation"))
	}
}

// TestRouterServesEachBase: the router finds each operation below its own
// base path, whatever the host, and no other; the route it gives is the
// document's.
func TestRouterServesEachBase(t *testing.T) {
	c, err := spec.Read([]byte(ownServers))
	if err != nil {
		t.Fatal(err)
	}
	router, err := spec.NewRouter(c.Doc)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ method, path, want string }{
		{"GET", "/v1/plain", "plain"},
		{"GET", "/v2/relative-path", "relativePath"},
		{"GET", "/v3/relative-operation", "relativeOperation"},
		{"DELETE", "/v1/relative-operation", "deleteRelativeOperation"},
		{"GET", "/v4/variables", "variables"},
		{"GET", "/elsewhere", "elsewhere"},
		{"GET", "/v1/empty", "empty"},
		{"GET", "/v1/relative-path", ""},
		{"GET", "/v1/relative-operation", ""},
		{"DELETE", "/v3/relative-operation", ""},
		{"GET", "/v1/elsewhere", ""},
	}
	for _, tt := range tests {
		route, _, err := router.FindRoute(httptest.NewRequest(tt.method, "http://petmock.local"+tt.path, nil))
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("%s %s: found %s, want none", tt.method, tt.path, route.Operation.OperationID)
		case tt.want != "" && err != nil:
			t.Errorf("%s %s: %v, want %s", tt.method, tt.path, err, tt.want)
		case tt.want != "" && (route.Operation.OperationID != tt.want || c.RouteOperation(route) != c.Operation(tt.want)):
			t.Errorf("%s %s: found %s at %s, want %s", tt.method, tt.path, route.Operation.OperationID, route.Path, tt.want)
		}
	}
}

// TestServedServersOfOperations: the document served has the servers of
// its paths and operations replaced too, each by the mock at the base
// path it serves them below, so that a client of it sends every request
// where it is served.
func TestServedServersOfOperations(t *testing.T) {
	for _, lang := range []string{"YAML", "JSON"} {
		src := []byte(ownServers)
		if lang == "JSON" {
			c, err := spec.Read(src)
			if err != nil {
				t.Fatal(err)
			}
			if src, err = c.JSON(); err != nil {
				t.Fatal(err)
			}
		}
		c, err := spec.Read(src)
		if err != nil {
			t.Fatal(err)
		}
		ym, js, err := c.Served("http://here:8080/v1", "the mock")
		if err != nil {
			t.Fatal(err)
		}
		for _, served := range []struct {
			as  string
			doc []byte
		}{{"YAML", ym}, {"JSON", js}} {
			got, err := spec.ReadOptions{Strict: true}.Read(served.doc)
			if err != nil {
				t.Errorf("%s as %s: the document served does not read: %v", lang, served.as, err)
				continue
			}
			for _, op := range c.Operations {
				if g := got.Operation(op.ID); g == nil || g.Base != op.Base {
					t.Errorf("%s as %s: %s is served below %q, want %q", lang, served.as, op.ID, g.Base, op.Base)
				}
			}
			for _, host := range []string{"api.example.com", "operation.example.com", "messaging.example.com"} {
				if strings.Contains(string(served.doc), host) {
					t.Errorf("%s as %s: the document served still names the server %s", lang, served.as, host)
				}
			}
			if n := strings.Count(string(served.doc), "http://here:8080"); n != 5 {
				t.Errorf("%s as %s: %d servers at the mock, want 5 (the document's, 2 of paths, 2 of operations)", lang, served.as, n)
			}
		}
	}
}

// specificPaths has templates that match the same paths, as Adobe AEM's
// do: /{path}/{name} and /{intermediatePath}/{authorizableId}.ks.html,
// of as many parameters, the second of more text.
const specificPaths = `openapi: 3.0.3
info: {title: Specific, version: 1.0.0}
servers: [{url: /v1}]
paths:
  /{path}/{name}:
    parameters:
      - {name: path, in: path, required: true, schema: {type: string}}
      - {name: name, in: path, required: true, schema: {type: string}}
    get: {operationId: getNode, responses: {'200': {description: ok}}}
    post: {operationId: postNode, responses: {'200': {description: ok}}}
  /{intermediatePath}/{authorizableId}.ks.html:
    parameters:
      - {name: intermediatePath, in: path, required: true, schema: {type: string}}
      - {name: authorizableId, in: path, required: true, schema: {type: string}}
    post: {operationId: postKeystore, responses: {'200': {description: ok}}}
  /things/{x}/{y}:
    parameters:
      - {name: x, in: path, required: true, schema: {type: string}}
      - {name: y, in: path, required: true, schema: {type: string}}
    delete: {operationId: deleteThing, responses: {'204': {description: gone}}}
  /quoted/{id}/dossier":
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
    get: {operationId: getDossier, responses: {'200': {description: ok}}}
  /spaced/{id}/two words:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
    get: {operationId: getSpaced, responses: {'200': {description: ok}}}
  /certificates(algorithm={algorithm},thumbprint={thumbprint}):
    parameters:
      - {name: algorithm, in: path, required: true, schema: {type: string}}
      - {name: thumbprint, in: path, required: true, schema: {type: string}}
    get: {operationId: getCertificate, responses: {'200': {description: ok}}}
  /tags[]/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string}}
    get: {operationId: getTag, responses: {'200': {description: ok}}}
  /things/{a}/{b}.txt:
    parameters:
      - {name: a, in: path, required: true, schema: {type: string}}
      - {name: b, in: path, required: true, schema: {type: string}}
    get: {operationId: getText, responses: {'200': {description: ok}}}
  /{a}/{b}.json:
    parameters:
      - {name: a, in: path, required: true, schema: {type: string}}
      - {name: b, in: path, required: true, schema: {type: string}}
    get: {operationId: getJSON, responses: {'200': {description: ok}}}
`

// TestRouterTakesTheMoreSpecificTemplate: of two templates of as many
// parameters that match a path, the one of more text is the route where
// it takes the method, as a server of the document routes it; gorillamux
// took the first in kin-openapi's order, and AEM's keystore was never
// reached. A template of more text without the method leaves the route to
// the other, and one with it takes a path whose first template lacks it.
// A template of a character a path escapes matches the path as sent.
func TestRouterTakesTheMoreSpecificTemplate(t *testing.T) {
	c, err := spec.Read([]byte(specificPaths))
	if err != nil {
		t.Fatal(err)
	}
	router, err := spec.NewRouter(c.Doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ method, path, want, param, value string }{
		{"POST", "/v1/home/alice.ks.html", "postKeystore", "authorizableId", "alice"},
		{"GET", "/v1/home/alice.ks.html", "getNode", "name", "alice.ks.html"},
		{"POST", "/v1/home/alice", "postNode", "name", "alice"},
		{"GET", "/v1/home/alice.json", "getJSON", "b", "alice"},
		{"GET", "/v1/home/a%2Fb.json", "getJSON", "b", "a%2Fb"},
		{"GET", "/v1/things/home/alice.txt", "getText", "b", "alice"},
		{"DELETE", "/v1/things/home/alice.txt", "deleteThing", "y", "alice.txt"},
		// A template of a character a path escapes, as Loket's
		// /conceptemployees/{id}/dossier", is matched as sent.
		{"GET", "/v1/quoted/7/dossier%22", "getDossier", "id", "7"},
		{"GET", "/v1/spaced/7/two%20words", "getSpaced", "id", "7"},
		// What a path may hold as it is stays so, as Azure Batch's
		// OData keys are sent.
		{"GET", "/v1/certificates(algorithm=sha1,thumbprint=ab12)", "getCertificate", "thumbprint", "ab12"},
		// Brackets, sent raw or escaped.
		{"GET", "/v1/tags[]/7", "getTag", "id", "7"},
		{"GET", "/v1/tags%5B%5D/7", "getTag", "id", "7"},
		{"PUT", "/v1/home/alice.ks.html", "", "", ""},
		{"PUT", "/v1/things/home/alice.txt", "", "", ""},
	} {
		route, params, err := router.FindRoute(httptest.NewRequest(tt.method, "http://petmock.local"+tt.path, nil))
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("%s %s: found %s, want none", tt.method, tt.path, route.Operation.OperationID)
		case tt.want == "":
		case err != nil:
			t.Errorf("%s %s: %v, want %s", tt.method, tt.path, err, tt.want)
		case route.Operation.OperationID != tt.want || c.RouteOperation(route) != c.Operation(tt.want) || params[tt.param] != tt.value:
			t.Errorf("%s %s: found %s at %s with %v, want %s with %s=%s", tt.method, tt.path, route.Operation.OperationID, route.Path, params, tt.want, tt.param, tt.value)
		}
	}
}
