package mockserver_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// TestListOfIDs: a list documented as the names of the items, as
// Pinecone's of its collections, answers the name of each, a created
// item's among them, where it answered the items.
func TestListOfIDs(t *testing.T) {
	c := documentWith(t, `
  /collections:
    get:
      operationId: listCollections
      responses:
        '200': {description: The names., content: {application/json: {schema: {type: array, items: {type: string}}}}}
    post:
      operationId: createCollection
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Collection'}}}}
      responses:
        '201': {description: Created.}
  /collections/{name}:
    get:
      operationId: getCollection
      parameters: [{name: name, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: A collection., content: {application/json: {schema: {$ref: '#/components/schemas/Collection'}}}}
`, `
    Collection:
      type: object
      required: [name]
      properties:
        name: {type: string}
        size: {type: integer}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	auth := []string{"X-API-Key", key}
	if _, resp, body := fetch(t, http.MethodPost, base+"/v1/collections", `{"name":"made-here","size":3}`, append(auth, "Content-Type", "application/json")...); resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /v1/collections: %d\n%s", resp.StatusCode, body)
	}
	req, resp, body := fetch(t, http.MethodGet, base+"/v1/collections", "", auth...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /v1/collections: %d\n%s", resp.StatusCode, body)
	}
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
		t.Errorf("GET /v1/collections: %v\n%s", err, body)
	}
	var names []string
	if err := json.Unmarshal(body, &names); err != nil || !slices.Contains(names, "made-here") {
		t.Errorf("GET /v1/collections = %s (%v), want the names, made-here among them", body, err)
	}
}
