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

// TestAnswer: what an operation of no resource is answered with: the
// status, and the media type of the body, JSON first, whatever JSON type
// the document names, then text, then any other type as bytes.
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
        '404': {description: Never there.}
  /charset:
    get:
      operationId: charset
      responses:
        '200': {description: Spring's., content: {application/json;charset=UTF-8: {schema: {type: object}}, application/xml: {schema: {type: object}}}}
  /any:
    get:
      operationId: any
      responses:
        '200': {description: Anything., content: {'*/*': {schema: {type: object}}}}
  /told:
    get:
      operationId: told
      responses:
        '200':
          description: Examples only.
          content:
            application/json:
              examples:
                b: {value: {n: 2}}
                a: {value: {n: 1}}
  /table:
    get:
      operationId: table
      responses:
        '200': {description: A table., content: {text/csv: {}, application/octet-stream: {}}}`)
	tests := []struct {
		id        string
		kind      spec.AnswerKind
		status    int
		mediaType string
		schema    bool
		examples  int
		about     string
		note      bool
	}{
		{"summary", spec.AnswerJSON, 200, "application/problem+json", true, 0, "summary", false},
		{"hello", spec.AnswerText, 201, "text/plain", true, 0, "hello", false},
		{"remove", spec.AnswerEmpty, 200, "", false, 0, "", false},
		{"ping", spec.AnswerJSON, 202, "application/json", false, 0, "ping", false},
		{"picture", spec.AnswerBytes, 200, "image/png", false, 0, "picture", false},
		{"nothing", spec.AnswerEmpty, 404, "", false, 0, "nothing", true},
		{"charset", spec.AnswerJSON, 200, "application/json;charset=UTF-8", true, 0, "charset", false},
		{"any", spec.AnswerJSON, 200, "application/json", true, 0, "any", false},
		{"told", spec.AnswerJSON, 200, "application/json", false, 2, "told", false},
		{"table", spec.AnswerText, 200, "text/csv", false, 0, "table", false},
	}
	for _, tt := range tests {
		a, err := c.Operation(tt.id).Answer()
		if err != nil || a.Kind != tt.kind || a.Status != tt.status || a.MediaType != tt.mediaType || (a.Schema != nil) != tt.schema ||
			len(a.Examples) != tt.examples || a.About != tt.about || (a.Note != "") != tt.note {
			t.Errorf("%s: Answer() = %+v, %v; want kind %d, status %d, %q, a schema %v, %d examples, about %q, a note %v",
				tt.id, a, err, tt.kind, tt.status, tt.mediaType, tt.schema, tt.examples, tt.about, tt.note)
		}
	}
	if a, _ := c.Operation("told").Answer(); fmt.Sprint(a.Examples) != "[map[n:1] map[n:2]]" {
		t.Errorf("told: examples %v, want them in the order of their names", a.Examples)
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
