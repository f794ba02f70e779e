package spec_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// get is a path of one GET answering 200 with a JSON body of the schema
// given, for the documents below.
func get(schema string) string {
	return `paths:
  /things:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: ` + schema + "\n"
}

// thing is the place of the schema of get.
const thing = "paths./things.get.responses.200.content.application/json.schema"

// swaggerHeader heads the small Swagger 2.0 documents of these tests.
const swaggerHeader = "swagger: '2.0'\ninfo: {title: Small, version: 1.0.0}\nbasePath: /v1\n"

// TestSlips: a document that slips where its meaning is clear is served,
// repaired, with one warning that names the place in the document's own
// words and says what is served; read strictly, it is refused in one line
// that names the same place and says what to change.
func TestSlips(t *testing.T) {
	tests := []struct {
		name, doc string
		place     string // of the warning and the refusal
		says      string // in both, the document's words
		repaired  func(c *spec.Contract) bool
	}{
		{"a response without description", header + `paths:
  /things:
    get:
      responses:
        '204': {}`, "paths./things.get.responses.204", "no description",
			func(c *spec.Contract) bool { return c.Operation("GET /things").Response(204) != nil }},
		{"a parameter without schema", header + `paths:
  /things:
    get:
      parameters: [{name: q, in: query}]
      responses:
        '204': {description: ok}`, "paths./things.get.parameters.0", "neither schema nor content",
			func(c *spec.Contract) bool {
				return c.Operation("GET /things").Parameter("query", "q").Schema.Value.Type.Is("string")
			}},
		{"a header without schema", header + `paths:
  /things:
    get:
      responses:
        '204': {description: ok, headers: {X-Count: {description: how many}}}`, "paths./things.get.responses.204.headers.X-Count", "neither schema nor content",
			func(c *spec.Contract) bool {
				return c.Operation("GET /things").Response(204).Headers["X-Count"].Value.Schema != nil
			}},
		{"type null in a 3.0 anyOf", header + get(`{type: object, properties: {meta: {anyOf: [{type: string}, {type: 'null'}]}}}`),
			thing + ".properties.meta.anyOf.1.type", `"null": OpenAPI 3.0.3 has no type null`,
			func(c *spec.Contract) bool {
				s := c.Operation("GET /things").JSONSchema(200)
				return s.VisitJSON(map[string]any{"meta": nil}) == nil && s.VisitJSON(map[string]any{"meta": "x"}) == nil &&
					s.VisitJSON(map[string]any{"meta": 1.0}) != nil
			}},
		{"a list of types in a 3.0 schema", header + get(`{type: object, properties: {name: {type: [string, 'null']}}}`),
			thing + ".properties.name.type", `["string","null"]: OpenAPI 3.0.3 has no list of types (3.1 has)`,
			func(c *spec.Contract) bool {
				s := c.Operation("GET /things").JSONSchema(200).Properties["name"].Value
				return s.Type.Is("string") && s.Nullable
			}},
		{"a list of two types and null", header + get(`{type: object, properties: {n: {type: [string, integer, 'null']}}}`),
			thing + ".properties.n.type", "list of types",
			func(c *spec.Contract) bool {
				s := c.Operation("GET /things").JSONSchema(200).Properties["n"].Value
				return s.VisitJSON("x") == nil && s.VisitJSON(1.0) == nil && s.VisitJSON(nil) == nil && s.VisitJSON(true) != nil
			}},
		{"const in a 3.0 schema", header + get(`{type: object, properties: {kind: {type: string, const: pet}}}`),
			thing + ".properties.kind.const", `"pet": OpenAPI 3.0.3 has no const`,
			func(c *spec.Contract) bool {
				s := c.Operation("GET /things").JSONSchema(200).Properties["kind"].Value
				return reflect.DeepEqual(s.Enum, []any{"pet"}) && s.Const == nil
			}},
		{"examples in a 3.0 schema", header + get(`{type: object, properties: {kind: {type: string, examples: [cat, dog]}}}`),
			thing + ".properties.kind.examples", "OpenAPI 3.0.3 has no examples of a schema",
			func(c *spec.Contract) bool {
				return c.Operation("GET /things").JSONSchema(200).Properties["kind"].Value.Example == "cat"
			}},
		{"an exclusive minimum of a number in a 3.0 schema", header + get(`{type: object, properties: {n: {type: number, exclusiveMinimum: 3}}}`),
			thing + ".properties.n.exclusiveMinimum", "OpenAPI 3.0.3 has no exclusiveMinimum of a number",
			func(c *spec.Contract) bool {
				s := c.Operation("GET /things").JSONSchema(200).Properties["n"].Value
				return s.VisitJSON(3.0) != nil && s.VisitJSON(3.5) == nil
			}},
		{"an OAuth flow without scopes", header + `components:
  securitySchemes:
    oauth: {type: oauth2, flows: {clientCredentials: {tokenUrl: 'https://auth.example/token'}}}
security: [{oauth: []}]
paths:
  /things:
    get:
      responses:
        '204': {description: ok}`, "components.securitySchemes.oauth.flows.clientCredentials", "no scopes",
			func(c *spec.Contract) bool {
				return c.Doc.Components.SecuritySchemes["oauth"].Value.Flows.ClientCredentials.Scopes != nil
			}},
		{"an undeclared path parameter", header + `paths:
  /things/{id}:
    get:
      responses:
        '204': {description: ok}`, "paths./things/{id}", "{id} is in the path, but no parameter declares it",
			func(c *spec.Contract) bool {
				return c.Operation("GET /things/{id}").Parameter("path", "id") != nil
			}},
		{"a path parameter one operation declares", header + `paths:
  /things/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses:
        '204': {description: ok}
    delete:
      responses:
        '204': {description: ok}`, "paths./things/{id}.delete", "{id} is in the path",
			func(c *spec.Contract) bool {
				return c.Operation("DELETE /things/{id}").Parameter("path", "id") != nil &&
					c.Operation("GET /things/{id}").Parameter("path", "id").Schema.Value.Type.Is("integer")
			}},
		{"paths that differ by the names of their parameters", header + `paths:
  /things/{id}:
    get:
      operationId: getThing
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses:
        '204': {description: ok}
  /things/{idOrName}:
    get:
      operationId: getThingByName
      parameters: [{name: idOrName, in: path, required: true, schema: {type: string}}]
      responses:
        '204': {description: ok}
    delete:
      operationId: deleteThing
      parameters: [{name: idOrName, in: path, required: true, schema: {type: string}}]
      responses:
        '204': {description: ok}`, "paths./things/{idOrName}", "the same path as /things/{id}",
			func(c *spec.Contract) bool {
				del := c.Operation("deleteThing")
				return c.Operation("getThing") != nil && c.Operation("getThingByName") == nil &&
					del != nil && del.Path == "/things/{id}" && del.Parameter("path", "id") != nil && del.Parameter("path", "idOrName") == nil
			}},
		{"fields an operation has none of", header + `paths:
  /things:
    get:
      summary: Things
      sumary: typo
      responses:
        '204': {description: ok}`, "paths./things.get", "field sumary, which an Operation Object does not have",
			func(c *spec.Contract) bool { return c.Operation("GET /things").Op.Extensions["sumary"] == nil }},
		{"a field a 3.0 schema has none of", header + get(`{type: object, definitions: {a: {type: string}}}`),
			thing, "field definitions, which a Schema Object does not have",
			func(c *spec.Contract) bool {
				return c.Operation("GET /things").JSONSchema(200).Extensions["definitions"] == nil
			}},
		{"a server variable without default", "openapi: 3.0.3\ninfo: {title: Small, version: 1.0.0}\n" +
			"servers: [{url: 'https://{region}.example.com/v1', variables: {region: {enum: [eu, us]}}}]\n" + `paths:
  /things:
    get:
      responses:
        '204': {description: ok}`, "servers.0.variables.region", "no default",
			func(c *spec.Contract) bool {
				return c.Base == "/v1" && c.Doc.Servers[0].Variables["region"].Default == "eu"
			}},
		{"a list of types in Swagger 2.0", swaggerHeader + `paths:
  /things:
    get:
      produces: [application/json]
      responses:
        '200': {description: ok, schema: {$ref: '#/definitions/Thing'}}
definitions:
  Thing:
    type: object
    properties:
      name: {type: [string, 'null']}`, "definitions.Thing.properties.name.type", `["string","null"]: Swagger 2.0 has no list of types`,
			func(c *spec.Contract) bool {
				s := c.Operation("GET /things").JSONSchema(200).Properties["name"].Value
				return s.Type.Is("string") && s.Nullable
			}},
		{"const in a Swagger 2.0 answer", swaggerHeader + `paths:
  /things:
    get:
      produces: [application/json]
      responses:
        '200': {description: ok, schema: {type: string, const: x}}`, "paths./things.get.responses.200.schema.const", "Swagger 2.0 has no const",
			func(c *spec.Contract) bool {
				return reflect.DeepEqual(c.Operation("GET /things").JSONSchema(200).Enum, []any{"x"})
			}},
	}
	for _, tt := range tests {
		c, err := spec.Read([]byte(tt.doc))
		if err != nil {
			t.Errorf("%s: Read = %v, want the document served with a warning", tt.name, err)
			continue
		}
		if len(c.Warnings) != 1 || !strings.HasPrefix(c.Warnings[0], tt.place+": ") || !strings.Contains(c.Warnings[0], tt.says) {
			t.Errorf("%s: warnings = %q, want one that begins %q and says %q", tt.name, c.Warnings, tt.place+": ", tt.says)
		}
		if !tt.repaired(c) {
			t.Errorf("%s: the document is not served as it means", tt.name)
		}
		if w := strings.Join(c.Warnings, "\n"); strings.Contains(w, ">=3.1") || tt.doc[:7] == "swagger" && strings.Contains(w, "OpenAPI 3.0") {
			t.Errorf("%s: warnings = %q, want the document's own words", tt.name, c.Warnings)
		}
		_, err = spec.ReadOptions{Strict: true}.Read([]byte(tt.doc))
		if err == nil {
			t.Errorf("%s: read strictly, the document was accepted", tt.name)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, tt.place+": ") || !strings.Contains(msg, tt.says) {
			t.Errorf("%s: refusal = %q, want one line that begins %q and says %q", tt.name, msg, tt.place+": ", tt.says)
		}
	}
}

