package fake

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// A value of a schema with a oneOf matches exactly one of its members, and
// one with an anyOf at least one: one member of each is picked, the value
// is made of the schema and the member together (their allOf), and where
// the oneOf names a discriminator, its property holds the member's value,
// the mapping's or the member's name. A value made for one member of a
// oneOf may match another too, where the members do not exclude each
// other: another is made, with all the member's optional members, with its
// required ones only, or without what the other member requires, until one
// matches the member alone, or the members are found alike, which Valid
// then says (ErrIndistinct).

// memberChoice is how an object picks its optional members.
type memberChoice uint8

const (
	membersAsUsual  memberChoice = iota // near the top of a value only
	membersAll                          // every member
	membersRequired                     // the required ones only
)

// group is the oneOf or the anyOf of one schema.
type group struct {
	owner *openapi3.Schema
	one   bool // a oneOf; an anyOf otherwise
	refs  openapi3.SchemaRefs
}

// groups returns the oneOfs and anyOfs of s and of its allOf members, at
// any depth of allOf, but those of the schemas of skip.
func (g *Generator) groups(s *openapi3.Schema, skip []*openapi3.Schema) []group {
	var out []group
	var visit func(s *openapi3.Schema, depth int)
	visit = func(s *openapi3.Schema, depth int) {
		if s == nil || depth > 32 || slices.Contains(skip, s) || slices.ContainsFunc(out, func(gr group) bool { return gr.owner == s }) {
			return
		}
		if len(s.OneOf) > 0 {
			out = append(out, group{owner: s, one: true, refs: s.OneOf})
		}
		if len(s.AnyOf) > 0 {
			out = append(out, group{owner: s, refs: s.AnyOf})
		}
		for _, m := range s.AllOf {
			if m != nil {
				visit(m.Value, depth+1)
			}
		}
	}
	visit(s, 0)
	return out
}

// maxAlternativeTries bounds the values made for one value of a schema
// with alternatives.
const maxAlternativeTries = 12

// alternative makes a value of s, whose oneOfs and anyOfs are groups: of
// s and one member of each group, until one matches each oneOf's member
// alone.
func (g *Generator) alternative(s *openapi3.Schema, groups []group, hint Hint, depth int, skip []*openapi3.Schema) any {
	resolved := slices.Clip(skip)
	for _, gr := range groups {
		resolved = append(resolved, gr.owner)
	}
	start := make([]int, len(groups))
	for i, gr := range groups {
		start[i] = g.Faker.IntN(len(gr.refs))
	}
	var last any
	var lastPicked []int
	left := g.left
	for try := range maxAlternativeTries {
		g.left = left
		picked := make([]int, len(groups))
		members := make(openapi3.SchemaRefs, 0, len(groups)+1)
		members = append(members, &openapi3.SchemaRef{Value: s})
		for i, gr := range groups {
			// Each member in turn, then again with the other choices
			// of optional members.
			picked[i] = (start[i] + try) % len(gr.refs)
			members = append(members, gr.refs[picked[i]])
		}
		whole := &openapi3.Schema{AllOf: members}
		switch try / max(1, len(groups[0].refs)) % 3 {
		case 1:
			g.members = membersAll
		case 2:
			g.members = membersRequired
		}
		v := g.planSkipping(whole, hint, depth, resolved)()
		g.members = membersAsUsual
		g.discriminate(v, groups, picked, hint, depth)
		if g.matchesGroups(v, groups, picked) {
			return v
		}
		if g.setApart(v, groups, picked) && g.matchesGroups(v, groups, picked) {
			return v
		}
		last, lastPicked = v, picked
	}
	if g.indistinct == "" {
		g.indistinct = describeGroup(groups[0])
		for i := range groups {
			if !g.matchesGroups(last, groups[i:i+1], lastPicked[i:i+1]) {
				g.indistinct = describeGroup(groups[i])
				break
			}
		}
	}
	return last
}

