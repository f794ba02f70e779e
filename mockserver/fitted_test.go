package mockserver_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
)

// fittedPaths are operations of no resource whose made answers can show
// what the request asks for: a list with a limit, a size and filters, a
// list with a floor of items, a wrapped list, and objects of a path.
const fittedPaths = `
  /reports:
    get:
      operationId: listReports
      parameters:
        - {name: limit, in: query, schema: {type: integer, minimum: 0}}
        - {name: status, in: query, schema: {type: string, enum: [draft, final]}}
        - {name: pages, in: query, schema: {type: integer}}
      responses:
        '200': {description: Reports., content: {application/json: {schema: {type: array, minItems: 1, maxItems: 30, items: {$ref: '#/components/schemas/Report'}}}}}
  /floor:
    get:
      operationId: listFloor
      parameters: [{name: per_page, in: query, schema: {type: integer}}]
      responses:
        '200': {description: Reports., content: {application/json: {schema: {type: array, minItems: 2, items: {$ref: '#/components/schemas/Report'}}}}}
  /search:
    get:
      operationId: search
      parameters:
        - {name: pageSize, in: query, schema: {type: integer}}
        - {name: status, in: query, schema: {type: string}}
      responses:
        '200': {description: Found., content: {application/json: {schema: {type: object, properties: {total: {type: integer}, results: {type: array, items: {$ref: '#/components/schemas/Report'}}}}}}}
  /users/{username}:
    get:
      operationId: getUser
      parameters: [{name: username, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: A user., content: {application/json: {schema: {type: object, required: [username], properties: {id: {type: integer}, username: {type: string}, email: {type: string}}}}}}
  /pets/{petId}:
    get:
      operationId: getPet
      parameters: [{name: petId, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: A pet., content: {application/json: {schema: {type: object, properties: {id: {type: integer, minimum: 1, maximum: 100}, name: {type: string}}}}}}`

const reportSchema = `
    Report:
      type: object
      properties:
        title: {type: string}
        status: {type: string, enum: [draft, final]}
        pages: {type: integer, minimum: 1}`

// TestAnswersFollowTheRequest: a made answer holds no more items than a
// limit-like parameter asks, and no fewer than its schema's minItems;
// filters give the items their values; path parameters give theirs to
// the property of their name, or to id; a value that does not fit its
// property is left as made; and the same request gets the same answer.
func TestAnswersFollowTheRequest(t *testing.T) {
	c := documentWith(t, fittedPaths, reportSchema)
	ts := newTestServer(t, mockserver.Config{Contract: c})
	get := func(path string) *response {
		t.Helper()
		resp := ts.do(t, "GET", path, "", keyed...)
		want(t, "GET "+path, resp, 200)
		return resp
	}
	// Which counts the made lists have depends on the seed: the lists are
	// asked for with many queries, so that some are longer than a limit.
	longest := 0
	for i := range 20 {
		reports := get(fmt.Sprintf("/reports?pages=%d", i+1)).array(t)
		longest = max(longest, len(reports))
		for _, r := range reports {
			if r["pages"] != float64(i+1) {
				t.Errorf("GET /reports?pages=%d lists %v", i+1, r)
			}
		}
		if n := len(get(fmt.Sprintf("/reports?pages=%d&limit=1", i+1)).array(t)); n != 1 {
			t.Errorf("GET /reports?pages=%d&limit=1: %d reports, want 1", i+1, n)
		}
		if n := len(get(fmt.Sprintf("/floor?per_page=1&x=%d", i)).array(t)); n != 2 {
			t.Errorf("GET /floor?per_page=1: %d reports, want the 2 of its minItems", n)
		}
		wrapped := get(fmt.Sprintf("/search?pageSize=1&status=final&x=%d", i)).object(t)
		results, _ := wrapped["results"].([]any)
		if len(results) > 1 {
			t.Errorf("GET /search?pageSize=1: %d results, want at most 1", len(results))
		}
		for _, r := range results {
			if r.(map[string]any)["status"] != "final" {
				t.Errorf("GET /search?status=final: %v", r)
			}
		}
	}
	if longest < 2 {
		t.Fatalf("no made list was longer than 1: the limit was never tried")
	}
	for _, r := range get("/reports?status=final&limit=5").array(t) {
		if r["status"] != "final" {
			t.Errorf("GET /reports?status=final lists %v", r)
		}
	}
	if u := get("/users/alice").object(t); u["username"] != "alice" {
		t.Errorf("GET /users/alice: %v, want username alice", u)
	}
	if p := get("/pets/12").object(t); p["id"] != 12.0 {
		t.Errorf("GET /pets/12: %v, want id 12", p)
	}
	// 500 is no id the schema allows: the made one stays.
	if p := get("/pets/500").object(t); p["id"] == 500.0 {
		t.Errorf("GET /pets/500: %v, want an id the schema allows", p)
	}
	if a, b := get("/reports?status=draft&limit=2").body, get("/reports?status=draft&limit=2").body; string(a) != string(b) {
		t.Errorf("one request, two answers:\n%s\n%s", a, b)
	}
}

// TestAnswersRepeatNoKey: a path parameter that holds a key petmock hides
// is not repeated in the answer.
func TestAnswersRepeatNoKey(t *testing.T) {
	c := documentWith(t, fittedPaths, reportSchema)
	ts := newTestServer(t, mockserver.Config{Contract: c})
	if u := ts.do(t, "GET", "/users/"+key, "", keyed...); strings.Contains(string(u.body), key) {
		t.Errorf("GET /users/<key>: %s repeats the key", u)
	}
}
