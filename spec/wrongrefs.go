package spec

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A schema may refer to what is no schema: Rumble's and rev.ai's answers
// give as their schema "$ref": "#/components/responses/StatusMessage", a
// response. kin-openapi refuses the whole document ("expecting ref to
// schema object"). Read leniently, such a schema is the referred
// response's own schema where it has one, of its one JSON media type or
// else its first, and otherwise any value, with a warning that names the
// place; read strictly, the document is refused for the first, by place.

// schemaRefSlip is a schema that refers to what is no schema.
type schemaRefSlip struct {
	where, ref, served string
}

func (s schemaRefSlip) String() string {
	return fmt.Sprintf("%s: $ref %s refers to no schema; %s", s.where, s.ref, s.served)
}

// schemaRefToOther repairs member i of the mapping n, at path, where it
// is a schema whose $ref names a response of the components, responses.
// ok says whether it was.
func schemaRefToOther(n *yaml.Node, i int, path []string, responses *yaml.Node) (s schemaRefSlip, ok bool) {
	key, value := n.Content[i].Value, n.Content[i+1]
	if key != "schema" || value.Kind != yaml.MappingNode {
		return schemaRefSlip{}, false
	}
	ref := member(value, "$ref")
	if ref == nil || !strings.HasPrefix(ref.Value, "#/components/responses/") || strings.Contains(strings.TrimPrefix(ref.Value, "#/components/responses/"), "/") {
		return schemaRefSlip{}, false
	}
	s = schemaRefSlip{where: strings.Join(append(path, key), "."), ref: ref.Value, served: "read as any value"}
	n.Content[i+1] = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if schema := responseSchema(member(responses, strings.TrimPrefix(ref.Value, "#/components/responses/"))); schema != nil {
		n.Content[i+1] = schema
		s.served = "read as that response's schema"
	}
	return s, true
}

// responseSchema returns the schema of a response's content, of its JSON
// media type or else its first, where it has one that names no response
// itself; nil otherwise.
func responseSchema(resp *yaml.Node) *yaml.Node {
	content := member(resp, "content")
	if content == nil || content.Kind != yaml.MappingNode {
		return nil
	}
	var found *yaml.Node
	for i := 0; i+1 < len(content.Content); i += 2 {
		s := member(content.Content[i+1], "schema")
		if s == nil {
			continue
		}
		if ref := member(s, "$ref"); ref != nil && !strings.HasPrefix(ref.Value, "#/components/schemas/") {
			continue
		}
		if found == nil || IsJSON(content.Content[i].Value) {
			found = s
		}
		if IsJSON(content.Content[i].Value) {
			break
		}
	}
	return found
}
