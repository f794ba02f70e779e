package mockserver_test

import (
	"net/http"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// bodyTypeDocument has a resource whose bodies say they are objects, one
// whose bodies have properties but no type, and an operation of no
// resource of each kind.
const bodyTypeDocument = `
  /typed:
    post:
      operationId: createTyped
      requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {type: object, properties: {id: {type: integer}, name: {type: string}}}}}}
  /typed/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      operationId: getTyped
      responses:
        '200': {description: the item, content: {application/json: {schema: {type: object, properties: {id: {type: integer}, name: {type: string}}}}}}
    put:
      operationId: replaceTyped
      requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}
      responses:
        '200': {description: the item, content: {application/json: {schema: {type: object, properties: {id: {type: integer}, name: {type: string}}}}}}
    patch:
      operationId: updateTyped
      requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}
      responses:
        '200': {description: the item, content: {application/json: {schema: {type: object, properties: {id: {type: integer}, name: {type: string}}}}}}
  /loose:
    post:
      operationId: createLoose
      requestBody: {content: {application/json: {schema: {properties: {name: {type: string}}}}}}
      responses:
        '201': {description: created, content: {application/json: {schema: {properties: {id: {type: integer}, name: {type: string}}}}}}
  /loose/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      operationId: getLoose
      responses:
        '200': {description: the item, content: {application/json: {schema: {properties: {id: {type: integer}, name: {type: string}}}}}}
    patch:
      operationId: updateLoose
      requestBody: {required: true, content: {application/json: {schema: {properties: {name: {type: string}}}}}}
      responses:
        '200': {description: the item, content: {application/json: {schema: {properties: {id: {type: integer}, name: {type: string}}}}}}
  /actions/typed:
    post:
      operationId: typedAction
      requestBody: {required: true, content: {application/json: {schema: {type: object, properties: {name: {type: string}}}}}}
      responses:
        '200': {description: done, content: {application/json: {schema: {type: object}}}}
  /actions/loose:
    post:
      operationId: looseAction
      requestBody: {required: true, content: {application/json: {schema: {properties: {name: {type: string}}}}}}
      responses:
        '200': {description: done, content: {application/json: {schema: {type: object}}}}
`

// TestBodyOfAnotherType: a body of another JSON type than the object the
// document asks for is a 400 on every operation, of a resource or not,
// never a success and never a 500; a schema without a type takes any JSON
// value, but a resource keeps its items as objects, and says so in a 400
// rather than fail.
func TestBodyOfAnotherType(t *testing.T) {
	c := document(t, bodyTypeDocument)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	for _, tt := range []struct {
		method, path, body string
		want               int
	}{
		{"POST", "/typed", `[1,2]`, 400},
		{"POST", "/typed", `"a"`, 400},
		{"POST", "/typed", `null`, 400},
		{"PUT", "/typed/1", `[1,2]`, 400},
		{"PATCH", "/typed/1", `[1,2]`, 400},
		{"POST", "/actions/typed", `[1,2]`, 400},
		{"POST", "/actions/typed", `7`, 400},
		{"POST", "/actions/loose", `[1,2]`, 200},
		{"POST", "/actions/loose", `7`, 200},
		{"POST", "/loose", `[1,2]`, 400},
		{"POST", "/loose", `null`, 400},
		{"POST", "/loose", ``, 201},
		{"PATCH", "/loose/1", `[1,2]`, 400},
		{"PATCH", "/loose/1", `"a"`, 400},
		{"POST", "/loose", `{"name":"Rex"}`, 201},
	} {
		headers := []string{"X-API-Key", key}
		if tt.body != "" {
			headers = append(headers, "Content-Type", "application/json")
		}
		req, resp, body := fetch(t, tt.method, base+"/v1"+tt.path, tt.body, headers...)
		if resp.StatusCode != tt.want {
			t.Errorf("%s %s %s: %d, want %d\n%s", tt.method, tt.path, tt.body, resp.StatusCode, tt.want, body)
			continue
		}
		if resp.StatusCode != http.StatusBadRequest {
			if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
				t.Errorf("%s %s %s: %v", tt.method, tt.path, tt.body, err)
			}
		}
	}
}
