package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
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
		escaped, ok := escapeUnprintable(data)
		if !ok {
			return nil, err
		}
		if yaml.Unmarshal(escaped, &doc) != nil {
			return nil, err
		}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("the document is not a mapping")
	}
	return doc.Content[0], nil
}

// escapeUnprintable returns data, a JSON document, with each character
// YAML does not print, and so does not read, written as its \u escape:
// JSON allows C1 controls such as U+0080 raw in a string, as DocuSign's
// "recipient\u00c3\u00a2\u00c2\u0080..." of a mangled apostrophe has
// them, where the YAML parser refuses the whole document. In valid JSON
// they can only be in strings, where the escape means the same character.
// False where data is no JSON or holds none.
func escapeUnprintable(data []byte) ([]byte, bool) {
	if language(data) != "JSON" || !json.Valid(data) {
		return nil, false
	}
	unprintable := func(r rune) bool {
		return r >= 0x7f && r <= 0x9f && r != 0x85 || r == 0xfffe || r == 0xffff
	}
	if !bytes.ContainsFunc(data, unprintable) {
		return nil, false
	}
	var b bytes.Buffer
	for _, r := range string(data) {
		if unprintable(r) {
			fmt.Fprintf(&b, "\\u%04x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.Bytes(), true
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

// propertyOrder maps the schemas of a document to the names of their
// properties, in the order written.
type propertyOrder map[*openapi3.Schema][]string

// readPropertyOrder walks the document and its outline side by side and
// notes the order of the properties of every schema written in place.
// Schemas reached through $ref are noted where they are defined.
func readPropertyOrder(root *outline, doc *openapi3.T) propertyOrder {
	order := propertyOrder{}
	if c := doc.Components; c != nil {
		comps := root.member("components")
		comps.member("schemas").members(func(name string, n *outline) {
			order.schema(n, c.Schemas[name])
		})
		comps.member("parameters").members(func(name string, n *outline) {
			if ref := c.Parameters[name]; ref != nil && ref.Value != nil {
				order.schema(n.member("schema"), ref.Value.Schema)
			}
		})
		comps.member("requestBodies").members(func(name string, n *outline) {
			if ref := c.RequestBodies[name]; ref != nil && ref.Value != nil {
				order.content(n.member("content"), ref.Value.Content)
			}
		})
		comps.member("responses").members(func(name string, n *outline) {
			if ref := c.Responses[name]; ref != nil && ref.Value != nil {
				order.content(n.member("content"), ref.Value.Content)
			}
		})
	}
	root.member("paths").members(func(path string, pn *outline) {
		item := doc.Paths.Value(path)
		if item == nil {
			return
		}
		order.parameters(pn.member("parameters"), item.Parameters)
		for method, op := range item.Operations() {
			on := pn.member(strings.ToLower(method))
			order.parameters(on.member("parameters"), op.Parameters)
			if rb := op.RequestBody; rb != nil && rb.Ref == "" && rb.Value != nil {
				order.content(on.member("requestBody").member("content"), rb.Value.Content)
			}
			if op.Responses == nil {
				continue
			}
			on.member("responses").members(func(code string, rn *outline) {
				if resp := op.Responses.Value(code); resp != nil && resp.Ref == "" && resp.Value != nil {
					order.content(rn.member("content"), resp.Value.Content)
				}
			})
		}
	})
	return order
}

func (o propertyOrder) parameters(n *outline, params openapi3.Parameters) {
	for i, ref := range params {
		if ref.Ref == "" && ref.Value != nil {
			o.schema(n.item(i).member("schema"), ref.Value.Schema)
		}
	}
}

func (o propertyOrder) content(n *outline, content openapi3.Content) {
	n.members(func(mt string, mn *outline) {
		if media := content[mt]; media != nil {
			o.schema(mn.member("schema"), media.Schema)
		}
	})
}

func (o propertyOrder) schema(n *outline, ref *openapi3.SchemaRef) {
	if n == nil || ref == nil || ref.Ref != "" || ref.Value == nil || n.has("$ref") {
		return
	}
	s := ref.Value
	if _, done := o[s]; done {
		return
	}
	props := n.member("properties")
	o[s] = nil
	if props != nil {
		o[s] = props.keys
	}
	props.members(func(name string, pn *outline) {
		o.schema(pn, s.Properties[name])
	})
	o.schema(n.member("items"), s.Items)
	o.schema(n.member("not"), s.Not)
	o.schema(n.member("additionalProperties"), s.AdditionalProperties.Schema)
	for key, list := range map[string]openapi3.SchemaRefs{"allOf": s.AllOf, "anyOf": s.AnyOf, "oneOf": s.OneOf} {
		seq := n.member(key)
		for i, r := range list {
			o.schema(seq.item(i), r)
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
// YAML and as JSON, both in the order written. url is the URL of the base
// path of the document, Base; the servers of a path or an operation with
// servers of its own are replaced by one too, at url's origin and the
// base path it is served below (see servers.go), so that a client of the
// document served sends every request where the mock serves it. The YAML
// keeps the source as written, comments included, where the source is
// YAML with a top-level servers block and no other; otherwise it is made
// from the parsed source.
func (c *Contract) Served(url, description string) (yamlDoc, jsonDoc []byte, err error) {
	origin := strings.TrimSuffix(url, c.Base)
	nested := c.nestedServers()
	var parts [][]byte
	at := 0
	replace := func(sp span, with []byte) {
		parts = append(parts, c.json[at:sp.start], with)
		at = sp.end
	}
	servers := serversJSON(url, description)
	var inserted bool
	for _, it := range c.items {
		if c.servers != (span{}) && c.servers.start < it.value.start && !inserted {
			replace(c.servers, servers)
			inserted = true
		}
		if !nested[it.key] {
			continue
		}
		item, err := c.servedItem(it, origin, description)
		if err != nil {
			return nil, nil, err
		}
		replace(it.value, item)
	}
	if c.servers != (span{}) && !inserted {
		replace(c.servers, servers)
		inserted = true
	}
	rest := c.json[at:]
	switch {
	case inserted:
		parts = append(parts, rest)
	case len(c.json) <= 2: // {}
		parts = append(parts, []byte(`{"servers":`), servers, []byte("}"))
	default:
		parts = append(parts, rest[:len(rest)-1], []byte(`,"servers":`), servers, []byte("}"))
	}
	jsonDoc = append(slices.Concat(parts...), '\n')
	if len(nested) == 0 {
		if yamlDoc, ok := replaceServers(c.source, url, description); ok {
			return yamlDoc, jsonDoc, nil
		}
	}
	// Read the source again: this is the rare document in JSON, or in
	// YAML with no servers block or servers below its paths, and its nodes
	// are let go once written.
	root, err := parseSource(c.source)
	if err != nil {
		return nil, nil, err
	}
	if v := member(root, "servers"); v != nil {
		*v = *serversNode(url, description)
	} else {
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "servers"}, serversNode(url, description))
	}
	if paths := member(root, "paths"); paths != nil && paths.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(paths.Content); i += 2 {
			if path := paths.Content[i].Value; nested[path] {
				c.serveItemNode(path, paths.Content[i+1], origin, description)
			}
		}
	}
	if yamlDoc, err = yaml.Marshal(root); err != nil {
		return nil, nil, err
	}
	return yamlDoc, jsonDoc, nil
}

// nestedServers returns the paths with servers of their own, or with
// operations that have theirs.
func (c *Contract) nestedServers() map[string]bool {
	out := map[string]bool{}
	for path, item := range c.Doc.Paths.Map() {
		if len(item.Servers) > 0 || slices.ContainsFunc(slices.Collect(maps.Values(item.Operations())), func(op *openapi3.Operation) bool {
			return op.Servers != nil && len(*op.Servers) > 0
		}) {
			out[path] = true
		}
	}
	return out
}

// servedItem returns the JSON of the path item it with its servers and
// those of its operations replaced, as Served does.
func (c *Contract) servedItem(it keyed, origin, description string) ([]byte, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(c.json[it.value.start:it.value.end], &n); err != nil || n.Kind != yaml.DocumentNode || len(n.Content) != 1 {
		return nil, fmt.Errorf("paths.%s: the path item does not read back: %v", it.key, err)
	}
	c.serveItemNode(it.key, n.Content[0], origin, description)
	return nodeJSON(nil, n.Content[0])
}

// serveItemNode replaces the servers of the path item node of path, and
// those of its operations, by one each: origin and the base path it is
// served below.
func (c *Contract) serveItemNode(path string, item *yaml.Node, origin, description string) {
	if v := member(item, "servers"); v != nil && len(v.Content) > 0 {
		*v = *serversNode(origin+c.PathBase(path), description)
	}
	for method, op := range c.PathOperations(path) {
		if v := member(member(item, strings.ToLower(method)), "servers"); v != nil && len(v.Content) > 0 {
			*v = *serversNode(origin+op.Base, description)
		}
	}
}

// serversJSON writes a servers list of one server as JSON.
func serversJSON(url, description string) []byte {
	servers := []byte(`[{"url":`)
	servers = appendJSONString(servers, url)
	servers = append(servers, `,"description":`...)
	servers = appendJSONString(servers, description)
	return append(servers, "}]"...)
}

// serversNode is a servers list of one server as a YAML node.
func serversNode(url, description string) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{{
		Kind: yaml.MappingNode,
		Content: []*yaml.Node{
			{Kind: yaml.ScalarNode, Value: "url"}, {Kind: yaml.ScalarNode, Value: url},
			{Kind: yaml.ScalarNode, Value: "description"}, {Kind: yaml.ScalarNode, Value: description},
		},
	}}}
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
