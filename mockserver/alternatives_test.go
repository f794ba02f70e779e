package mockserver_test

import (
	"net/http"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// alternativesPaths is a resource whose item has one of three optional
// members, as Intellifi's item has one of location, location_id and
// location_url: its oneOf's members require nothing, so an item without
// any of them matches all three, and no one.
const alternativesPaths = `
  /things:
    get:
      operationId: listThings
      responses:
        '200': {description: Things., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Thing'}}}}}
    post:
      operationId: createThing
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: '#/components/schemas/NewThing'}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
  /things/{id}:
    get:
      operationId: getThing
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: A thing., content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
  /things/{id}/upload:
    post:
      operationId: uploadThing
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      requestBody:
        content:
          multipart/form-data:
            schema: {properties: {file: {type: string, format: binary}}}
      responses:
        '200': {description: Uploaded.}
`

const alternativesSchemas = `
    NewThing:
      type: object
      required: [label]
      properties:
        label: {type: string}
    Thing:
      allOf:
        - $ref: '#/components/schemas/NewThing'
        - type: object
          required: [id]
          properties:
            id: {type: integer}
        - oneOf:
            - {type: object, properties: {location: {type: object, properties: {name: {type: string}}}}}
            - {type: object, properties: {location_id: {type: string}}}
            - {type: object, properties: {location_url: {type: string}}}
`

// TestItemsOfAlternatives: the items of the catalogue, and an item
// created without any of the members that tell the oneOf's alternatives
// apart, are answered matching exactly one of them; a multipart body whose
// schema names no type but declares properties is read as the object it
// is.
func TestItemsOfAlternatives(t *testing.T) {
	c := documentWith(t, alternativesPaths, alternativesSchemas)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	auth := []string{"X-API-Key", key}
	req, resp, body := fetch(t, http.MethodGet, base+"/v1/things", "", auth...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /v1/things: %d\n%s", resp.StatusCode, body)
	}
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
		t.Errorf("GET /v1/things, the catalogue: %v\n%s", err, body)
	}
	req, resp, body = fetch(t, http.MethodPost, base+"/v1/things", `{"label":"sent"}`, append(auth, "Content-Type", "application/json")...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /v1/things: %d\n%s", resp.StatusCode, body)
	}
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
		t.Errorf("POST /v1/things: %v\n%s", err, body)
	}
	loc := resp.Header.Get("Location")
	req, resp, body = fetch(t, http.MethodGet, loc, "", auth...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d\n%s", loc, resp.StatusCode, body)
	}
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
		t.Errorf("GET %s, the item created: %v\n%s", loc, err, body)
	}
	upload := "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.bin\"\r\nContent-Type: application/octet-stream\r\n\r\nbytes\r\n--b--\r\n"
	_, resp, body = fetch(t, http.MethodPost, base+"/v1/things/1/upload", upload, append(auth, "Content-Type", "multipart/form-data; boundary=b")...)
	if resp.StatusCode != http.StatusOK {
		t.Errorf("POST /v1/things/1/upload, a multipart body of a schema without a type: %d\n%s", resp.StatusCode, body)
	}
}
