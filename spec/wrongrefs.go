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

// schemaRefsToOthers repairs, in the tree of a document, the schemas whose
// $ref names a response of the components, and returns what it repaired,
// in the order written.
func schemaRefsToOthers(root *yaml.Node) []schemaRefSlip {
	doc := root
	if doc != nil && doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = doc.Content[0]
	}
	responses := member(member(doc, "components"), "responses")
	var out []schemaRefSlip
	var walk func(n *yaml.Node, path []string, depth int)
	walk = func(n *yaml.Node, path []string, depth int) {
		if n == nil || depth > 256 {
			return
		}
		switch n.Kind {
		case yaml.SequenceNode:
			for i, c := range n.Content {
				walk(c, append(path, fmt.Sprint(i)), depth+1)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				key, value := n.Content[i].Value, n.Content[i+1]
				if key == "schema" && value.Kind == yaml.MappingNode {
					if ref := member(value, "$ref"); ref != nil && strings.HasPrefix(ref.Value, "#/components/responses/") {
						slip := schemaRefSlip{where: strings.Join(append(path, key), "."), ref: ref.Value, served: "read as any value"}
						n.Content[i+1] = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
						name := strings.TrimPrefix(ref.Value, "#/components/responses/")
						if s := responseSchema(member(responses, name)); s != nil {
							n.Content[i+1] = s
							slip.served = "read as that response's schema"
						}
						out = append(out, slip)
						continue
					}
				}
				walk(value, append(path, key), depth+1)
			}
		}
	}
	walk(doc, nil, 0)
	return out
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