// TestValidButUnread: what is valid, but kin-openapi does not read, is
// served without a word, strict or not: a keyword JSON Schema does not
// know in an OpenAPI 3.1 schema (Codat's definitions, Discourse's members
// one level too high), and a server variable whose default is empty
// (Scalar Galaxy's).
func TestValidButUnread(t *testing.T) {
	tests := []struct {
		name, doc string
		check     func(c *spec.Contract) bool
	}{
		{"definitions in a 3.1 schema", `openapi: 3.1.0
info: {title: Small, version: 1.0.0}
` + get(`{$ref: '#/components/schemas/Address'}`) + `components:
  schemas:
    Address:
      type: object
      definitions:
        kind: {type: string, enum: [home, work]}
      properties:
        kind: {$ref: '#/components/schemas/Address/definitions/kind'}`,
			func(c *spec.Contract) bool {
				s := c.Operation("GET /things").JSONSchema(200)
				return s.VisitJSON(map[string]any{"kind": "home"}, spec.SchemaOptions(c.Doc)...) == nil &&
					s.VisitJSON(map[string]any{"kind": "moon"}, spec.SchemaOptions(c.Doc)...) != nil
			}},
		{"values one level too high in a 3.1 schema", `openapi: 3.1.0
info: {title: Small, version: 1.0.0}
` + get(`{type: object, properties: {setting: {auto_bump: 1, require_approval: null}}}`),
			func(c *spec.Contract) bool { return c.Operation("GET /things") != nil }},
		{"fields beside $ref, which OpenAPI 3.0 ignores", header + `paths:
  /things:
    get:
      parameters: [{$ref: '#/components/parameters/Q', description: beside}]
      responses:
        '200': {$ref: '#/components/responses/Thing', description: beside}
components:
  parameters:
    Q: {name: q, in: query, schema: {type: string}}
  responses:
    Thing:
      description: a thing
      content:
        application/json:
          schema: {type: object, properties: {a: {$ref: '#/components/schemas/A', description: beside}}}
  schemas:
    A: {type: string}`,
			func(c *spec.Contract) bool {
				op := c.Operation("GET /things")
				return op.Parameter("query", "q") != nil && op.JSONSchema(200).Properties["a"].Value.Type.Is("string")
			}},
		{"a server variable whose default is empty", `openapi: 3.1.0
info: {title: Small, version: 1.0.0}
servers:
  - url: '{protocol}://void.example.com/{path}'
    variables:
      protocol: {enum: [https, http], default: https}
      path: {default: ''}
` + get(`{type: string}`),
			func(c *spec.Contract) bool { return c.Base == "" && c.Doc.Servers[0].Variables["path"].Default == "" }},
	}
	for _, tt := range tests {
		for _, strict := range []bool{false, true} {
			c, err := spec.ReadOptions{Strict: strict}.Read([]byte(tt.doc))
			if err != nil {
				t.Errorf("%s (strict %v): Read = %v, want it served", tt.name, strict, err)
				continue
			}
			if len(c.Warnings) > 0 {
				t.Errorf("%s (strict %v): warnings = %q, want none", tt.name, strict, c.Warnings)
			}
			if !tt.check(c) {
				t.Errorf("%s (strict %v): the document is not served as it means", tt.name, strict)
			}
		}
	}
}

