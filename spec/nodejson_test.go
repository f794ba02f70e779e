package spec_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// TestUnreadableDocumentsAreOneLine: a document the reader cannot take as
// it is written is refused in one line that names the language it is
// written in and the line at fault, and says nothing of the other
// language, as a reader that tried JSON first once did.
func TestUnreadableDocumentsAreOneLine(t *testing.T) {
	bomb := "x-a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
	for i := 1; i < 10; i++ {
		bomb += fmt.Sprintf("x-a%d: &a%d [%s]\n", i, i, strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 8)+fmt.Sprintf("*a%d", i-1))
	}
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"a key given twice", header + "paths: {}\npaths: {}\n",
			[]string{"does not parse as YAML", "line 5", `"paths" is given twice, first at line 4`}},
		{"a key given twice in JSON", `{"openapi": "3.0.3", "info": {"title": "x", "version": "1"},
"paths": {},
"paths": {}}`, []string{"does not parse as JSON", "line 3", `"paths" is given twice, first at line 2`}},
		{"an alias bomb", header + bomb + "paths: {}\n", []string{"does not parse as YAML", "line ", "excessive aliasing"}},
		{"an infinite number", header + "x-n: .inf\npaths: {}\n", []string{"does not parse as YAML", "line 4", ".inf"}},
		{"a key that is a list", header + "[a, b]: 1\npaths: {}\n", []string{"does not parse as YAML", "line 4", "not a string"}},
		{"a merge of a list of numbers", header + "x-m: {<<: [1, 2]}\npaths: {}\n", []string{"line 4", "merge key"}},
		{"paths of the wrong type", header + "paths: 5\n", []string{"does not load", "paths"}},
		{"values nested a thousand levels deep", header + "x-deep: " + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + "\npaths: {}\n",
			[]string{"nested too deeply to read", "line 4", "more than 1000 levels deep"}},
		{"a schema nested a hundred levels deep", header + "paths: {}\ncomponents:\n  schemas:\n    Deep: " +
			strings.Repeat("{type: object, properties: {a: ", 100) + "{type: string, enum: [" + strings.Repeat("abcdefghij, ", 200000) + "z]}" + strings.Repeat("}}", 100) + "\n",
			[]string{"nested too deeply to read", "line 7", "on average", "up to 32"}},
	}
	for _, tt := range tests {
		_, err := spec.Read([]byte(tt.doc))
		if err == nil {
			t.Errorf("%s: the document was read", tt.name)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") || strings.Contains(msg, "json error") || strings.Contains(msg, "yaml error") {
			t.Errorf("%s: refusal = %q, want one line about one language", tt.name, msg)
		}
		for _, w := range tt.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: refusal = %q, want it to say %q", tt.name, msg, w)
			}
		}
	}
}

// TestAnchorsAndMergeKeys: a document may repeat a part with an anchor and
// aliases, and merge mappings with <<, as YAML has it: the mapping's own
// keys win over merged ones, and an earlier merged mapping over a later
// one.
func TestAnchorsAndMergeKeys(t *testing.T) {
	doc := header + `x-base: &base
  type: object
  properties:
    name: {type: string}
x-more: &more
  description: more
  type: array
paths:
  /things:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                <<: [*base, *more]
                description: a thing
  /others:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: *base
`
	c, err := spec.Read([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	s := c.Operation("GET /things").JSONSchema(200)
	if s.Type.Slice()[0] != "object" || s.Description != "a thing" || s.Properties["name"] == nil {
		t.Errorf("merged schema: type %v, description %q, properties %v; want object, a thing, name", s.Type.Slice(), s.Description, s.Properties)
	}
	if s := c.Operation("GET /others").JSONSchema(200); s.Properties["name"] == nil {
		t.Errorf("aliased schema: properties %v, want name", s.Properties)
	}
}

// TestLargeNumbers: an integer past int64 is read, as a number.
func TestLargeNumbers(t *testing.T) {
	doc := header + `paths:
  /things:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: integer, maximum: 18446744073709551615, minimum: -9223372036854775808}
`
	c, err := spec.Read([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Operation("GET /things").JSONSchema(200); *s.Max != 18446744073709551615 || *s.Min != -9223372036854775808 {
		t.Errorf("bounds = %v, %v; want 18446744073709551615, -9223372036854775808", *s.Max, *s.Min)
	}
}

// TestJSONOfCharactersYAMLDoesNotPrint: a JSON document may hold C1
// control characters raw in its strings, as DocuSign's description of a
// mangled apostrophe does; it is read, the characters kept, where the YAML
// parser refused the whole document. A YAML document of them is still
// refused, in one line, as YAML does not read them.
func TestJSONOfCharactersYAMLDoesNotPrint(t *testing.T) {
	doc := "{\"openapi\": \"3.0.3\", \"info\": {\"title\": \"x\", \"version\": \"1\"},\n" +
		"\"paths\": {\"/things\": {\"get\": {\"responses\": {\"200\": {\"description\": \"ok\", " +
		"\"content\": {\"application/json\": {\"schema\": {\"type\": \"string\", \"description\": \"the recipient\u0080\u0099s things\"}}}}}}}}}"
	c, err := spec.Read([]byte(doc))
	if err != nil {
		t.Fatalf("the document was refused: %v", err)
	}
	if d := c.Operation("GET /things").JSONSchema(200).Description; d != "the recipient\u0080\u0099s things" {
		t.Errorf("description = %q, want it as written", d)
	}
	yamlDoc := header + "x-note: \"a\u0080b\"\npaths: {}\n"
	if _, err := spec.Read([]byte(yamlDoc)); err == nil || !strings.Contains(err.Error(), "does not parse as YAML") {
		t.Errorf("a YAML document of U+0080: %v, want it refused as YAML", err)
	}
}
