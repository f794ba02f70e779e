package check

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/petstore/contract/spec"
)

// notes is a resource whose list shows each item as a summary, without
// the body its read answers, as 1Password Connect's items are listed
// without their fields.
const notes = `openapi: 3.0.3
info: {title: Notes, version: 1.0.0}
servers: [{url: /n}]
paths:
  /notes:
    get:
      operationId: listNotes
      responses:
        '200': {description: Notes., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Summary'}}}}}
    post:
      operationId: createNote
      requestBody:
        required: true
        content: {application/json: {schema: {type: object, required: [title, body], properties: {title: {type: string}, body: {type: string}}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
  /notes/{noteId}:
    get:
      operationId: getNote
      parameters: [{name: noteId, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: A note., content: {application/json: {schema: {$ref: '#/components/schemas/Note'}}}}
        '404': {description: None.}
components:
  schemas:
    Summary:
      type: object
      required: [id, title]
      properties:
        id: {type: integer}
        title: {type: string}
    Note:
      allOf:
        - $ref: '#/components/schemas/Summary'
        - type: object
          required: [body]
          properties:
            body: {type: string}
`

// notesServer keeps notes whole and lists them as summaries; a server
// that relabels lists each title otherwise.
func notesServer(relabels bool) http.Handler {
	var mu sync.Mutex
	var kept []map[string]any
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodPost:
			var body map[string]any
			json.NewDecoder(r.Body).Decode(&body)
			n := map[string]any{"id": len(kept) + 1, "title": body["title"], "body": body["body"]}
			kept = append(kept, n)
			w.WriteHeader(http.StatusCreated)
			json.NewEncoder(w).Encode(n)
		case r.URL.Path == "/n/notes":
			summaries := []map[string]any{}
			for _, n := range kept {
				title := n["title"]
				if relabels {
					title = "another title"
				}
				summaries = append(summaries, map[string]any{"id": n["id"], "title": title})
			}
			json.NewEncoder(w).Encode(summaries)
		default:
			for _, n := range kept {
				if jsonText(n["id"]) == strings.TrimPrefix(r.URL.Path, "/n/notes/") {
					json.NewEncoder(w).Encode(n)
					return
				}
			}
			w.WriteHeader(http.StatusNotFound)
		}
	})
}

// TestListedAsItsSchemaSays: an item created is found in the list as the
// list's schema shows it, a summary without what only its read answers;
// a list that shows another value of what it does show still fails.
func TestListedAsItsSchemaSays(t *testing.T) {
	t.Parallel()
	c, err := spec.Read([]byte(notes))
	if err != nil {
		t.Fatal(err)
	}
	res := c.Resource("notes")
	if res == nil || res.List == nil {
		t.Fatalf("no resource notes with a list: %v", c.Notes)
	}
	ctx := checkContext(t)
	if err := judgeOver(t, notesServer(false), Settings{Contract: c}).CheckItemCreated(ctx, res); err != nil {
		t.Errorf("a server that lists summaries as the list's schema says: %v", err)
	}
	b := wantBroken(t, "a server that lists another title", judgeOver(t, notesServer(true), Settings{Contract: c}).CheckItemCreated(ctx, res), "resource.listed")
	if b != nil && !strings.Contains(b.Detail, "title") {
		t.Errorf("the verdict does not name title: %s", b.Detail)
	}
}