// TestUnservedKeywords: a keyword of OpenAPI 3.1 that says what a value
// must be in words the document's version has none of is refused, strict
// or not, naming the keyword and the version the document says it is.
func TestUnservedKeywords(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"if in a 3.0 schema", header + get(`{type: object, if: {required: [a]}, then: {required: [b]}}`),
			thing + ".if: OpenAPI 3.0.3 has no if (3.1 has); declare openapi: 3.1.0"},
		{"prefixItems in Swagger 2.0", swaggerHeader + `paths:
  /things:
    get:
      produces: [application/json]
      responses:
        '200': {description: ok, schema: {type: array, prefixItems: [{type: string}]}}`,
			"paths./things.get.responses.200.schema.prefixItems: Swagger 2.0 has no prefixItems; say the same in the words of Swagger 2.0"},
	}
	for _, tt := range tests {
		for _, strict := range []bool{false, true} {
			_, err := spec.ReadOptions{Strict: strict}.Read([]byte(tt.doc))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), ">=3.1") {
				t.Errorf("%s (strict %v): Read = %v, want a refusal that begins %q", tt.name, strict, err, tt.want)
			}
		}
	}
}

// TestValuesReadAsTheirType: a value of an enum, a default or a const of
// the wrong JSON type that reads as a value of the schema's type is taken
// as that value, with one warning naming the place; strict, the document
// is refused naming it.
func TestValuesReadAsTheirType(t *testing.T) {
	tests := []struct {
		name, doc, place string
		want             func(s *openapi3.Schema) bool
	}{
		{"an integer enum written as strings", header + get(`{type: integer, enum: ['6', '12']}`), thing + ".enum",
			func(s *openapi3.Schema) bool { return reflect.DeepEqual(s.Enum, []any{6.0, 12.0}) }},
		{"a number default written as a string", header + get(`{type: number, default: '2.5'}`), thing + ".default",
			func(s *openapi3.Schema) bool { return s.Default == 2.5 }},
		{"a boolean enum written as strings", header + get(`{type: boolean, enum: ['true']}`), thing + ".enum",
			func(s *openapi3.Schema) bool { return reflect.DeepEqual(s.Enum, []any{true}) }},
		{"a string enum written as numbers", header + get(`{type: string, enum: [1, 2.5, x]}`), thing + ".enum",
			func(s *openapi3.Schema) bool { return reflect.DeepEqual(s.Enum, []any{"1", "2.5", "x"}) }},
		{"a 3.1 const written as a string", "openapi: 3.1.0\ninfo: {title: Small, version: 1.0.0}\n" + get(`{type: integer, const: '7'}`), thing + ".const",
			func(s *openapi3.Schema) bool { return s.Const == 7.0 }},
	}
	for _, tt := range tests {
		c, err := spec.Read([]byte(tt.doc))
		if err != nil {
			t.Errorf("%s: Read = %v, want it served with a warning", tt.name, err)
			continue
		}
		if len(c.Warnings) != 1 || !strings.HasPrefix(c.Warnings[0], tt.place+": ") {
			t.Errorf("%s: warnings = %q, want one that begins %q", tt.name, c.Warnings, tt.place+": ")
		}
		if s := c.Operation("GET /things").JSONSchema(200); !tt.want(s) {
			t.Errorf("%s: enum %v, default %v, const %v: not read as the schema's type", tt.name, s.Enum, s.Default, s.Const)
		}
		_, err = spec.ReadOptions{Strict: true}.Read([]byte(tt.doc))
		if err == nil || !strings.HasPrefix(err.Error(), tt.place+": ") || !strings.Contains(err.Error(), "write ") {
			t.Errorf("%s: read strictly, Read = %v, want a refusal that begins %q and says what to write", tt.name, err, tt.place+": ")
		}
	}
	// A value that reads as none of the type is not taken for one.
	if _, err := spec.Read([]byte(header + get(`{type: integer, enum: [six]}`))); err == nil || !strings.Contains(err.Error(), "no value can match") {
		t.Errorf("an integer enum of words: Read = %v, want it refused as no value can match it", err)
	}
}

