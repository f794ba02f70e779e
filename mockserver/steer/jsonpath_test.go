package steer

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// TestJSONPath selects by place: members, elements, the last, every one,
// and at any depth; and refuses what it does not take.
func TestJSONPath(t *testing.T) {
	body, e := decodeJSONValue("", json.RawMessage(`{"name":"Rex","tags":[{"name":"good"},{"name":"small"}],"owner":{"name":"Ann","a.b":1},"n":2}`))
	if e != nil {
		t.Fatal(e)
	}
	for _, tt := range []struct{ path, want string }{
		{"$", `[{"n":2,"name":"Rex","owner":{"a.b":1,"name":"Ann"},"tags":[{"name":"good"},{"name":"small"}]}]`},
		{"$.name", `["Rex"]`},
		{"$['name']", `["Rex"]`},
		{`$["owner"]['a.b']`, `[1]`},
		{"$.tags[0].name", `["good"]`},
		{"$.tags[-1].name", `["small"]`},
		{"$.tags[*].name", `["good","small"]`},
		{"$.tags.*.name", `["good","small"]`},
		{"$..name", `["Rex","Ann","good","small"]`},
		{"$.owner.*", `[1,"Ann"]`},
		{"$.missing", `null`},
		{"$.tags[5]", `null`},
		{"$.name[0]", `null`},
	} {
		p, err := parseJSONPath(tt.path)
		if err != nil {
			t.Errorf("%s: %v", tt.path, err)
			continue
		}
		got, _ := json.Marshal(p.selectIn(body))
		if string(got) != tt.want {
			t.Errorf("%s selects %s, want %s", tt.path, got, tt.want)
		}
	}
	for _, tt := range []struct{ path, want string }{
		{"name", "starts with $"},
		{"$.", "a name or * must follow ."},
		{"$..", "a name or * must follow .."},
		{"$[?(@.n>1)]", "not filters nor slices"},
		{"$.tags[0:2]", "not filters nor slices"},
		{"$.tags[0", "not closed"},
		{"$name", "want . or ["},
	} {
		if _, err := parseJSONPath(tt.path); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error saying %q", tt.path, err, tt.want)
		}
	}
}

// TestJSONPathAgainstASchema: a path that can select nothing in a value
// of the schema, a member it does not declare, or an element of what is
// no array, is found; one that may select something is not.
func TestJSONPathAgainstASchema(t *testing.T) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData([]byte(`openapi: 3.0.3
info: {title: T, version: '1'}
paths: {}
components:
  schemas:
    NewPet:
      type: object
      properties:
        name: {type: string}
        tags: {type: array, items: {type: object, properties: {name: {type: string}}}}
        extra: {type: object, additionalProperties: {type: integer}}
        free: {type: object}
    Pet:
      allOf:
        - $ref: '#/components/schemas/NewPet'
        - {type: object, properties: {id: {type: integer}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	pet := doc.Components.Schemas["Pet"].Value
	for _, tt := range []struct{ path, want string }{
		{"$.name", ""},
		{"$.id", ""},
		{"$.tags[0].name", ""},
		{"$.tags[*].name", ""},
		{"$.extra.anything", ""},
		{"$.free.anything", ""},
		{"$..whatever", ""},
		{"$.nmae", `"nmae" is not in the schema`},
		{"$.tags[0].colour", `"colour" is not in the schema`},
		{"$.name[0]", "[0] is not in the schema"},
	} {
		p, err := parseJSONPath(tt.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.impossible(pet); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.path, got, tt.want)
		}
	}
}
