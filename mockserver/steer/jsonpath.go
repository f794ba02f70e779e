package steer

import (
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// A JSON path selects values of a request's JSON body for a body matcher,
// in the part of the syntax (RFC 9535) that selects by place: $ the whole
// body, .name and ['name'] a member, [2] an element (and [-1] the last),
// [*] and .* every member or element, and ..name a member at any depth.
// Filters and slices are not taken: a matcher of the value does their work.

// jsonPath is a JSON path, parsed.
type jsonPath struct {
	steps []pathStep
}

// pathStep is one step of a JSON path.
type pathStep struct {
	name      string // a member; "" with index or all
	index     int    // an element, when isIndex
	isIndex   bool
	all       bool // every member or element
	recursive bool // at any depth below
}

// parseJSONPath reads a JSON path.
func parseJSONPath(s string) (*jsonPath, error) {
	if !strings.HasPrefix(s, "$") {
		return nil, errors.New("a JSON path starts with $, such as $.name")
	}
	p := &jsonPath{}
	rest := s[1:]
	for rest != "" {
		var st pathStep
		switch {
		case strings.HasPrefix(rest, ".."):
			st.recursive = true
			rest = rest[2:]
			if rest == "" || rest[0] == '.' {
				return nil, errors.New("a name or * must follow ..")
			}
			if rest[0] == '[' {
				break
			}
			name, after := dotName(rest)
			st.name, st.all, rest = name, name == "*", after
			if st.all {
				st.name = ""
			}
			p.steps = append(p.steps, st)
			continue
		case rest[0] == '.':
			name, after := dotName(rest[1:])
			if name == "" {
				return nil, errors.New("a name or * must follow .")
			}
			st.name, st.all, rest = name, name == "*", after
			if st.all {
				st.name = ""
			}
			p.steps = append(p.steps, st)
			continue
		case rest[0] != '[':
			return nil, errors.New("want . or [ after " + strconv.Quote(s[:len(s)-len(rest)]))
		}
		end := closing(rest)
		if end < 0 {
			return nil, errors.New("a [ is not closed")
		}
		inner := strings.TrimSpace(rest[1:end])
		rest = rest[end+1:]
		switch {
		case inner == "*":
			st.all = true
		case len(inner) >= 2 && (inner[0] == '\'' || inner[0] == '"') && inner[len(inner)-1] == inner[0]:
			st.name = strings.ReplaceAll(inner[1:len(inner)-1], `\`+inner[:1], inner[:1])
		default:
			n, err := strconv.Atoi(inner)
			if err != nil {
				return nil, errors.New("[" + inner + "]: petmock takes a name in quotes, an index, or *; not filters nor slices")
			}
			st.index, st.isIndex = n, true
		}
		p.steps = append(p.steps, st)
	}
	return p, nil
}

// dotName returns the name after a dot, up to the next . or [, and what
// follows it.
func dotName(s string) (string, string) {
	i := strings.IndexAny(s, ".[")
	if i < 0 {
		return s, ""
	}
	return s[:i], s[i:]
}

// closing returns the index of the ] that closes the [ s starts with,
// past a quoted name; -1 for none.
func closing(s string) int {
	var quote byte
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0 && c == '\\':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
		case c == '\'' || c == '"':
			quote = c
		case c == ']':
			return i
		}
	}
	return -1
}

// selectIn returns the values p selects of v, a JSON value decoded with
// json.Number.
func (p *jsonPath) selectIn(v any) []any {
	current := []any{v}
	for _, st := range p.steps {
		var next []any
		for _, c := range current {
			if st.recursive {
				walkJSON(c, func(x any) { next = append(next, st.apply(x)...) })
				continue
			}
			next = append(next, st.apply(c)...)
		}
		current = next
	}
	return current
}

// apply returns the values the step selects of v.
func (st pathStep) apply(v any) []any {
	switch node := v.(type) {
	case map[string]any:
		switch {
		case st.all:
			out := make([]any, 0, len(node))
			for _, k := range slices.Sorted(maps.Keys(node)) {
				out = append(out, node[k])
			}
			return out
		case st.isIndex:
			return nil
		}
		if x, ok := node[st.name]; ok {
			return []any{x}
		}
	case []any:
		switch {
		case st.all:
			return node
		case st.isIndex:
			i := st.index
			if i < 0 {
				i += len(node)
			}
			if i >= 0 && i < len(node) {
				return []any{node[i]}
			}
		}
	}
	return nil
}

// walkJSON calls visit on v and every value below it.
func walkJSON(v any, visit func(any)) {
	visit(v)
	switch node := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(node)) {
			walkJSON(node[k], visit)
		}
	case []any:
		for _, x := range node {
			walkJSON(x, visit)
		}
	}
}

// impossible says why p can select nothing in a value of schema, such as
// a member the schema does not declare, or "" when it may select
// something. A step at any depth, or below one, is not judged.
func (p *jsonPath) impossible(schema *openapi3.Schema) string {
	current := []*openapi3.Schema{schema}
	for _, st := range p.steps {
		if st.recursive {
			return ""
		}
		var next []*openapi3.Schema
		for _, s := range current {
			next = append(next, stepSchemas(s, st)...)
		}
		if len(next) == 0 {
			return st.what() + " is not in the schema"
		}
		current = next
	}
	return ""
}

// stepSchemas returns the schemas of the values step st selects of a
// value of s: several of a composed schema, none when it can select
// nothing, and a nil schema for any value.
func stepSchemas(s *openapi3.Schema, st pathStep) []*openapi3.Schema {
	if s == nil {
		return []*openapi3.Schema{nil}
	}
	var out []*openapi3.Schema
	for _, refs := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
		for _, ref := range refs {
			if ref != nil {
				out = append(out, stepSchemas(ref.Value, st)...)
			}
		}
	}
	composed := len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) > 0
	switch {
	case st.isIndex || st.all && s.Type.Is("array"):
		if s.Items != nil {
			return append(out, s.Items.Value)
		}
		if !composed && (s.Type == nil || s.Type.Is("array")) {
			out = append(out, nil)
		}
	case st.all:
		if s.Type == nil || s.Type.Is("object") {
			out = append(out, nil)
		}
	default:
		if p, ok := s.Properties[st.name]; ok && p != nil {
			return append(out, p.Value)
		}
		// A name an object of declared members does not declare is most
		// likely a slip: only additionalProperties that say so, or an
		// object that declares none, let one through.
		switch ap := s.AdditionalProperties; {
		case ap.Schema != nil:
			out = append(out, ap.Schema.Value)
		case ap.Has != nil && *ap.Has,
			!composed && len(s.Properties) == 0 && (s.Type == nil || s.Type.Is("object")):
			out = append(out, nil)
		}
	}
	return out
}

// what names the step in a message.
func (st pathStep) what() string {
	switch {
	case st.all:
		return "[*]"
	case st.isIndex:
		return "[" + strconv.Itoa(st.index) + "]"
	}
	return strconv.Quote(st.name)
}
