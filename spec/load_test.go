package spec_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// header heads the small documents of these tests.
const header = "openapi: 3.0.3\ninfo: {title: Small, version: 1.0.0}\nservers: [{url: /v1}]\n"

// TestLenientReading: a document with a part that does not hold as
// written is read all the same, with one warning that names the place and
// drops the part; read strictly, it is refused in one line that names the
// place and what to change.
func TestLenientReading(t *testing.T) {
	tests := []struct {
		name, doc string
		place     string // of the warning and the refusal
		dropped   func(c *spec.Contract) bool
	}{
		{"a date for a date-time", header + `paths:
  /things:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {born: {type: string, format: date-time}}}
              example: {born: 2017-07-21}`,
			"paths./things.get.responses.200.content.application/json.example",
			func(c *spec.Contract) bool {
				return c.Operation("GET /things").Response(200).Content["application/json"].Example == nil
			}},
		{"a value beside the enumeration", header + `paths:
  /things:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
components:
  schemas:
    Thing:
      type: object
      properties:
        status: {type: string, enum: [a, b], example: c}`,
			"components.schemas.Thing.properties.status.example",
			func(c *spec.Contract) bool {
				return c.Doc.Components.Schemas["Thing"].Value.Properties["status"].Value.Example == nil
			}},
		{"a oneOf matched twice", header + `paths:
  /things:
    post:
      requestBody:
        content:
          application/json:
            schema:
              oneOf:
                - {type: object, properties: {a: {type: string}}}
                - {type: object, properties: {b: {type: string}}}
            examples:
              twice: {value: {a: x}}
      responses:
        '204': {description: ok}`,
			"paths./things.post.requestBody.content.application/json.examples.twice",
			func(c *spec.Contract) bool {
				return len(c.Operation("POST /things").Op.RequestBody.Value.Content["application/json"].Examples) == 0
			}},
		{"a parameter's default beside its bounds", header + `paths:
  /things:
    get:
      parameters:
        - {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 10, default: 20}}
      responses:
        '204': {description: ok}`,
			"paths./things.get.parameters.0.schema.default",
			func(c *spec.Contract) bool {
				return c.Operation("GET /things").Parameter("query", "limit").Schema.Value.Default == nil
			}},
		{"an empty title", `openapi: 3.0.3
info: {title: '', version: 1.0.0}
paths:
  /things:
    get:
      responses:
        '204': {description: ok}`,
			"info.title",
			func(c *spec.Contract) bool { return c.Doc.Info.Title == "" }},
	}
	for _, tt := range tests {
		c, err := spec.Read([]byte(tt.doc))
		if err != nil {
			t.Errorf("%s: Read = %v, want the document read with a warning", tt.name, err)
			continue
		}
		if len(c.Warnings) != 1 || !strings.HasPrefix(c.Warnings[0], tt.place+": ") {
			t.Errorf("%s: warnings = %q, want one that begins %q", tt.name, c.Warnings, tt.place+": ")
		}
		if !tt.dropped(c) {
			t.Errorf("%s: the part at %s is still in the document", tt.name, tt.place)
		}
		_, err = spec.ReadOptions{Strict: true}.Read([]byte(tt.doc))
		if err == nil {
			t.Errorf("%s: read strictly, the document was accepted", tt.name)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, tt.place+": ") ||
			!(strings.Contains(msg, "change it") || strings.Contains(msg, "give the API")) {
			t.Errorf("%s: refusal = %q, want one line that begins %q and says what to change", tt.name, msg, tt.place+": ")
		}
	}
}

// TestValidDocumentHasNoWarnings: the embedded document, whose examples
// all match, is read without a warning.
func TestValidDocumentHasNoWarnings(t *testing.T) {
	c, err := spec.Read(spec.YAML())
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) > 0 || c.ConvertedFrom != "" {
		t.Errorf("warnings = %q, converted from %q; want none", c.Warnings, c.ConvertedFrom)
	}
}

// TestRefusalsAreOneLine: a document that cannot be read is refused in one
// line, naming the place or the line at fault, without a dump of schemas
// or the error of a language it is not written in.
func TestRefusalsAreOneLine(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string // in the message
		not       string   // not in it
	}{
		{"YAML that does not parse", "openapi: 3.0.3\ninfo:\n  title: x\n   version: 1\npaths: {}\n", []string{"YAML", "line 4"}, "JSON"},
		{"JSON that does not parse", "{\n  \"openapi\": \"3.0.3\",\n  \"info\": {\"title\": \"x\", \"version\": \"1\"},\n  \"paths\": {,}\n}\n",
			[]string{"JSON", "line 4, column 13"}, "YAML"},
		{"no openapi version", "info: {title: x, version: '1'}\npaths: {}\n", []string{"openapi: missing", `swagger: "2.0"`}, ""},
		{"a path parameter declared but not in the path", header + `paths:
  /things/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
        - {name: other, in: path, required: true, schema: {type: string}}
      responses:
        '204': {description: ok}`, []string{"paths./things/{id}.get: ", "missing other"}, "Schema:"},
		{"a schema of no type", header + `paths:
  /things:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: thing}}}}`, []string{"paths", "thing"}, "Schema:"},
		{"another version of Swagger", "swagger: '1.2'\ninfo: {title: x, version: '1'}\npaths: {}\n", []string{`swagger: "1.2"`}, ""},
	}
	for _, tt := range tests {
		for _, strict := range []bool{false, true} {
			_, err := spec.ReadOptions{Strict: strict}.Read([]byte(tt.doc))
			if err == nil {
				t.Errorf("%s (strict %v): the document was accepted", tt.name, strict)
				continue
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") || (tt.not != "" && strings.Contains(msg, tt.not)) {
				t.Errorf("%s (strict %v): refusal = %q, want one line without %q", tt.name, strict, msg, tt.not)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("%s (strict %v): refusal = %q, want it to say %q", tt.name, strict, msg, w)
				}
			}
		}
	}
}