// describeGroup names the oneOf of gr in a message: by the names of its
// members, such as "oneOf [Cat, Dog]".
func describeGroup(gr group) string {
	names := make([]string, len(gr.refs))
	for i, ref := range gr.refs {
		names[i] = refName(ref)
		if names[i] == "" {
			names[i] = "#" + strconv.Itoa(i)
		}
	}
	kind := "anyOf"
	if gr.one {
		kind = "oneOf"
	}
	return kind + " [" + strings.Join(names, ", ") + "]: every value made for one of them matches another too, or none"
}

// refName returns the name of the schema a reference names, such as Dog
// of #/components/schemas/Dog, or "" for a schema written in place.
func refName(ref *openapi3.SchemaRef) string {
	if ref == nil || ref.Ref == "" {
		return ""
	}
	return ref.Ref[strings.LastIndexByte(ref.Ref, '/')+1:]
}

// discriminated returns the property of the discriminator of s, or "".
func discriminated(s *openapi3.Schema) string {
	if s == nil || s.Discriminator == nil {
		return ""
	}
	return s.Discriminator.PropertyName
}

// discriminate sets, in v, the discriminator property of each group that
// names one to the value of the member picked: the mapping's name of it,
// else the value its own schema of the property gives, else its name.
func (g *Generator) discriminate(v any, groups []group, picked []int, hint Hint, depth int) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	for i, gr := range groups {
		name := discriminated(gr.owner)
		if name == "" {
			continue
		}
		ref := gr.refs[picked[i]]
		if value, ok := mappedName(gr.owner.Discriminator, ref); ok {
			m[name] = value
			continue
		}
		if p := g.memberProperty(ref.Value, name); p != nil && (len(p.Enum) > 0 || p.Const != nil) {
			if _, has := m[name]; !has {
				m[name] = g.value(p, Hint{Property: name, Resource: hint.Resource}, depth+1)
			}
			continue
		}
		if n := refName(ref); n != "" {
			m[name] = n
		}
	}
}

// memberProperty returns the schema of the property name of s, with its
// allOf members', or nil.
func (g *Generator) memberProperty(s *openapi3.Schema, name string) *openapi3.Schema {
	for _, p := range g.properties(s) {
		if p.Name == name {
			return p.Schema
		}
	}
	return nil
}

// mappedName returns the name the mapping of d gives the member ref, as
// kin-openapi reads a mapping: a reference, or the name of a schema of
// the components.
func mappedName(d *openapi3.Discriminator, ref *openapi3.SchemaRef) (string, bool) {
	if d == nil || ref == nil || ref.Ref == "" {
		return "", false
	}
	for _, key := range slices.Sorted(maps.Keys(d.Mapping)) {
		if spec.MappedRef(d.Mapping[key].Ref) == ref.Ref {
			return key, true
		}
	}
	return "", false
}

// matchesGroups reports whether v matches each group as the document's
// validator judges it: one member of each oneOf, the member its
// discriminator's mapping names where it has one (OpenAPI 3.0), and some
// member of each anyOf.
func (g *Generator) matchesGroups(v any, groups []group, picked []int) bool {
	opts := g.checks(false)
	for i, gr := range groups {
		if d := gr.owner.Discriminator; d != nil && len(d.Mapping) > 0 && !g.openAPI31() {
			ref := gr.refs[picked[i]]
			if _, ok := mappedName(d, ref); ok {
				if ref.Value.VisitJSON(v, opts...) != nil {
					return false
				}
				continue
			}
		}
		if !gr.one {
			// The member the value was made for is likely the one it
			// matches: it is tried first.
			if ref := gr.refs[picked[i]]; ref.Value != nil && ref.Value.VisitJSON(v, opts...) == nil {
				continue
			}
		}
		n := 0
		for _, ref := range gr.refs {
			if ref.Value != nil && ref.Value.VisitJSON(v, opts...) == nil {
				n++
				if !gr.one {
					break
				}
			}
		}
		if n == 0 && gr.one && gr.owner.VisitJSON(v, opts...) == nil {
			continue // members of their owner, judged as its members
		}
		if n == 0 || gr.one && n > 1 {
			return false
		}
	}
	return true
}

