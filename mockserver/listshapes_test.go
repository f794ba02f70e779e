package mockserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// TestListsOfTheirOwnSchema: a list whose schema of an item asks more
// than the read's, a date-time where the read takes any text (Azure's
// campaigns), a createdAt the read may leave out (VTEX's brands) and an
// updatedAt the read does not have, and no other member (Getty Images'
// boards), answers items that match it, the catalogue's and one created
// with an opening of plain text alike, their ids and names kept; the read
// shows what the list shows, and two lists of the same items answer the
// same.
func TestListsOfTheirOwnSchema(t *testing.T) {
	c := documentWith(t, `
  /campaigns:
    get:
      operationId: listCampaigns
      responses:
        '200': {description: The campaigns., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Listed'}}}}}
    post:
      operationId: createCampaign
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Campaign'}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Campaign'}}}}
  /campaigns/{id}:
    get:
      operationId: getCampaign
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: A campaign., content: {application/json: {schema: {$ref: '#/components/schemas/Campaign'}}}}
`, `
    Campaign:
      type: object
      required: [name]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
        opening: {type: string}
        createdAt: {type: string}
        notes: {type: string}
    Listed:
      type: object
      additionalProperties: false
      required: [id, createdAt, updatedAt]
      properties:
        id: {type: integer}
        name: {type: string}
        opening: {type: string, format: date-time}
        createdAt: {type: string, format: date-time}
        updatedAt: {type: string, format: date-time}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	auth := []string{"X-API-Key", key}
	if _, resp, body := fetch(t, http.MethodPost, base+"/v1/campaigns", `{"name":"spring","opening":"soon","notes":"not listed"}`, append(auth, "Content-Type", "application/json")...); resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /v1/campaigns: %d\n%s", resp.StatusCode, body)
	}
	req, resp, first := fetch(t, http.MethodGet, base+"/v1/campaigns", "", auth...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /v1/campaigns: %d\n%s", resp.StatusCode, first)
	}
	if err := documented(t, c, req, resp.StatusCode, resp.Header, first); err != nil {
		t.Errorf("GET /v1/campaigns: %v\n%s", err, first)
	}
	// Another write, so that the page is made again.
	fetch(t, http.MethodPost, base+"/v1/campaigns", `{"name":"summer"}`, append(auth, "Content-Type", "application/json")...)
	_, _, again := fetch(t, http.MethodGet, base+"/v1/campaigns", "", auth...)
	var a, b []map[string]any
	if json.Unmarshal(first, &a) != nil || json.Unmarshal(again, &b) != nil || len(b) < len(a) {
		t.Fatalf("the lists: %s\n%s", first, again)
	}
	for i, it := range a {
		if got, _ := json.Marshal(b[i]); !bytes.Equal(mustJSON(it), got) {
			t.Errorf("item %v listed as %s, then as %s", it["id"], mustJSON(it), got)
		}
		_, _, read := fetch(t, http.MethodGet, base+"/v1/campaigns/"+fmt.Sprint(it["id"]), "", auth...)
		var r map[string]any
		if json.Unmarshal(read, &r) != nil || r["opening"] != it["opening"] || r["createdAt"] != it["createdAt"] || r["name"] != it["name"] {
			t.Errorf("item %v read as %s, listed as %s: opening, createdAt and name differ", it["id"], read, mustJSON(it))
		}
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// TestListedIDsInTheListsType: a list whose schema of an item gives the
// id another type than the read's, a string of an integer id as Jira's
// security levels have, answers each id in the list's type, the same id.
func TestListedIDsInTheListsType(t *testing.T) {
	c := documentWith(t, `
  /levels:
    get:
      operationId: listLevels
      responses:
        '200': {description: The levels., content: {application/json: {schema: {type: object, properties: {values: {type: array, items: {$ref: '#/components/schemas/Listed'}}}}}}}
    post:
      operationId: createLevel
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Level'}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Level'}}}}
  /levels/{id}:
    get:
      operationId: getLevel
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: A level., content: {application/json: {schema: {$ref: '#/components/schemas/Level'}}}}
`, `
    Level:
      type: object
      required: [name]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
    Listed:
      type: object
      additionalProperties: false
      properties:
        id: {type: string}
        name: {type: string}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	req, resp, body := fetch(t, http.MethodGet, base+"/v1/levels", "", "X-API-Key", key)
	if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /v1/levels: %d %v\n%s", resp.StatusCode, err, body)
	}
	var page struct{ Values []map[string]any }
	if json.Unmarshal(body, &page) != nil || len(page.Values) == 0 {
		t.Fatalf("GET /v1/levels: %s, want levels", body)
	}
	id, _ := page.Values[0]["id"].(string)
	if _, resp, read := fetch(t, http.MethodGet, base+"/v1/levels/"+id, "", "X-API-Key", key); id == "" || resp.StatusCode != http.StatusOK || !bytes.Contains(read, []byte(`"id":`+id)) {
		t.Errorf("the first level listed as %v reads %d %s, want the level of that id", page.Values[0]["id"], resp.StatusCode, read)
	}
}
