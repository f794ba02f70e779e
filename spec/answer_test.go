package spec_test

import (
	"fmt"
	"testing"

	"github.com/petstore/contract/spec"
)

// smallDocument reads a document of the given paths, and no security.
func smallDocument(tb testing.TB, paths string) *spec.Contract {
	tb.Helper()
	c, err := spec.Read([]byte("openapi: 3.0.3\ninfo: {title: Small, version: 1.0.0}\nservers: [{url: /v1}]\npaths:\n" + paths))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// TestAnswer: what an operation of no resource is answered with, or why
// petmock cannot answer it.
func TestAnswer(t *testing.T) {
	c := smallDocument(t, `
  /reports/{year}/summary:
    get:
      operationId: summary
      parameters: [{name: year, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: A summary., content: {application/problem+json: {schema: {type: object}}}}
  /hello:
    get:
      operationId: hello
      responses:
        '201': {description: A greeting., content: {text/plain: {schema: {type: string}}}}
  /{id}:
    delete:
      operationId: remove
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        default: {description: Done.}
  /ping:
    post:
      operationId: ping
      responses:
        '202': {description: Taken., content: {application/json: {}}}
  /picture:
    get:
      operationId: picture
      responses:
        '200': {description: A picture., content: {image/png: {}, text/plain: {schema: {type: integer}}}}
  /nothing:
    get:
      operationId: nothing
      responses:
        '404': {description: Never there.}`)
	tests := []struct {
		id     string
		kind   spec.AnswerKind
		status int
		about  string
		err    string
	}{
		{"summary", spec.AnswerJSON, 200, "summary", ""},
		{"hello", spec.AnswerText, 201, "hello", ""},
		{"remove", spec.AnswerEmpty, 200, "", ""},
		{"ping", 0, 0, "", "paths./ping.post.responses.202.content: petmock answers application/json, or text/plain of a string schema, not application/json"},
		{"picture", 0, 0, "", "paths./picture.get.responses.200.content: petmock answers application/json, or text/plain of a string schema, not image/png, text/plain"},
		{"nothing", 0, 0, "", "paths./nothing.get.responses: no success (2xx) or default response for petmock to answer with"},
	}
	for _, tt := range tests {
		a, err := c.Operation(tt.id).Answer()
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s: Answer() = %+v, %v; want the error %q", tt.id, a, err, tt.err)
			}
			continue
		}
		if err != nil || a.Kind != tt.kind || a.Status != tt.status || a.About != tt.about || (a.Schema == nil) != (tt.kind == spec.AnswerEmpty) {
			t.Errorf("%s: Answer() = %+v, %v; want kind %d, status %d, about %q", tt.id, a, err, tt.kind, tt.status, tt.about)
		}
	}
}

// ExampleOperation_Answer: the inventory of the evolved document is
// answered with a JSON object made from its schema.
func ExampleOperation_Answer() {
	c, err := spec.ReadFile("../testdata/evolved-ops.yaml")
	if err != nil {
		panic(err)
	}
	a, err := c.Operation("getInventory").Answer()
	fmt.Println(a.Kind == spec.AnswerJSON, a.Status, a.About, spec.TypeOf(a.Schema), err)
	// Output:
	// true 200 inventory object <nil>
}
