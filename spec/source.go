package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
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

// readPropertyOrder walks the document and its node tree side by side and
// notes the order of the properties of every schema written in place.
// Schemas reached through $ref are noted where they are defined.
func readPropertyOrder(root *yaml.Node, doc *openapi3.T) propertyOrder {
	order := propertyOrder{}
	if doc.Components != nil {
		comps := member(root, "components")
		for name, ref := range doc.Components.Schemas {
			order.schema(member(member(comps, "schemas"), name), ref)
		}
		for name, ref := range doc.Components.Parameters {
			if ref.Value != nil {
				order.schema(member(member(member(comps, "parameters"), name), "schema"), ref.Value.Schema)
			}
		}
		for name, ref := range doc.Components.RequestBodies {
			if ref.Value != nil {
				order.content(member(member(member(comps, "requestBodies"), name), "content"), ref.Value.Content)
			}
		}
		for name, ref := range doc.Components.Responses {
			if ref.Value != nil {
				order.content(member(member(member(comps, "responses"), name), "content"), ref.Value.Content)
			}
		}
	}
	paths := member(root, "paths")
	for path, item := range doc.Paths.Map() {
		pn := member(paths, path)
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
			for code, resp := range op.Responses.Map() {
				if resp.Ref == "" && resp.Value != nil {
					order.content(member(member(member(on, "responses"), code), "content"), resp.Value.Content)
				}
			}
		}
	}
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
	for mt, media := range content {
		if media != nil {
			o.schema(member(member(n, mt), "schema"), media.Schema)
		}
	}
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
	for name, p := range s.Properties {
		o.schema(member(props, name), p)
	}
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

// nodeJSON appends the JSON encoding of a YAML node to dst, mappings in
// the order written.
func nodeJSON(dst []byte, n *yaml.Node) ([]byte, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) != 1 {
			return nil, errors.New("empty document")
		}
		return nodeJSON(dst, n.Content[0])
	case yaml.AliasNode:
		return nodeJSON(dst, n.Alias)
	case yaml.MappingNode:
		dst = append(dst, '{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				dst = append(dst, ',')
			}
			k, _ := json.Marshal(n.Content[i].Value)
			dst = append(append(dst, k...), ':')
			var err error
			if dst, err = nodeJSON(dst, n.Content[i+1]); err != nil {
				return nil, err
			}
		}
		return append(dst, '}'), nil
	case yaml.SequenceNode:
		dst = append(dst, '[')
		for i, c := range n.Content {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = nodeJSON(dst, c); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case yaml.ScalarNode:
		return scalarJSON(dst, n)
	}
	return nil, fmt.Errorf("line %d: a YAML node of kind %d has no JSON form", n.Line, n.Kind)
}

func scalarJSON(dst []byte, n *yaml.Node) ([]byte, error) {
	switch n.ShortTag() {
	case "!!null":
		return append(dst, "null"...), nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, err
		}
		return strconv.AppendBool(dst, b), nil
	case "!!int":
		var i int64
		if err := n.Decode(&i); err != nil {
			return nil, err
		}
		return strconv.AppendInt(dst, i, 10), nil
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, err
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("line %d: %s has no JSON form", n.Line, n.Value)
		}
		return strconv.AppendFloat(dst, f, 'g', -1, 64), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(n.Value); err != nil {
		return nil, err
	}
	return append(dst, bytes.TrimRight(buf.Bytes(), "\n")...), nil
}

// Served returns the document with its servers replaced by one, url, as
// YAML and as JSON, both in the order written. The YAML keeps the source
// as written, comments included, where the source is YAML with a
// top-level servers block; otherwise it is made from the parsed source.
func (c *Contract) Served(url, description string) (yamlDoc, jsonDoc []byte, err error) {
	root := cloneNode(c.root)
	servers := &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{{
		Kind: yaml.MappingNode,
		Content: []*yaml.Node{
			{Kind: yaml.ScalarNode, Value: "url"}, {Kind: yaml.ScalarNode, Value: url},
			{Kind: yaml.ScalarNode, Value: "description"}, {Kind: yaml.ScalarNode, Value: description},
		},
	}}}
	if v := member(root, "servers"); v != nil {
		*v = *servers
	} else {
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "servers"}, servers)
	}
	if jsonDoc, err = nodeJSON(nil, root); err != nil {
		return nil, nil, err
	}
	jsonDoc = append(jsonDoc, '\n')
	if yamlDoc, ok := replaceServers(c.source, url, description); ok {
		return yamlDoc, jsonDoc, nil
	}
	if yamlDoc, err = yaml.Marshal(root); err != nil {
		return nil, nil, err
	}
	return yamlDoc, jsonDoc, nil
}

func cloneNode(n *yaml.Node) *yaml.Node {
	cp := *n
	cp.Content = make([]*yaml.Node, len(n.Content))
	for i, c := range n.Content {
		cp.Content[i] = cloneNode(c)
	}
	return &cp
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
