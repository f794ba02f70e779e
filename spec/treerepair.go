package spec

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Some slips make kin-openapi refuse a whole document before it is read,
// and so are repaired in the parsed tree, in one walk of it: a text field
// written as a number (scalars.go), a schema that refers to a response
// (wrongrefs.go), a $ref that points into a schema, not at one
// (deeprefs.go).

// treeSlips are the slips repaired in the tree, in the order written.
type treeSlips struct {
	texts []scalarSlip
	refs  []schemaRefSlip
}

// repairTree repairs the slips of the tree of a document and returns them.
// What is below the keywords that hold values (valueKeywords) is left as it
// is.
func repairTree(root *yaml.Node) treeSlips {
	doc := root
	if doc != nil && doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = doc.Content[0]
	}
	responses := member(member(doc, "components"), "responses")
	hoist := hoister{doc: doc}
	var out treeSlips
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
			// Below properties, a key is a property's name.
			inProperties := len(path) > 0 && path[len(path)-1] == "properties"
			for i := 0; i+1 < len(n.Content); i += 2 {
				key := n.Content[i].Value
				if inProperties {
					walk(n.Content[i+1], append(path, key), depth+1)
					continue
				}
				if slices.Contains(valueKeywords, key) || strings.HasPrefix(key, "x-") {
					continue
				}
				if key == "$ref" {
					hoist.ref(n.Content[i+1])
					continue
				}
				if s, ok := untextedScalar(n, i, path); ok {
					out.texts = append(out.texts, s)
					if !s.kept {
						i -= 2 // taken out of n
					}
					continue
				}
				if s, ok := schemaRefToOther(n, i, path, responses); ok {
					out.refs = append(out.refs, s)
					continue
				}
				walk(n.Content[i+1], append(path, key), depth+1)
			}
		}
	}
	walk(doc, nil, 0)
	hoist.finish()
	return out
}