// TestNullableEnumOfNull: in OpenAPI 3.0, nullable: true lets null be a
// value of any type, so an enumeration of null alone is a value that is
// always null (Ideal Postcodes'), no contradiction; in 3.1, nullable is no
// keyword, and the same schema matches nothing.
func TestNullableEnumOfNull(t *testing.T) {
	schema := `{type: object, properties: {match: {type: object, nullable: true, enum: [null]}}}`
	c, err := spec.ReadOptions{Strict: true}.Read([]byte(header + get(schema)))
	if err != nil {
		t.Fatalf("3.0: Read = %v, want it served", err)
	}
	if s := c.Operation("GET /things").JSONSchema(200); s.VisitJSON(map[string]any{"match": nil}) != nil {
		t.Errorf("3.0: null does not match the schema")
	}
	if _, err := spec.Read([]byte("openapi: 3.1.0\ninfo: {title: Small, version: 1.0.0}\n" + get(schema))); err == nil || !strings.Contains(err.Error(), "no value can match") {
		t.Errorf("3.1: Read = %v, want it refused as no value can match it", err)
	}
}

// TestEnumOfAnArrayReadAsItsItems: an enum of an array whose values are
// no arrays, and are its items', is read as the enum of its items, with a
// warning naming the place, as Vimeo's content_filter and VisageCloud's
// purposes mean; strict, the document is refused, naming it. An enum of
// arrays, or of values the items do not take, is left to hold as written.
func TestEnumOfAnArrayReadAsItsItems(t *testing.T) {
	doc := header + get(`{type: array, items: {type: string}, enum: [drugs, safe]}`)
	c, err := spec.Read([]byte(doc))
	if err != nil {
		t.Fatalf("Read = %v, want it served with a warning", err)
	}
	if len(c.Warnings) != 1 || !strings.HasPrefix(c.Warnings[0], thing+".enum: ") {
		t.Errorf("warnings = %q, want one that begins %q", c.Warnings, thing+".enum: ")
	}
	s := c.Operation("GET /things").JSONSchema(200)
	if len(s.Enum) != 0 || !reflect.DeepEqual(s.Items.Value.Enum, []any{"drugs", "safe"}) {
		t.Errorf("enum %v, items' enum %v: want the enum on the items", s.Enum, s.Items.Value.Enum)
	}
	if err := s.VisitJSON([]any{"safe"}); err != nil {
		t.Errorf(`["safe"] is refused: %v`, err)
	}
	if err := s.VisitJSON([]any{"other"}); err == nil {
		t.Errorf(`["other"] is taken, want it refused by the enum`)
	}
	if _, err := (spec.ReadOptions{Strict: true}).Read([]byte(doc)); err == nil || !strings.HasPrefix(err.Error(), thing+".enum: ") {
		t.Errorf("read strictly, Read = %v, want a refusal that begins %q", err, thing+".enum: ")
	}
	for _, schema := range []string{
		`{type: array, items: {type: string}, enum: [[a], [b, c]]}`,
		`{type: array, items: {type: integer}, enum: [a, b]}`,
	} {
		c, err := spec.Read([]byte(header + get(schema)))
		if err == nil && len(c.Warnings) > 0 && strings.Contains(c.Warnings[0], "read as the enum of its items") {
			t.Errorf("%s: read as the enum of its items", schema)
		}
	}
}

