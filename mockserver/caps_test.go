package mockserver_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec/fake"
)

// TestHugeMinimumsAreCapped: a schema that asks for a string of a billion
// characters or a hundred million items is answered at once with a value
// made within fake's caps, which may then not match; the start says so
// once for each such schema, and that its answers may not match. Read
// strictly, the document is refused.
func TestHugeMinimumsAreCapped(t *testing.T) {
	paths := `
  /long:
    get:
      operationId: long
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: string, minLength: 1000000000}}}}
  /many:
    get:
      operationId: many
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: array, minItems: 100000000, items: {type: integer}}}}}`
	srv, err := mockserver.New(mockserver.Config{Contract: document(t, paths), APIKeys: []string{"k"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"paths./long.get.responses.200.content.application/json.schema: minLength 1000000000: generated values are capped at 4096 characters; validation keeps the document's value",
		"paths./many.get.responses.200.content.application/json.schema: minItems 100000000: generated values are capped at 100 items; validation keeps the document's value",
		"paths./long.get.responses.200: no value made from the schema matches it: minLength 1000000000 is more than the 4096 characters strings are made with; its answers are made all the same, and may not match",
		"paths./many.get.responses.200: no value made from the schema matches it: minItems 100000000 is more than the 100 items arrays are made with; its answers are made all the same, and may not match",
	}
	if got := srv.Warnings(); !slices.Equal(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	for path, check := range map[string]func(v any) bool{
		"/v1/long": func(v any) bool { s, ok := v.(string); return ok && len(s) == fake.MaxStringLength },
		"/v1/many": func(v any) bool { a, ok := v.([]any); return ok && len(a) == fake.MaxArrayItems },
	} {
		req, _ := http.NewRequest("GET", hs.URL+path, nil)
		req.Header.Set("X-API-Key", "k")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var v any
		if err := json.Unmarshal(body, &v); resp.StatusCode != 200 || err != nil || !check(v) {
			t.Errorf("GET %s: %d, %d bytes, want 200 and a value made within the caps", path, resp.StatusCode, len(body))
		}
	}
	if _, err := mockserver.New(mockserver.Config{Contract: strictDocument(t, paths)}); err == nil || !strings.Contains(err.Error(), "minLength 1000000000 is more than") {
		t.Errorf("strict: New = %v, want the minLength refused", err)
	}
}

// TestUnmakeableItemsStartEmpty: a resource whose items ask for more than
// fake makes starts empty, with a warning that says why, in a document
// read leniently; read strictly, the document is refused.
func TestUnmakeableItemsStartEmpty(t *testing.T) {
	paths := `
  /things:
    get:
      operationId: listThings
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Error'}}}}}
    post:
      operationId: createThing
      requestBody: {content: {application/json: {schema: {type: object, properties: {code: {type: string, minLength: 1000000000}, message: {type: string}}}}}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  /things/{status}:
    get:
      operationId: getThing
      parameters: [{name: status, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: object, required: [status, code], properties: {status: {type: integer}, code: {type: string, minLength: 1000000000}}}}}}`
	c := document(t, paths)
	if len(c.Resources) != 1 {
		t.Fatalf("%d resources, want things", len(c.Resources))
	}
	srv, err := mockserver.New(mockserver.Config{Contract: c})
	if err != nil {
		t.Fatal(err)
	}
	const warning = "catalogue of things: code: no value made from the schema matches it"
	if w := srv.Warnings(); !slices.ContainsFunc(w, func(s string) bool {
		return strings.HasPrefix(s, warning) && strings.HasSuffix(s, "; the resource starts empty")
	}) {
		t.Errorf("warnings = %q, want one that begins %q", w, warning)
	}
	if n := srv.Items().Store("things").Len(); n != 0 {
		t.Errorf("things holds %d items, want none", n)
	}
	if _, err := mockserver.New(mockserver.Config{Contract: strictDocument(t, paths)}); err == nil || !strings.Contains(err.Error(), "minimum string length is 1000000000") {
		t.Errorf("strict: New = %v, want the item refused", err)
	}
}