// Members of a oneOf may refer back to its owner: a discriminator's
// children, each an allOf of the parent that lists them (Pet: oneOf [Cat,
// Dog], Cat: allOf [Pet, ...]). The validator looks at a schema once for
// one value, so that within Pet, its oneOf's members are judged without
// Pet again, and alone, each with Pet's oneOf within it, where every
// member matches: alone, they match no value at all. Such a oneOf is
// judged by its owner, and its other members told apart from the picked
// one by a property they declare, of a type they refuse.

// judgedAlone reports whether some member of gr, a oneOf, matches m
// judged alone; none does where the members refer back to the owner.
func judgedAlone(m map[string]any, gr group, opts []openapi3.SchemaValidationOption) bool {
	return slices.ContainsFunc(gr.refs, func(ref *openapi3.SchemaRef) bool {
		return ref != nil && ref.Value != nil && ref.Value.VisitJSON(m, opts...) == nil
	})
}

// setApart takes out of v, a value of the members picked, what another
// member of a oneOf that v matches too requires and the picked one does
// not, and reports whether it took anything out.
func (g *Generator) setApart(v any, groups []group, picked []int) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	opts := g.checks(false)
	changed := false
	for i, gr := range groups {
		if !gr.one {
			continue
		}
		mine := gr.refs[picked[i]].Value
		own := spec.RequiredNames(mine)
		alone := judgedAlone(m, gr, opts)
		for j, ref := range gr.refs {
			if j == picked[i] || ref.Value == nil {
				continue
			}
			if !alone {
				// Members of their owner: each other one refuses m.
				if g.refuse(m, mine, ref.Value, opts) {
					changed = true
				}
				continue
			}
			if ref.Value.VisitJSON(m, opts...) != nil {
				continue
			}
			for _, name := range spec.RequiredNames(ref.Value) {
				if _, has := m[name]; has && !slices.Contains(own, name) && name != discriminated(gr.owner) {
					delete(m, name)
					changed = true
				}
			}
			if ref.Value.VisitJSON(m, opts...) == nil && g.refuse(m, mine, ref.Value, opts) {
				changed = true
			}
		}
	}
	return changed
}

// refuse sets in m, which matches other as well as mine, a property other
// declares and mine does not to a value of a type other's schema of it
// refuses, so that m matches other no more, and reports whether it did.
// Members that require nothing and differ only in their optional
// properties, as Listen Notes' search results do, are told apart so: any
// object matches them all.
func (g *Generator) refuse(m map[string]any, mine, other *openapi3.Schema, opts []openapi3.SchemaValidationOption) bool {
	for _, p := range g.properties(other) {
		if _, has := m[p.Name]; has || p.Schema == nil || g.memberProperty(mine, p.Name) != nil {
			continue
		}
		v, ok := refused(p.Schema)
		if !ok {
			continue
		}
		m[p.Name] = v
		if other.VisitJSON(m, opts...) != nil {
			return true
		}
		delete(m, p.Name)
	}
	return false
}

// refused returns a value of a JSON type s does not take, where s names
// the types it takes.
func refused(s *openapi3.Schema) (any, bool) {
	t := s.Type
	if t == nil || len(t.Slice()) == 0 {
		return nil, false
	}
	switch {
	case !t.Includes(openapi3.TypeBoolean):
		return false, true
	case !t.Includes(openapi3.TypeString):
		return "", true
	case !t.Includes(openapi3.TypeNumber) && !t.Includes(openapi3.TypeInteger):
		return json.Number("0"), true
	}
	return nil, false
}

// openAPI31 reports whether the document is of OpenAPI 3.1, whose
// validator of JSON Schema 2020-12 reads no discriminator.
func (g *Generator) openAPI31() bool {
	return g.Contract != nil && g.Contract.Doc != nil && g.Contract.Doc.IsOpenAPI31OrLater()
}
