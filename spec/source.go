package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v3"
)

// A loaded document keeps its objects in Go maps, which forget the order
// they were written in. The order matters to readers: a Pet is answered
// with its members in the order the document gives them, and a generated
// client reads the document in the order its authors chose. So the source
// is also parsed as a YAML node tree, which keeps it.

// parseSource parses a document, YAML or JSON, into its root mapping node.
func parseSource(data []byte) (*yaml.Node, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("the document is not a mapping")
	}
	return doc.Content[0], nil
}

// member returns the value of key in the mapping n, or nil.
func member(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// keys returns the keys of the mapping n, in the order written.
func keys(n *yaml.Node) []string {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	out := make([]string, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, n.Content[i].Value)
	}
	return out
}

// propertyOrder maps the schemas of a document to the names of their
// properties, in the order written.
type propertyOrder map[*openapi3.Schema][]string

// members calls f with each key of the mapping n and its value, in the
// order written. The walks below go through a mapping's nodes and look its
// keys up in the loaded document's maps, not the other way round: a
// lookup in the nodes goes through the keys one by one, which for 60,000
// paths is 1.8 billion comparisons.
func members(n *yaml.Node, f func(key string, value *yaml.Node)) {
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		f(n.Content[i].Value, n.Content[i+1])
	}
}

// readPropertyOrder walks the document and its node tree side by side and
// notes the order of the properties of every schema written in place.
// Schemas reached through $ref are noted where they are defined.
func readPropertyOrder(root *yaml.Node, doc *openapi3.T) propertyOrder {
	order := propertyOrder{}
	if c := doc.Components; c != nil {
		comps := member(root, "components")
		members(member(comps, "schemas"), func(name string, n *yaml.Node) {
			order.schema(n, c.Schemas[name])
		})
		members(member(comps, "parameters"), func(name string, n *yaml.Node) {
			if ref := c.Parameters[name]; ref != nil && ref.Value != nil {
				order.schema(member(n, "schema"), ref.Value.Schema)
			}
		})
		members(member(comps, "requestBodies"), func(name string, n *yaml.Node) {
			if ref := c.RequestBodies[name]; ref != nil && ref.Value != nil {
				order.content(member(n, "content"), ref.Value.Content)
			}
		})
		members(member(comps, "responses"), func(name string, n *yaml.Node) {
			if ref := c.Responses[name]; ref != nil && ref.Value != nil {
				order.content(member(n, "content"), ref.Value.Content)
			}
		})
	}
	members(member(root, "paths"), func(path string, pn *yaml.Node) {
		item := doc.Paths.Value(path)
		if item == nil {
			return
		}
		order.parameters(member(pn, "parameters"), item.Parameters)
		for method, op := range item.Operations() {
			on := member(pn, strings.ToLower(method))
			order.parameters(member(on, "parameters"), op.Parameters)
			if rb := op.RequestBody; rb != nil && rb.Ref == "" && rb.Value != nil {
				order.content(member(member(on, "requestBody"), "content"), rb.Value.Content)
			}
			if op.Responses == nil {
				continue
			}
			members(member(on, "responses"), func(code string, rn *yaml.Node) {
				if resp := op.Responses.Value(code); resp != nil && resp.Ref == "" && resp.Value != nil {
					order.content(member(rn, "content"), resp.Value.Content)
				}
			})
		}
	})
	return order
}

func (o propertyOrder) parameters(n *yaml.Node, params openapi3.Parameters) {
	if n == nil || n.Kind != yaml.SequenceNode {
		return
	}
	for i, ref := range params {
		if i < len(n.Content) && ref.Ref == "" && ref.Value != nil {
			o.schema(member(n.Content[i], "schema"), ref.Value.Schema)
		}
	}
}

func (o propertyOrder) content(n *yaml.Node, content openapi3.Content) {
	members(n, func(mt string, mn *yaml.Node) {
		if media := content[mt]; media != nil {
			o.schema(member(mn, "schema"), media.Schema)
		}
	})
}

func (o propertyOrder) schema(n *yaml.Node, ref *openapi3.SchemaRef) {
	if n == nil || ref == nil || ref.Ref != "" || ref.Value == nil || member(n, "$ref") != nil {
		return
	}
	s := ref.Value
	if _, done := o[s]; done {
		return
	}
	props := member(n, "properties")
	o[s] = keys(props)
	members(props, func(name string, pn *yaml.Node) {
		o.schema(pn, s.Properties[name])
	})
	o.schema(member(n, "items"), s.Items)
	o.schema(member(n, "not"), s.Not)
	o.schema(member(n, "additionalProperties"), s.AdditionalProperties.Schema)
	for key, list := range map[string]openapi3.SchemaRefs{"allOf": s.AllOf, "anyOf": s.AnyOf, "oneOf": s.OneOf} {
		seq := member(n, key)
		if seq == nil || seq.Kind != yaml.SequenceNode {
			continue
		}
		for i, r := range list {
			if i < len(seq.Content) {
				o.schema(seq.Content[i], r)
			}
		}
	}
}