// TestSwagger2: a Swagger 2.0 document is converted on load, its base
// path, operations, bodies and security schemes with it.
func TestSwagger2(t *testing.T) {
	c, err := spec.Read([]byte(`swagger: '2.0'
info: {title: Shop, version: '1'}
basePath: /v2
securityDefinitions:
  key: {type: apiKey, in: header, name: X-Key}
security: [{key: []}]
paths:
  /orders:
    get:
      operationId: listOrders
      produces: [application/json]
      responses:
        '200': {description: ok, schema: {type: array, items: {$ref: '#/definitions/Order'}}}
    post:
      operationId: placeOrder
      consumes: [application/json]
      produces: [application/json]
      parameters: [{name: body, in: body, required: true, schema: {$ref: '#/definitions/Order'}}]
      responses:
        '201': {description: ok, schema: {$ref: '#/definitions/Order'}}
  /orders/{id}:
    get:
      operationId: getOrder
      produces: [application/json]
      parameters: [{name: id, in: path, required: true, type: integer}]
      responses:
        '200': {description: ok, schema: {$ref: '#/definitions/Order'}}
definitions:
  Order:
    type: object
    properties:
      id: {type: integer, readOnly: true}
      item: {type: string}
`))
	if err != nil {
		t.Fatal(err)
	}
	if c.ConvertedFrom != "Swagger 2.0" || len(c.Notes) == 0 || !strings.Contains(c.Notes[0], "converted") {
		t.Errorf("converted from %q, notes %q; want Swagger 2.0, and a note that says so", c.ConvertedFrom, c.Notes)
	}
	if c.Base != "/v2" {
		t.Errorf("base = %q, want /v2", c.Base)
	}
	for _, id := range []string{"listOrders", "placeOrder", "getOrder"} {
		if c.Operation(id) == nil {
			t.Errorf("operation %s is missing", id)
		}
	}
	if s := c.Operation("placeOrder").RequestSchema(); s == nil || s.Properties["item"] == nil {
		t.Errorf("placeOrder's body = %v, want the Order schema", s)
	}
	if sch := c.Scheme("key"); sch == nil || sch.Kind != spec.SchemeAPIKey {
		t.Errorf("scheme key = %+v, want an apiKey", sch)
	}
}

// TestFaultsAreNamedWhereDefined: a schema that several places refer to
// is checked once, and named where it is defined; the warnings come in
// the order of their places, the same at every reading, and a strict
// refusal names the first and counts the others.
func TestFaultsAreNamedWhereDefined(t *testing.T) {
	doc := header + `paths:
  /things:
    get:
      responses:
        '200': {description: ok, content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Thing'}}}}}
    post:
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}, example: {size: -1}}}}
      responses:
        '201': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Thing'}}}}
components:
  schemas:
    Thing:
      type: object
      properties:
        size: {type: integer, minimum: 0, example: -2}
        part: {$ref: '#/components/schemas/Part'}
    Part:
      type: object
      properties:
        name: {type: string, maxLength: 2, example: long}
`
	want := []string{
		"components.schemas.Part.properties.name.example: ",
		"components.schemas.Thing.properties.size.example: ",
		"paths./things.post.requestBody.content.application/json.example: ",
	}
	for range 5 {
		c, err := spec.Read([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Warnings) != len(want) {
			t.Fatalf("warnings = %q, want %d", c.Warnings, len(want))
		}
		for i, w := range want {
			if !strings.HasPrefix(c.Warnings[i], w) {
				t.Errorf("warning %d = %q, want it to begin %q", i, c.Warnings[i], w)
			}
		}
	}
	_, err := spec.ReadOptions{Strict: true}.Read([]byte(doc))
	if err == nil || !strings.HasPrefix(err.Error(), want[0]) || !strings.HasSuffix(err.Error(), "(and 2 more such values)") {
		t.Errorf("strict: %v, want the first place, and the two more", err)
	}
}

// TestOpenAPI31Values: the examples of an OpenAPI 3.1 document are held to
// their schemas by the JSON Schema 2020-12 validator, which kin-openapi
// runs only without the option that leaves details out: a matching one is
// kept, one that does not match is dropped with its reason.
func TestOpenAPI31Values(t *testing.T) {
	doc := `openapi: 3.1.0
info: {title: Small, version: 1.0.0}
paths:
  /things/{thingId}:
    get:
      parameters:
        - {name: thingId, in: path, required: true, schema: {type: string, format: uuid}, example: 1725ff48-ab45-4bb5-9d02-88745177dedb}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {status: {type: string, enum: [a, b]}}}
              example: {status: c}
`
	c, err := spec.ReadOptions{}.Read([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) != 1 || !strings.HasPrefix(c.Warnings[0], "paths./things/{thingId}.get.responses.200.content.application/json.example: dropped") {
		t.Fatalf("warnings = %q, want the one example that does not match", c.Warnings)
	}
	if p := c.Operation("GET /things/{thingId}").Parameter("path", "thingId"); p.Example == nil {
		t.Error("the example of thingId, a uuid, was dropped")
	}
	if len(spec.SchemaOptions(c.Doc)) == 0 {
		t.Error("no options for the document's schemas")
	}
}

// TestReadingStopsWhenCancelled: a reading whose context is done gives
// up with the context's error, rather than read the document through.
func TestReadingStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (spec.ReadOptions{}).ReadContext(ctx, spec.YAML()); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadContext = %v, want context.Canceled", err)
	}
}
