package request

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// tokens is a resource whose update takes a JSON Patch whose value is
// VALUE, and whose items have a property only the server writes.
const tokens = `openapi: 3.0.3
info: {title: Tokens, version: 1.0.0}
servers: [{url: /t}]
paths:
  /tokens:
    get:
      operationId: listTokens
      responses:
        '200': {description: Tokens., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Token'}}}}}
    post:
      operationId: createToken
      requestBody:
        required: true
        content: {application/json: {schema: {type: object, required: [name], properties: {name: {type: string, minLength: 3}, role: {type: string, enum: [reader, writer]}, settings: {$ref: '#/components/schemas/Settings'}}}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {$ref: '#/components/schemas/Token'}}}}
  /tokens/{tokenId}:
    get:
      operationId: getToken
      parameters: [{name: tokenId, in: path, required: true, schema: {type: integer}}]
      responses:
        '200': {description: A token., content: {application/json: {schema: {$ref: '#/components/schemas/Token'}}}}
    patch:
      operationId: patchToken
      parameters: [{name: tokenId, in: path, required: true, schema: {type: integer}}]
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: array
              items:
                type: object
                required: [op, path]
                properties:
                  op: {type: string, enum: [add, remove, replace]}
                  path: {type: string}
                  value: VALUE
      responses:
        '200': {description: Patched., content: {application/json: {schema: {$ref: '#/components/schemas/Token'}}}}
components:
  schemas:
    Token:
      type: object
      required: [id, name]
      properties:
        id: {type: integer}
        lastUsed: {type: string, format: date-time}
        name: {type: string, minLength: 3}
        role: {type: string, enum: [reader, writer]}
        settings: {$ref: '#/components/schemas/Settings'}
    Settings:
      type: object
      properties:
        expires: {type: boolean}
`

// TestJSONPatchOfTheItem: the JSON Patch of a resource's update replaces
// a property the item has and its create writes, not the id nor what only
// the server writes, with a value of that property's schema, one the
// patch's own schema takes: of any property where it takes any value, of
// an object property where it takes objects only, as LaunchDarkly's does.
func TestJSONPatchOfTheItem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		value string
		want  []string // the properties the patch may replace
		ops   string   // the enumeration of op, as ASP.NET Core writes it where not ""
	}{
		{value: "{}", want: []string{"name", "role", "settings"}},
		{value: "{type: object}", want: []string{"settings"}},
		{value: "{}", want: []string{"name", "role", "settings"}, ops: "[Add, Remove, Replace]"},
	} {
		t.Run(tc.value+tc.ops, func(t *testing.T) {
			t.Parallel()
			doc := strings.Replace(tokens, "VALUE", tc.value, 1)
			replace := "replace"
			if tc.ops != "" {
				doc, replace = strings.Replace(doc, "[add, remove, replace]", tc.ops, 1), "Replace"
			}
			c, err := spec.Read([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			res := c.Resource("tokens")
			if res == nil || res.Update == nil {
				t.Fatalf("no resource tokens with an update: %v", c.Notes)
			}
			props := map[string]spec.Property{}
			for _, p := range c.Properties(res.Item) {
				props[p.Name] = p
			}
			for seed := range 20 {
				m := NewMaker(c, nil, rand.New(rand.NewPCG(uint64(seed), 3)), "run")
				v, err := m.Value(context.Background(), res.Update)
				if err != nil {
					t.Fatal(err)
				}
				patch, _ := v.([]any)
				if len(patch) != 1 {
					t.Fatalf("seed %d: the patch %v is not one operation", seed, v)
				}
				o, _ := patch[0].(map[string]any)
				name, _ := o["path"].(string)
				p, ok := props[strings.TrimPrefix(name, "/")]
				if o["op"] != replace || !ok || !slices.Contains(tc.want, p.Name) {
					t.Fatalf("seed %d: %v replaces none of %v", seed, o, tc.want)
				}
				if err := p.Schema.VisitJSON(o["value"]); err != nil {
					t.Errorf("seed %d: %v: the value is not one of %s: %v", seed, o, p.Name, err)
				}
			}
		})
	}
}

// TestJSONPatchOfNoKnownItem: the JSON Patch of an operation on nothing
// the suite knows as an item, as Visma's billing customers of a project,
// is the patch of no operations, which a server takes of any item, where
// a patch made of the schema alone named paths no item has.
func TestJSONPatchOfNoKnownItem(t *testing.T) {
	c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Settings, version: 1.0.0}
paths:
  /settings:
    patch:
      operationId: patchSettings
      requestBody:
        required: true
        content:
          application/json:
            schema:
              type: array
              items: {type: object, required: [op, path], properties: {op: {type: string, enum: [Add, Remove, Replace]}, path: {type: string}, value: {type: string}}}
      responses:
        '200': {description: Patched.}
`))
	if err != nil {
		t.Fatal(err)
	}
	m := NewMaker(c, nil, rand.New(rand.NewPCG(1, 3)), "run")
	v, err := m.Value(context.Background(), c.Operation("patchSettings"))
	if list, ok := v.([]any); err != nil || !ok || len(list) != 0 {
		t.Errorf("the patch of settings: %v %v, want the patch of no operations", v, err)
	}
}
