package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// usersDocument is a resource of users whose password, and the secret of
// each of their keys, are only written.
const usersDocument = `
  /users:
    get:
      operationId: listUsers
      responses:
        '200':
          description: the users
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/User'}}
    post:
      operationId: createUser
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/User'}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/User'}
  /users/{userId}:
    parameters:
      - {name: userId, in: path, required: true, schema: {type: integer}}
    get:
      operationId: getUser
      responses:
        '200':
          description: the user
          content:
            application/json:
              schema: {$ref: '#/components/schemas/User'}
    patch:
      operationId: updateUser
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, properties: {password: {type: string, writeOnly: true}, name: {type: string}}}
      responses:
        '200':
          description: the user
          content:
            application/json:
              schema: {$ref: '#/components/schemas/User'}
`

const usersSchemas = `
    User:
      type: object
      required: [id, name, password]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
        password: {type: string, writeOnly: true}
        keys:
          type: array
          items:
            type: object
            properties:
              label: {type: string}
              secret: {type: string, writeOnly: true}
`

// TestWriteOnlyIsNeverAnswered: a member the document marks writeOnly is
// taken in a create and an update, and no answer holds it, at any depth:
// not the created item, not a read, not a list, not the catalogue's own
// items.
func TestWriteOnlyIsNeverAnswered(t *testing.T) {
	c := documentWith(t, usersDocument, usersSchemas)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	auth := []string{"X-API-Key", key, "Content-Type", "application/json"}
	for _, tt := range []struct {
		method, path, body string
		want               int
	}{
		{"POST", "/users", `{"name":"Ann","password":"hunter2","keys":[{"label":"ci","secret":"s3cret"}]}`, 201},
		{"GET", "/users/51", "", 200},
		{"PATCH", "/users/51", `{"password":"hunter3"}`, 200},
		{"GET", "/users", "", 200},
		{"GET", "/users/1", "", 200},
	} {
		req, resp, body := fetch(t, tt.method, base+"/v1"+tt.path, tt.body, auth...)
		if resp.StatusCode != tt.want {
			t.Fatalf("%s %s: %d, want %d\n%s", tt.method, tt.path, resp.StatusCode, tt.want, body)
		}
		for _, secret := range []string{`"password"`, `"secret"`, "hunter", "s3cret"} {
			if strings.Contains(string(body), secret) {
				t.Errorf("%s %s: the answer holds %s, which is only written\n%s", tt.method, tt.path, secret, body)
			}
		}
		if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
			t.Errorf("%s %s: %v", tt.method, tt.path, err)
		}
	}
	if _, resp, _ := fetch(t, http.MethodGet, base+"/v1/users/51", "", auth...); resp.StatusCode != http.StatusOK {
		t.Errorf("the user created is not there: %d", resp.StatusCode)
	}
}