// names returns the property names of s in the order written, or sorted
// when the document does not tell.
func (o propertyOrder) names(s *openapi3.Schema) []string {
	written := o[s]
	if len(written) == len(s.Properties) {
		return written
	}
	out := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// text is a document as written and as JSON. A contract keeps these
// rather than the parsed node tree, which takes twelve times the room of
// the source: 700 MB for a document of 60,000 paths.
type text struct {
	source []byte // as written, or as converted
	json   []byte // source as JSON, in the order written
	// servers and paths are where the values of the top-level members
	// of those names are in json, if it has them, and items where those of
	// the members of paths are.
	servers, paths span
	items          []keyed
}

// Served returns the document with its servers replaced by one, url, as
// YAML and as JSON, both in the order written. The YAML keeps the source
// as written, comments included, where the source is YAML with a
// top-level servers block; otherwise it is made from the parsed source.
func (c *Contract) Served(url, description string) (yamlDoc, jsonDoc []byte, err error) {
	servers := []byte(`[{"url":`)
	servers = appendJSONString(servers, url)
	servers = append(servers, `,"description":`...)
	servers = appendJSONString(servers, description)
	servers = append(servers, "}]"...)
	switch {
	case c.servers != span{}:
		jsonDoc = slices.Concat(c.json[:c.servers.start], servers, c.json[c.servers.end:])
	case len(c.json) <= 2: // {}
		jsonDoc = slices.Concat([]byte(`{"servers":`), servers, []byte("}"))
	default:
		jsonDoc = slices.Concat(c.json[:len(c.json)-1], []byte(`,"servers":`), servers, []byte("}"))
	}
	jsonDoc = append(jsonDoc, '\n')
	if yamlDoc, ok := replaceServers(c.source, url, description); ok {
		return yamlDoc, jsonDoc, nil
	}
	// Read the source again: this is the rare document in JSON, or in
	// YAML with no servers block, and its nodes are let go once written.
	root, err := parseSource(c.source)
	if err != nil {
		return nil, nil, err
	}
	node := &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{{
		Kind: yaml.MappingNode,
		Content: []*yaml.Node{
			{Kind: yaml.ScalarNode, Value: "url"}, {Kind: yaml.ScalarNode, Value: url},
			{Kind: yaml.ScalarNode, Value: "description"}, {Kind: yaml.ScalarNode, Value: description},
		},
	}}}
	if v := member(root, "servers"); v != nil {
		*v = *node
	} else {
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "servers"}, node)
	}
	if yamlDoc, err = yaml.Marshal(root); err != nil {
		return nil, nil, err
	}
	return yamlDoc, jsonDoc, nil
}

// replaceServers replaces the top-level servers block of a YAML source,
// keeping everything else as written. It reports false when the source
// has no such block, as a JSON one has not.
func replaceServers(doc []byte, url, description string) ([]byte, bool) {
	lines := bytes.SplitAfter(doc, []byte("\n"))
	start := -1
	for i, l := range lines {
		if bytes.HasPrefix(l, []byte("servers:")) {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, false
	}
	end := start + 1
	for end < len(lines) && (len(lines[end]) == 0 || lines[end][0] == ' ' || lines[end][0] == '-' || lines[end][0] == '\n' || lines[end][0] == '#') {
		end++
	}
	var out bytes.Buffer
	for _, l := range lines[:start] {
		out.Write(l)
	}
	fmt.Fprintf(&out, "servers:\n  - url: %s\n    description: %s\n", yamlScalar(url), yamlScalar(description))
	for _, l := range lines[end:] {
		out.Write(l)
	}
	return out.Bytes(), true
}

// plainScalar matches what YAML reads as a plain string, unquoted.
var plainScalar = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 ._/:{}-]*[A-Za-z0-9./}]$`)

// yamlScalar writes s as a YAML scalar: plain when it reads back as
// itself, quoted otherwise.
func yamlScalar(s string) string {
	if plainScalar.MatchString(s) && !strings.Contains(s, ": ") && !strings.Contains(s, " #") {
		return s
	}
	q, _ := json.Marshal(s)
	return string(q)
}
