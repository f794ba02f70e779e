package spec

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A $ref may point into a schema rather than at one of the components:
// codat's documents refer to
// #/paths/~1config/get/responses/200/content/application~1json/schema/properties/logo/properties/full,
// where the schema is a $ref with properties beside it, as OpenAPI 3.1
// allows, which kin-openapi does not keep, and so refuses the whole
// document. Such a schema is the same value wherever it is written: it is
// copied under components.schemas, by a name made of its pointer, and the
// $ref names the copy. A pointer that names nothing, or no schema, is
// left for kin-openapi to refuse, by place.

// schemaKeywords are the keywords under which a schema holds schemas:
// those of one schema, and those of many, by name or by index.
var (
	oneSchema   = []string{"schema", "items", "not", "additionalProperties", "additionalItems", "contains", "propertyNames", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems"}
	manySchemas = []string{"properties", "patternProperties", "definitions", "$defs", "allOf", "oneOf", "anyOf", "prefixItems", "dependentSchemas"}
)

// hoister copies every schema a $ref points into, not at a component,
// under components.schemas, and points the $ref at the copy. The $refs
// are met in repairTree's walk, which leaves values alone; the copies are
// added when it is done (finish), so that the walk meets each schema once,
// where it is written.
type hoister struct {
	doc     *yaml.Node
	hoisted map[string]string // pointer to the name of its copy
	copies  []*yaml.Node      // name, schema, name, schema...
}

// ref points value, the text of a $ref, at a copy of the schema it points
// into, where it points into one.
func (h *hoister) ref(value *yaml.Node) {
	if value.Kind != yaml.ScalarNode {
		return
	}
	segments, ok := deepSchemaPointer(value.Value)
	if !ok {
		return
	}
	name, done := h.hoisted[value.Value]
	if !done {
		target := pointed(h.doc, segments)
		if !schemaLike(target) {
			return
		}
		name = h.freeName(strings.Join(segments, "."))
		h.copies = append(h.copies, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name}, target)
		if h.hoisted == nil {
			h.hoisted = map[string]string{}
		}
		h.hoisted[value.Value] = name
	}
	value.Value = "#/components/schemas/" + name
}

// finish adds the copies under components.schemas.
func (h *hoister) finish() {
	if len(h.copies) > 0 {
		schemas := mappingAt(h.doc, "components", "schemas")
		schemas.Content = append(schemas.Content, h.copies...)
	}
}

// freeName returns a name of a component, made of want, that neither
// components.schemas nor a copy holds: letters, digits, dots, hyphens and
// underscores, as OpenAPI asks.
func (h *hoister) freeName(want string) string {
	var b strings.Builder
	for _, r := range want {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	schemas := member(member(h.doc, "components"), "schemas")
	taken := func(name string) bool {
		if member(schemas, name) != nil {
			return true
		}
		for i := 0; i < len(h.copies); i += 2 {
			if h.copies[i].Value == name {
				return true
			}
		}
		return false
	}
	name := b.String()
	for i := 2; taken(name); i++ {
		name = fmt.Sprintf("%s_%d", b.String(), i)
	}
	return name
}

// deepSchemaPointer returns the segments of ref, a local JSON pointer to
// a schema that is not one of components.schemas itself; false for any
// other.
func deepSchemaPointer(ref string) ([]string, bool) {
	if !strings.HasPrefix(ref, "#/") {
		return nil, false
	}
	var segments []string
	for _, s := range strings.Split(ref[2:], "/") {
		if u, err := url.PathUnescape(s); err == nil {
			s = u
		}
		segments = append(segments, strings.NewReplacer("~1", "/", "~0", "~").Replace(s))
	}
	if len(segments) <= 3 && segments[0] == "components" {
		return nil, false // a component, which kin-openapi reads
	}
	// The pointer names a schema where its last keyword holds one.
	for i := len(segments) - 1; i >= 0; i-- {
		switch {
		case slices.Contains(oneSchema, segments[i]):
			return segments, i == len(segments)-1
		case slices.Contains(manySchemas, segments[i]):
			return segments, i == len(segments)-2
		}
	}
	if len(segments) == 3 && segments[0] == "components" && segments[1] == "schemas" {
		return segments, true
	}
	return nil, false
}

// pointed returns the node segments lead to from doc, or nil. Where a
// mapping on the way lacks the next segment and is a $ref to one of the
// components, the segment is looked for in that component, as kin-openapi
// reads such a pointer.
func pointed(doc *yaml.Node, segments []string) *yaml.Node {
	n := doc
	for _, s := range segments {
		for hops := 0; n != nil && hops < 8; hops++ {
			ref := member(n, "$ref")
			if ref == nil || member(n, s) != nil || !strings.HasPrefix(ref.Value, "#/components/") {
				break
			}
			parts := strings.Split(strings.TrimPrefix(ref.Value, "#/"), "/")
			n = member(member(member(doc, parts[0]), parts[1]), parts[min(2, len(parts)-1)])
		}
		switch {
		case n == nil:
			return nil
		case n.Kind == yaml.MappingNode:
			n = member(n, s)
		case n.Kind == yaml.SequenceNode:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(n.Content) {
				return nil
			}
			n = n.Content[i]
		default:
			return nil
		}
	}
	return n
}

// schemaLike reports whether n may be a schema: a mapping whose type, if
// it has one, is a name or a list of names. codat's itemType is a mapping
// whose type is a schema: no schema, which kin-openapi refuses by its
// pointer.
func schemaLike(n *yaml.Node) bool {
	if n == nil || n.Kind != yaml.MappingNode {
		return false
	}
	t := member(n, "type")
	return t == nil || t.Kind == yaml.ScalarNode || t.Kind == yaml.SequenceNode
}

// mappingAt returns the mapping at the path of keys below doc, made where
// it is not there.
func mappingAt(doc *yaml.Node, keys ...string) *yaml.Node {
	n := doc
	for _, k := range keys {
		next := member(n, k)
		if next == nil {
			next = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, next)
		}
		n = next
	}
	return n
}
