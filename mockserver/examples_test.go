package mockserver_test

import (
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// exampleDocument is a small document of pets, a resource, whose answers
// have named examples, one of them broken, and whose list requires a
// header.
func exampleDocument(tb testing.TB) *spec.Contract {
	tb.Helper()
	return document(tb, `
  /pets:
    get:
      operationId: listPets
      security: []
      parameters:
        - {name: status, in: query, schema: {type: string, enum: [available, sold]}}
      responses:
        '200':
          description: Pets.
          headers:
            X-Total-Count: {required: true, schema: {type: integer, minimum: 0, example: 2}}
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Pet'}}
              examples:
                empty: {summary: No pets., value: []}
                two: {value: [{id: 1, name: Rex}, {id: 2, name: Toto, tag: dog}]}
        '400':
          description: Refused.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
              examples:
                badStatus: {value: {code: bad_request, message: 'status: must be one of available, sold', status: 400}}
                misnumbered: {value: {code: bad_request, message: 'status: must be one of available, sold', status: 404}}
    post:
      operationId: createPet
      security: []
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [name], properties: {name: {type: string}, tag: {type: string}}}
      responses:
        '201':
          description: Created.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
              examples:
                rex: {value: {id: 7, name: Rex}}
        '400': {description: Refused., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  /pets/{petId}:
    get:
      operationId: getPet
      security: []
      parameters:
        - {name: petId, in: path, required: true, schema: {type: integer, format: int64}}
      responses:
        '200': {description: A pet., content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}}
        '400': {description: Refused., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
        '404': {description: None., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  /motd:
    get:
      operationId: motd
      security: []
      responses:
        '200':
          description: The message of the day.
          content:
            text/plain:
              schema: {type: string}
              examples:
                hello: {value: 'hello, world'}`)
}

// TestPreferExample checks that Prefer: example= answers the named
// example of the status Prefer: code= forces, or of the success, with the
// headers the document requires, and says so in Preference-Applied; and
// that a name the document does not have is refused, naming those it has.
func TestPreferExample(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{Contract: exampleDocument(t)})
	for _, tt := range []struct {
		method, path, body, prefer string
		status                     int
		want                       string // the body, or the start of the Error's message
		applied                    string
	}{
		{"GET", "/pets", "", "example=two", 200, `[{"id":1,"name":"Rex"},{"id":2,"name":"Toto","tag":"dog"}]` + "\n", "example=two"},
		{"GET", "/pets", "", "example=empty", 200, "[]\n", "example=empty"},
		{"GET", "/pets", "", `example="empty"`, 200, "[]\n", "example=empty"},
		{"GET", "/pets", "", "code=400, example=badStatus", 400, `{"code":"bad_request","message":"status: must be one of available, sold","status":400}` + "\n", "code=400, example=badStatus"},
		{"GET", "/pets", "", "code=200, example=two", 200, `[{"id":1,"name":"Rex"},{"id":2,"name":"Toto","tag":"dog"}]` + "\n", "code=200, example=two"},
		{"GET", "/motd", "", "example=hello", 200, "hello, world", "example=hello"},
		{"GET", "/pets", "", "example=three", 400, "prefer: example=three: not an example of the 200 answer of listPets; its examples are empty, two", ""},
		{"GET", "/pets", "", "code=400, example=two", 400, "prefer: example=two: not an example of the 400 answer of listPets; its examples are badStatus, misnumbered", ""},
		{"GET", "/pets/1", "", "example=one", 400, "prefer: example=one: the 200 answer of getPet has no named examples", ""},
		{"GET", "/pets", "", "example=", 400, "prefer: example=: want the name of an example", ""},
		{"GET", "/pets", "", "code=400, example=misnumbered", 400, "prefer: example=misnumbered: the document's example breaks its own contract, so petmock does not answer it: example.body.status: 404, but the answer's status is 400", ""},
		// The request is checked first, unless a code is forced.
		{"POST", "/pets", `{"tag":"cat"}`, "example=rex", 400, "name: is required", ""},
		{"GET", "/pets?status=lost", "", "example=two", 400, "status: must be one of available, sold", ""},
		// A code the operation does not document is refused as without
		// an example.
		{"GET", "/pets", "", "code=404, example=two", 400, "prefer: code=404 is not documented for listPets", ""},
	} {
		resp := ts.do(t, tt.method, tt.path, tt.body, "Prefer", tt.prefer)
		what := tt.method + " /v1" + tt.path + " with Prefer: " + tt.prefer
		if resp.StatusCode != tt.status {
			t.Errorf("%s: %s, want %d", what, resp, tt.status)
			continue
		}
		if tt.applied == "" {
			if e := resp.apiError(t); !strings.HasPrefix(e.Message, tt.want) {
				t.Errorf("%s: %q, want a message that starts %q", what, e.Message, tt.want)
			}
			continue
		}
		if string(resp.body) != tt.want {
			t.Errorf("%s: %s, want the example %s", what, resp.body, tt.want)
		}
		if got := resp.Header.Get("Preference-Applied"); got != tt.applied {
			t.Errorf("%s: Preference-Applied %q, want %q", what, got, tt.applied)
		}
	}
	// The list requires X-Total-Count: its example value comes along.
	if got := ts.do(t, "GET", "/pets", "", "Prefer", "example=two").Header.Get("X-Total-Count"); got != "2" {
		t.Errorf("GET /v1/pets with Prefer: example=two: X-Total-Count %q, want 2, the header's example", got)
	}
}

// TestPreferExampleChangesNothing: a write answered with an example is
// not processed.
func TestPreferExampleChangesNothing(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{Contract: exampleDocument(t), Items: catalogue.Items{"pets": nil}})
	resp := ts.do(t, "POST", "/pets", `{"name":"Rex"}`, "Prefer", "example=rex")
	if resp.StatusCode != 201 || string(resp.body) != `{"id":7,"name":"Rex"}`+"\n" {
		t.Errorf("POST /v1/pets with Prefer: example=rex: %s, want 201 and the example", resp)
	}
	if n := ts.Items().Store("pets").Len(); n != 0 {
		t.Errorf("POST /v1/pets with Prefer: example=rex: %d pets stored, want none: an example is no write", n)
	}
	if resp := ts.do(t, "POST", "/pets", `{"name":"Rex"}`); resp.StatusCode != 201 || ts.Items().Store("pets").Len() != 1 {
		t.Errorf("POST /v1/pets without Prefer: %s with %d pets stored, want 201 and 1", resp, ts.Items().Store("pets").Len())
	}
}
