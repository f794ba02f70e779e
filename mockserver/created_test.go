package mockserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// TestCreateAnswersWhatTheDocumentDocuments: a create whose documented
// success is not the item, but the new id, as Dialogporten's 201 with a
// string is, answers the id, which reads the item back; one that
// documents another object, as Learnifier's {"uuid": ...} of a member
// added, answers that object, the id under the name the path gives it;
// one that documents the item answers the item.
func TestCreateAnswersWhatTheDocumentDocuments(t *testing.T) {
	for _, tt := range []struct {
		name, created, id string
		item              bool
	}{
		{"the id as a string", `{type: string}`, `{type: string}`, false},
		{"the id as an integer", `{type: integer}`, `{type: integer}`, false},
		{"a UUID where ids are integers", `{type: string, format: uuid}`, `{type: integer}`, false},
		{"the item", `{$ref: '#/components/schemas/Pet'}`, `{type: integer}`, true},
		{"an object of the id under the path's name", `{type: object, required: [petId], properties: {petId: {type: integer}, name: {type: string}}}`, `{type: integer}`, true},
		{"a list of items", `{type: array, items: {$ref: '#/components/schemas/Pet'}}`, `{type: integer}`, false},
		// Sakari's: the item matches both members, so matches no one of them.
		{"a oneOf of a page and a report", `{oneOf: [{type: object, properties: {data: {type: array, items: {$ref: '#/components/schemas/Pet'}}}}, {type: object, properties: {data: {type: object, properties: {inserted: {type: integer}}}, success: {type: boolean}}}]}`, `{type: integer}`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := document(t, `
  /pets:
    post:
      operationId: createPet
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [name], properties: {name: {type: string}}}
      responses:
        '201':
          description: the new pet's id
          content:
            application/json:
              schema: `+tt.created+`
  /pets/{petId}:
    get:
      operationId: getPet
      parameters:
        - {name: petId, in: path, required: true, schema: `+tt.id+`}
      responses:
        '200':
          description: the pet
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
`)
			_, base := plainServer(t, mockserver.Config{Contract: c})
			auth := []string{"X-API-Key", key, "Content-Type", "application/json"}
			req, resp, body := fetch(t, http.MethodPost, base+"/v1/pets", `{"name":"Rex"}`, auth...)
			if resp.StatusCode != http.StatusCreated {
				t.Fatalf("POST /v1/pets: %d\n%s", resp.StatusCode, body)
			}
			if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
				t.Fatalf("POST /v1/pets: %v\n%s", err, body)
			}
			var v any
			if err := json.Unmarshal(body, &v); err != nil {
				t.Fatal(err)
			}
			if _, isItem := v.(map[string]any); isItem != tt.item {
				t.Fatalf("POST /v1/pets answered %s, want the item: %v", body, tt.item)
			}
			loc := resp.Header.Get("Location")
			if _, resp, got := fetch(t, http.MethodGet, loc, "", auth...); resp.StatusCode != http.StatusOK || !strings.Contains(string(got), "Rex") {
				t.Errorf("GET %s, the Location of the item created: %d %s", loc, resp.StatusCode, got)
			}
			if m, ok := v.(map[string]any); ok && tt.name == "an object of the id under the path's name" {
				if id, _ := json.Marshal(m["petId"]); !strings.HasSuffix(loc, "/"+string(id)) || m["name"] != "Rex" {
					t.Errorf("the object answered, %s, does not hold the id of the Location, %s, and the name sent", body, loc)
				}
			}
			if list, ok := v.([]any); ok && tt.name == "a list of items" {
				if len(list) != 1 || list[0].(map[string]any)["name"] != "Rex" {
					t.Errorf("the list answered, %s, does not hold the item created alone", body)
				}
			}
			if m, ok := v.(map[string]any); ok && tt.name == "a oneOf of a page and a report" {
				// The page, which holds items, holds the one created.
				if page, _ := m["data"].([]any); len(page) != 1 || page[0].(map[string]any)["name"] != "Rex" {
					t.Errorf("the page answered, %s, does not hold the item created alone", body)
				}
			}
			if tt.name != "the id as a string" && tt.name != "the id as an integer" {
				return
			}
			if id := strings.Trim(strings.TrimSpace(string(body)), `"`); !strings.HasSuffix(loc, "/"+id) {
				t.Errorf("the id answered, %s, is not the one of the Location, %s", id, loc)
			}
		})
	}
}

// TestAnswersOfJSONWithoutASchema: an operation whose success documents a
// JSON media type with no schema, as dev.to's page created gives an
// example only, answers JSON, the item created, as its Content-Type says;
// one that documents no content answers none.
func TestAnswersOfJSONWithoutASchema(t *testing.T) {
	c := document(t, `
  /pages:
    post:
      operationId: createPage
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [name], properties: {name: {type: string}}}
      responses:
        '200':
          description: the page created
          content:
            application/json:
              example: {id: 53, name: Example Page}
  /pages/{pageId}:
    get:
      operationId: getPage
      parameters:
        - {name: pageId, in: path, required: true, schema: {type: integer}}
      responses:
        '200':
          description: the page
          content:
            application/json:
              schema: {type: object, required: [id, name], properties: {id: {type: integer}, name: {type: string}}}
    delete:
      operationId: deletePage
      parameters:
        - {name: pageId, in: path, required: true, schema: {type: integer}}
      responses:
        '204': {description: deleted}
`)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	auth := []string{"X-API-Key", key, "Content-Type", "application/json"}
	_, resp, body := fetch(t, http.MethodPost, base+"/v1/pages", `{"name":"Rex"}`, auth...)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") || !strings.Contains(string(body), `"Rex"`) {
		t.Fatalf("POST /v1/pages: %d, Content-Type %q\n%s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	loc := resp.Header.Get("Location")
	_, resp, body = fetch(t, http.MethodGet, loc, "", auth...)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") || !strings.Contains(string(body), `"Rex"`) {
		t.Errorf("GET %s: %d, Content-Type %q\n%s", loc, resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	_, resp, body = fetch(t, http.MethodDelete, loc, "", auth...)
	if resp.StatusCode != http.StatusNoContent || len(body) != 0 || resp.Header.Get("Content-Type") != "" {
		t.Errorf("DELETE %s: %d, Content-Type %q\n%s", loc, resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
}