// TestAlternativeListedTwice: a oneOf that lists one schema twice, as App
// Store Connect's included, is read as listing it once, with a warning
// naming the place; strict, the document is refused, naming it.
func TestAlternativeListedTwice(t *testing.T) {
	doc := header + get(`{oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Cat'}]}`) + `components:
  schemas:
    Cat: {type: object, required: [name], properties: {name: {type: string}}}
`
	c, err := spec.Read([]byte(doc))
	if err != nil {
		t.Fatalf("Read = %v, want it served with a warning", err)
	}
	if len(c.Warnings) != 1 || !strings.HasPrefix(c.Warnings[0], thing+".oneOf: ") {
		t.Errorf("warnings = %q, want one that begins %q", c.Warnings, thing+".oneOf: ")
	}
	if err := c.Operation("GET /things").JSONSchema(200).VisitJSON(map[string]any{"name": "Tom"}); err != nil {
		t.Errorf("a cat is refused: %v", err)
	}
	if _, err := (spec.ReadOptions{Strict: true}).Read([]byte(doc)); err == nil || !strings.HasPrefix(err.Error(), thing+".oneOf: ") {
		t.Errorf("read strictly, Read = %v, want a refusal that begins %q", err, thing+".oneOf: ")
	}
}

// TestEmptyExamples: an Example Object of neither value nor
// externalValue, which OpenAPI allows and kin-openapi refused the whole
// document for (Microsoft Graph's 119 examples of {}), is read as no
// example, strict or not, without a word.
func TestEmptyExamples(t *testing.T) {
	doc := header + `paths:
  /things:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {name: {type: string}}}
              examples:
                empty: {$ref: '#/components/examples/Empty'}
                inline: {summary: Nothing here.}
components:
  examples:
    Empty: {}
`
	for _, strict := range []bool{false, true} {
		c, err := spec.ReadOptions{Strict: strict}.Read([]byte(doc))
		if err != nil {
			t.Errorf("strict %v: Read = %v, want the document served", strict, err)
			continue
		}
		if len(c.Warnings) != 0 {
			t.Errorf("strict %v: warnings %q, want none", strict, c.Warnings)
		}
		if ex := c.Doc.Components.Examples["Empty"].Value; ex.ExternalValue != "" || ex.Value != nil {
			t.Errorf("strict %v: the example reads %+v, want it as written, empty", strict, ex)
		}
	}
}

// TestUndeclaredRequiredOfAClosedObject: a name an object requires, that
// it does not declare and its additionalProperties: false refuses, as
// Jira's ScreenTypes requires a defaultScreen it declares as default, is
// read as not required, with a warning naming the place; strict, the
// document is refused, naming it.
func TestUndeclaredRequiredOfAClosedObject(t *testing.T) {
	doc := header + get(`{type: object, additionalProperties: false, required: [defaultScreen, edit], properties: {default: {type: integer}, edit: {type: integer}}}`)
	c, err := spec.Read([]byte(doc))
	if err != nil {
		t.Fatalf("Read = %v, want it served with a warning", err)
	}
	if len(c.Warnings) != 1 || !strings.HasPrefix(c.Warnings[0], thing+".required: ") {
		t.Errorf("warnings = %q, want one that begins %q", c.Warnings, thing+".required: ")
	}
	if s := c.Operation("GET /things").JSONSchema(200); !reflect.DeepEqual(s.Required, []string{"edit"}) {
		t.Errorf("required %v, want [edit]", s.Required)
	}
	if _, err := (spec.ReadOptions{Strict: true}).Read([]byte(doc)); err == nil || !strings.HasPrefix(err.Error(), thing+".required: ") {
		t.Errorf("read strictly, Read = %v, want a refusal that begins %q", err, thing+".required: ")
	}
}

// TestParameterOfTextContent: a parameter of the content of one media
// type that is not JSON, of a scalar's schema, as Telnyx's report ids of
// */* of a UUID, is read by that schema, without a word: the id 1 is the
// text "1", where it was read as the JSON number 1 and refused as no
// string. One of JSON content stays as written.
func TestParameterOfTextContent(t *testing.T) {
	doc := header + `paths:
  /reports/{id}:
    get:
      parameters:
        - {name: id, in: path, required: true, content: {'*/*': {schema: {type: string}}}}
        - {name: filter, in: query, content: {application/json: {schema: {type: string}}}}
      responses:
        '200': {description: ok}
`
	for _, strict := range []bool{false, true} {
		c, err := spec.ReadOptions{Strict: strict}.Read([]byte(doc))
		if err != nil || len(c.Warnings) != 0 {
			t.Fatalf("strict %v: Read = %v, warnings %q; want it served without a word", strict, err, c.Warnings)
		}
		op := c.Operation("GET /reports/{id}")
		if id := op.Parameter("path", "id"); id.Schema == nil || id.Content != nil || spec.TypeOf(id.Schema.Value) != "string" {
			t.Errorf("strict %v: id read as %+v, want by its content's schema", strict, id)
		}
		if f := op.Parameter("query", "filter"); f.Schema != nil || len(f.Content) != 1 {
			t.Errorf("strict %v: filter read as %+v, want its JSON content as written", strict, f)
		}
	}
}
