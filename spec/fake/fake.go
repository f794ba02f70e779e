// Package fake makes values that match the schemas of a contract, with
// gofakeit: realistic where the name of a property says what it holds (the
// name of a pet is a pet name, an email is an email), and otherwise driven
// by the schema: its examples, enumeration, type, format, bounds, lengths
// and simple patterns. A Generator whose Faker has the same seed makes the
// same values, byte for byte.
//
// petmock makes its catalogues and the answers of operations that are not
// part of a resource with it; the conformance suite makes the valid
// requests it sends with it.
package fake

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// NewFaker returns a faker whose draws repeat for seed. gofakeit.New treats
// seed 0 as "random"; a PCG source of its own repeats for every seed, and
// equals gofakeit.New for the others.
func NewFaker(seed uint64) *gofakeit.Faker {
	return gofakeit.NewFaker(rand.NewPCG(seed, seed), false)
}

// Generator makes values for the schemas of Contract.
type Generator struct {
	// Contract gives the order of properties; nil orders them by name.
	Contract *spec.Contract
	// Faker draws the values.
	Faker *gofakeit.Faker
	// Examples takes a schema's example, or one of its examples, before
	// anything else, as a mock's answers do. Without it, examples come
	// after the names of properties, so that a catalogue is varied.
	Examples bool
	// Refs returns what picks the id of an item of the resource a
	// property such as petId names, so that references point at items
	// that exist; ok is false when no resource goes by that name or it
	// holds no item. It is asked once for each name. Nil means no
	// resource does.
	Refs func(resource string) (pick func(f *gofakeit.Faker) any, ok bool)

	// What a reference names and the weights of an enumeration are worked
	// out once.
	refs     map[string]func(*gofakeit.Faker) any // of the resource a reference names; nil for none
	mixes    map[*openapi3.Schema][]int
	enums    map[*openapi3.Schema][]any            // the values of an enumeration that match the rest of their schema
	examples map[*openapi3.Schema][]any            // the examples of a schema that match it
	views    map[*openapi3.Schema]*openapi3.Schema // see scalarView
	props    map[*openapi3.Schema][]spec.Property  // see properties
	objects  map[*openapi3.Schema]*openapi3.Schema // see membersView
	names    map[*openapi3.Schema]*openapi3.Schema // a string's schema of a propertyNames without a type
	// left is what is left of the bytes the value being made may take:
	// see MaxValueBytes.
	left int
	// request is set while a value of a request is made: its readOnly
	// members are left out, where an answer's writeOnly members are.
	request bool
	// members is how the next object made picks its optional members,
	// when a value of one member of a oneOf is sought that matches no
	// other (see alternative.go).
	members memberChoice
	// indistinct names the oneOf whose members no value made told apart,
	// "" while there is none.
	indistinct string
}

// Bounds of what a Generator makes, whatever a schema asks for: a schema
// may ask for a string of a billion characters, or arrays of a hundred
// items in arrays of a hundred items, and petmock makes its answers and
// its catalogue with a Generator. Validation keeps the schema's own
// bounds, so a value cut short to these may not match its schema, which
// Valid reports; Caps says where a schema asks for more.
const (
	// MaxStringLength bounds the characters of a string made for a
	// minLength.
	MaxStringLength = 4096
	// MaxArrayItems bounds the items of an array made for a minItems.
	MaxArrayItems = 100
	// MaxObjectProperties bounds the properties of an object made for a
	// minProperties.
	MaxObjectProperties = 100
	// MaxValueBytes bounds the bytes of one value made, about as much as
	// its JSON text, all its parts together: past it, arrays and objects
	// get no more members, and strings are cut. Nested arrays would
	// otherwise multiply their items.
	MaxValueBytes = 1 << 20
)

// Hint says what a value is: the name of its property and of the resource
// it belongs to, such as "name" and "pets". Either may be empty.
type Hint struct {
	Property string
	Resource string
}

// Categories are the ids a property such as categoryId takes when no
// resource of that name exists: the interface does not describe
// categories, so generated pets belong to this small fixed set.
var Categories = []int64{1, 2, 3, 4, 5}

// maxTries bounds the values Valid makes before it gives up.
const maxTries = 20

// ErrNoValue is returned by Valid when no value it made matched the schema.
var ErrNoValue = errors.New("no value made from the schema matches it")

// ErrIndistinct is returned by Valid, wrapped in ErrNoValue, when the
// members of a oneOf of the schema cannot be told apart: every value made
// for one of them matches another too, so none matches exactly one.
var ErrIndistinct = errors.New("its oneOf members cannot be told apart")

// Valid makes a value for s and checks it against s, making another when
// one does not match, such as a string for a pattern too complex to
// follow. Its error says, in one line, why the last value did not match,
// or why no value made can, as s asks for more than the generator makes.
func (g *Generator) Valid(s *openapi3.Schema, hint Hint) (any, error) {
	if why := (&walk{}).capped(s, 0); why != "" {
		// No value made can match: none is made, twenty times over.
		return nil, fmt.Errorf("%w: %s", ErrNoValue, why)
	}
	var last error
	g.indistinct = ""
	for range maxTries {
		v := g.Value(s, hint)
		if last = g.check(s, v); last == nil {
			return v, nil
		}
		if g.indistinct != "" {
			// The members of a oneOf were tried in turn and found alike:
			// another try finds them alike again.
			return nil, fmt.Errorf("%w: %w: %s", ErrNoValue, ErrIndistinct, g.indistinct)
		}
	}
	why, _, _ := strings.Cut(last.Error(), "\n")
	return nil, fmt.Errorf("%w: %s", ErrNoValue, why)
}

// check checks v against s, as checks(true) says; where kin-openapi
// cannot compile s for JSON Schema 2020-12, as a $ref below $defs of an
// allOf member of Scalar Galaxy's, by the validator of OpenAPI 3.0.
func (g *Generator) check(s *openapi3.Schema, v any) error {
	err := s.VisitJSON(v, g.checks(true)...)
	if err != nil && strings.Contains(err.Error(), "failed to compile schema") {
		return s.VisitJSON(v, g.checks(false)...)
	}
	return err
}

// Matches reports whether v, an example of s or an answer, matches it as
// the validator of the document's version judges an answer, as a made
// value is checked: Vercel's null example of a nullable string of an
// enumeration without null is one by OpenAPI 3.0's and none by JSON Schema
// 2020-12's.
func (g *Generator) Matches(s *openapi3.Schema, v any) bool {
	request := g.request
	g.request = false
	defer func() { g.request = request }()
	return g.check(s, v) == nil
}

// checks are the options a made value is checked with, as an answer or,
// while a request's is made, as a request: by the validator of the
// document's version where whole, the one of OpenAPI 3.0 otherwise, which
// is quicker and judges alike but for the keywords of JSON Schema 2020-12.
func (g *Generator) checks(whole bool) []openapi3.SchemaValidationOption {
	as := openapi3.VisitAsResponse()
	if g.request {
		as = openapi3.VisitAsRequest()
	}
	if whole && g.Contract != nil && g.Contract.Doc != nil && g.Contract.Doc.IsOpenAPI31OrLater() {
		return []openapi3.SchemaValidationOption{as, openapi3.EnableJSONSchema2020()}
	}
	return []openapi3.SchemaValidationOption{as, openapi3.DisableSchemaErrorDetails()}
}

// Value makes a value for s. It may not match s where s asks for more than
// the generator follows, or more than its bounds allow; Valid checks.
func (g *Generator) Value(s *openapi3.Schema, hint Hint) any {
	g.left, g.request = MaxValueBytes, false
	return g.value(s, hint, 0)
}

// Plan returns a function that makes values for s as Value does, having
// worked out once what the schema and the hint call for: a catalogue of a
// million items makes each of its properties' values with one.
func (g *Generator) Plan(s *openapi3.Schema, hint Hint) func() any {
	p := g.plan(s, hint, 0)
	return func() any {
		g.left, g.request = MaxValueBytes, false
		return p()
	}
}

// spend counts n bytes against what is left of the value being made.
func (g *Generator) spend(n int) { g.left -= n }

// Depths of made values, for recursive schemas: below maxDepth, a value
// has only what its schema requires, its required members and its least
// items; below hardDepth, nothing more is made. A schema may ask for
// members nested far down, such as Stripe's lists of lists of lists, and
// a value without them does not match it.
const (
	maxDepth  = 8
	hardDepth = 40
)

// optionalDepth is the depth below which optional members are left out:
// a made value shows its schema's shape near the top, not at every depth.
const optionalDepth = 2

func (g *Generator) value(s *openapi3.Schema, hint Hint, depth int) any {
	return g.plan(s, hint, depth)()
}

// plan works out how to make values for s: examples first for a mock's
// answers, then the enumeration, the constant, one member of each oneOf
// and anyOf (alternative.go), what the property's name says, examples for
// a catalogue, and at last the type, with what its allOf members ask of a
// value of it. Nothing is drawn until the plan runs, so that plans and
// values draw alike.
func (g *Generator) plan(s *openapi3.Schema, hint Hint, depth int) func() any {
	return g.planSkipping(s, hint, depth, nil)
}

// planSkipping is plan, with the oneOfs and anyOfs of the schemas of skip
// taken as resolved already: those of a value whose member is being made.
func (g *Generator) planSkipping(s *openapi3.Schema, hint Hint, depth int, skip []*openapi3.Schema) func() any {
	if s == nil {
		return func() any { return g.Faker.Word() }
	}
	if g.Examples && g.hasExample(s) {
		return func() any { v, _ := g.example(s); return v }
	}
	if len(s.Enum) > 0 {
		return func() any { return g.enum(s) }
	}
	if s.Const != nil {
		return func() any { return normalize(s.Const) }
	}
	if groups := g.groups(s, skip); len(groups) > 0 {
		return func() any { return g.alternative(s, groups, hint, depth, skip) }
	}
	if onlyNull(s) {
		return func() any { return nil }
	}
	// The keywords of a value that are not its members', such as an
	// enumeration or a format, may be those of an allOf member.
	scalar := g.scalarView(s)
	if scalar != s {
		switch {
		case g.Examples && g.hasExample(scalar):
			return func() any { v, _ := g.example(scalar); return v }
		case len(scalar.Enum) > 0:
			return func() any { return g.enum(scalar) }
		case scalar.Const != nil:
			return func() any { return normalize(scalar.Const) }
		}
	}
	t := valueType(scalar)
	if t == "" {
		// The view takes no members: an allOf whose members have
		// properties but no type, such as a oneOf's member joined to
		// its owner, is of objects.
		t = valueType(s)
	}
	byType := g.typePlan(s, scalar, t, hint, depth)
	if !g.Examples && g.hasExample(s) {
		byType = func() any { v, _ := g.example(s); return v }
	}
	if hint.Property == "" || scalar.Pattern != "" {
		return byType
	}
	named := pickNamer(hint, t, scalar)
	if named == nil {
		return byType
	}
	return func() any {
		if v, ok := named(g, scalar); ok {
			if str, ok := v.(string); ok {
				g.spend(len(str) + 2)
			}
			return v
		}
		return byType()
	}
}

// valueType is the JSON type of the values made for s: its type, but
// integer for a number of an integer format, int32 or int64, whose values
// are whole.
func valueType(s *openapi3.Schema) string {
	t := spec.TypeOf(s)
	if t == "number" && (s.Format == "int32" || s.Format == "int64") {
		return "integer"
	}
	return t
}

// onlyNull reports whether null is the one value s takes: its type is
// "null" alone, as OpenAPI 3.1 writes it.
func onlyNull(s *openapi3.Schema) bool {
	return s.Type != nil && len(s.Type.Slice()) == 1 && s.Type.Is("null")
}

// typePlan makes values from the type of s alone: objects of the members
// of s and its allOf, scalars of what scalar, s with the keywords of its
// allOf members, asks.
func (g *Generator) typePlan(s, scalar *openapi3.Schema, t string, hint Hint, depth int) func() any {
	switch t {
	case "object":
		return func() any { return g.object(s, hint, depth) }
	case "array":
		return func() any { return g.array(scalar, hint, depth) }
	case "integer":
		return func() any { g.spend(8); return g.integer(scalar) }
	case "number":
		return func() any { g.spend(8); return g.number(scalar) }
	case "boolean":
		return func() any { g.spend(5); return g.Faker.Bool() }
	case "string":
		return func() any {
			v := g.str(scalar)
			g.spend(len(v) + 2)
			return v
		}
	}
	return func() any { return g.Faker.Word() }
}

func hasExample(s *openapi3.Schema) bool {
	return len(s.Examples) > 0 || s.Example != nil
}

// hasExample reports whether s gives an example its values may be: one
// that matches it.
func (g *Generator) hasExample(s *openapi3.Schema) bool {
	return hasExample(s) && len(g.examplesOf(s)) > 0
}

// examplesOf returns the examples of s that match it, each once: a
// document may give a string's examples as an array of them, as Vercel's
// does in OpenAPI 3.1, where examples is a list.
func (g *Generator) examplesOf(s *openapi3.Schema) []any {
	if values, ok := g.examples[s]; ok {
		return values
	}
	if g.examples == nil {
		g.examples = map[*openapi3.Schema][]any{}
	}
	all := slices.Clone(s.Examples)
	if s.Example != nil {
		all = append(all, s.Example)
	}
	var values []any
	for _, v := range all {
		v = normalize(v)
		if ofFormats(s, v, 0) && g.Matches(s, v) {
			values = append(values, v)
		}
	}
	g.examples[s] = values
	return values
}

// example returns an example of s that matches it: of an answer without
// the members that are only written, of a request without those that are
// only read.
func (g *Generator) example(s *openapi3.Schema) (any, bool) {
	values := g.examplesOf(s)
	if len(values) == 0 {
		return nil, false
	}
	v := spec.CopyJSON(values[g.Faker.IntN(len(values))])
	if m, ok := v.(map[string]any); ok {
		for _, p := range g.properties(s) {
			if g.leftOut(p.Schema) {
				delete(m, p.Name)
			}
		}
	}
	return v, true
}

// leftOut reports whether a member of schema s is left out of the value
// being made: a writeOnly one of an answer, a readOnly one of a request.
func (g *Generator) leftOut(s *openapi3.Schema) bool {
	if g.request {
		return s.ReadOnly
	}
	return s.WriteOnly
}

// normalize turns the numbers of a value read from the document into
// json.Number, as decoded bodies have them.
func normalize(v any) any {
	switch v := v.(type) {
	case float64:
		return number(v)
	case int:
		return json.Number(strconv.Itoa(v))
	case int64:
		return json.Number(strconv.FormatInt(v, 10))
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = normalize(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = normalize(e)
		}
		return out
	}
	return v
}

func number(f float64) json.Number {
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return json.Number(strconv.FormatInt(int64(f), 10))
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
}

// enum picks a value of the enumeration, weighed by x-petmock-mix when the
// schema has one: weights in the order of the values. Values the rest of
// the schema refuses, such as a null of a schema that is not nullable, are
// not picked, unless no value is left.
func (g *Generator) enum(s *openapi3.Schema) any {
	weights, ok := g.mixes[s]
	if !ok {
		if g.mixes == nil {
			g.mixes = map[*openapi3.Schema][]int{}
		}
		weights = Mix(s)
		g.mixes[s] = weights
	}
	total := 0
	for _, w := range weights {
		total += w
	}
	if total == 0 {
		values := g.enumValues(s)
		return normalize(values[g.Faker.IntN(len(values))])
	}
	return normalize(s.Enum[Pick(g.Faker.IntN(total), weights)])
}

// enumValues returns the values of the enumeration of s that the rest of
// s takes, or all of them where it takes none.
func (g *Generator) enumValues(s *openapi3.Schema) []any {
	if values, ok := g.enums[s]; ok {
		return values
	}
	if g.enums == nil {
		g.enums = map[*openapi3.Schema][]any{}
	}
	rest := *s
	rest.Enum = nil
	var values []any
	for _, v := range s.Enum {
		if rest.VisitJSON(v, openapi3.DisableSchemaErrorDetails()) == nil {
			values = append(values, v)
		}
	}
	if len(values) == 0 {
		values = s.Enum
	}
	g.enums[s] = values
	return values
}

// Mix returns the weights of an enumeration's values, from x-petmock-mix,
// or nil when the schema has none that fits.
func Mix(s *openapi3.Schema) []int {
	raw, ok := s.Extensions["x-petmock-mix"].([]any)
	if !ok || len(raw) != len(s.Enum) {
		return nil
	}
	out := make([]int, len(raw))
	for i, v := range raw {
		f, ok := v.(float64)
		if !ok || f < 0 || f != math.Trunc(f) {
			return nil
		}
		out[i] = int(f)
	}
	return out
}

// Pick returns the index of the weight that n, from 0 to the sum of the
// weights, falls in.
func Pick(n int, weights []int) int {
	for i, w := range weights {
		if n < w {
			return i
		}
		n -= w
	}
	return len(weights) - 1
}

func (g *Generator) object(s *openapi3.Schema, hint Hint, depth int) any {
	out := map[string]any{}
	g.spend(2)
	choice := g.members
	g.members = membersAsUsual
	if depth >= hardDepth {
		return out
	}
	props := g.properties(s)
	for _, p := range props {
		if g.leftOut(p.Schema) || g.left <= 0 || never(p.Schema) || !p.Required && contradictory(p.Schema) {
			continue
		}
		switch {
		case p.Required:
		case choice == membersAll:
		case choice == membersRequired || depth > optionalDepth || depth >= maxDepth:
			continue
		}
		g.spend(len(p.Name) + 4)
		out[p.Name] = g.value(p.Schema, Hint{Property: p.Name, Resource: hint.Resource}, depth+1)
	}
	g.requiredElsewhere(s, props, out, hint, depth)
	s = g.membersView(s)
	if len(out) == 0 && depth < maxDepth && s.AdditionalProperties.Schema != nil && s.AdditionalProperties.Schema.Value != nil {
		for range 1 + g.Faker.IntN(3) {
			out[g.memberName(s)] = g.value(s.AdditionalProperties.Schema.Value, Hint{Resource: hint.Resource}, depth+1)
		}
	}
	if len(out) < int(s.MinProps) {
		g.moreProperties(s, out, hint, depth)
	}
	return out
}

// membersView returns s, an object's schema, with the minProperties and
// the additionalProperties of its allOf members where it gives none
// itself: AWS's tags are an allOf of a TagMap of at least one member of a
// TagValue, and of a description. Each is made once.
func (g *Generator) membersView(s *openapi3.Schema) *openapi3.Schema {
	if len(s.AllOf) == 0 {
		return s
	}
	if v, ok := g.objects[s]; ok {
		return v
	}
	v := *s
	var fill func(m *openapi3.Schema, depth int)
	fill = func(m *openapi3.Schema, depth int) {
		if m == nil || depth > 32 {
			return
		}
		v.MinProps = max(v.MinProps, m.MinProps)
		if v.AdditionalProperties.Schema == nil && v.AdditionalProperties.Has == nil {
			v.AdditionalProperties = m.AdditionalProperties
		}
		for _, ref := range m.AllOf {
			if ref != nil {
				fill(ref.Value, depth+1)
			}
		}
	}
	fill(s, 0)
	if g.objects == nil {
		g.objects = map[*openapi3.Schema]*openapi3.Schema{}
	}
	g.objects[s] = &v
	return &v
}

// never reports whether s is the schema false of JSON Schema, which no
// value matches, as Vercel gives a property named additionalProperties.
func never(s *openapi3.Schema) bool {
	return s.Always != nil && !*s.Always
}

// memberName returns the name of a member an object of s takes without
// declaring it: a noun, or a name of its propertyNames schema (OpenAPI
// 3.1), such as one of a pattern.
func (g *Generator) memberName(s *openapi3.Schema) string {
	if pn := s.PropertyNames; pn != nil && pn.Value != nil {
		names := pn.Value
		if names.Type == nil {
			// A name is a string whether or not its schema says so;
			// the string's schema is made once, as the caches know
			// a schema by its address.
			if g.names == nil {
				g.names = map[*openapi3.Schema]*openapi3.Schema{}
			}
			if g.names[pn.Value] == nil {
				copied := *pn.Value
				copied.Type = &openapi3.Types{openapi3.TypeString}
				g.names[pn.Value] = &copied
			}
			names = g.names[pn.Value]
		}
		if v, ok := g.value(names, Hint{}, hardDepth-1).(string); ok {
			return v
		}
	}
	return g.Faker.Noun()
}

// contradictory reports whether no value matches s, as its type is null
// and no member of its oneOf or anyOf takes null: an optional member of
// it is better left out.
func contradictory(s *openapi3.Schema) bool {
	return onlyNull(s) && (len(s.OneOf) > 0 && !takesNull(s.OneOf) || len(s.AnyOf) > 0 && !takesNull(s.AnyOf))
}

// requiredElsewhere adds to out, a value of s whose declared members are
// props, the members s or its allOf members require but declare nowhere:
// a value of its additionalProperties schema, or a word.
func (g *Generator) requiredElsewhere(s *openapi3.Schema, props []spec.Property, out map[string]any, hint Hint, depth int) {
	for _, name := range spec.RequiredNames(s) {
		if _, done := out[name]; done || slices.ContainsFunc(props, func(p spec.Property) bool { return p.Name == name }) {
			continue
		}
		if ap := s.AdditionalProperties.Schema; ap != nil && ap.Value != nil {
			out[name] = g.value(ap.Value, Hint{Property: name, Resource: hint.Resource}, depth+1)
			continue
		}
		out[name] = g.Faker.Word()
	}
}

// moreProperties adds properties to out, a value of s, up to s's
// minProperties: first the declared ones left out, then, where s takes
// others, properties of its additionalProperties schema, or strings for a
// free-form object.
func (g *Generator) moreProperties(s *openapi3.Schema, out map[string]any, hint Hint, depth int) {
	want := min(int(s.MinProps), MaxObjectProperties)
	for _, p := range g.properties(s) {
		if len(out) >= want || g.left <= 0 {
			return
		}
		if _, done := out[p.Name]; !done && !g.leftOut(p.Schema) {
			out[p.Name] = g.value(p.Schema, Hint{Property: p.Name, Resource: hint.Resource}, depth+1)
		}
	}
	if has := s.AdditionalProperties.Has; has != nil && !*has {
		return
	}
	var extra *openapi3.Schema
	if ap := s.AdditionalProperties.Schema; ap != nil {
		extra = ap.Value
	}
	for i := 0; len(out) < want && g.left > 0; i++ {
		name := g.memberName(s)
		if _, taken := out[name]; taken {
			name += strconv.Itoa(i)
		}
		g.spend(len(name) + 4)
		if extra == nil {
			w := g.Faker.Word()
			g.spend(len(w) + 2)
			out[name] = w
			continue
		}
		out[name] = g.value(extra, Hint{Resource: hint.Resource}, depth+1)
	}
}

// Request makes a value for the body of a request: readOnly members are
// left out, at every depth, as a client sends none. It may not match s, as
// Value may not; ValidRequest checks.
func (g *Generator) Request(s *openapi3.Schema, resource string) any {
	g.left, g.request = MaxValueBytes, true
	defer func() { g.request = false }()
	return g.value(s, Hint{Resource: resource}, 0)
}

// ValidRequest is Request, checked as Valid checks a value: against s, as
// a request.
func (g *Generator) ValidRequest(s *openapi3.Schema, resource string) (any, error) {
	g.indistinct = ""
	var last error
	for range maxTries {
		v := g.Request(s, resource)
		g.request = true
		last = g.check(s, v)
		g.request = false
		if last == nil {
			return v, nil
		}
		if g.indistinct != "" {
			return nil, fmt.Errorf("%w: %w: %s", ErrNoValue, ErrIndistinct, g.indistinct)
		}
	}
	why, _, _ := strings.Cut(last.Error(), "\n")
	return nil, fmt.Errorf("%w: %s", ErrNoValue, why)
}

func (g *Generator) properties(s *openapi3.Schema) []spec.Property {
	if props, ok := g.props[s]; ok {
		return props
	}
	c := g.Contract
	if c == nil {
		c = &spec.Contract{}
	}
	props := c.Properties(s)
	if len(s.AllOf) > 0 {
		props = sharedProperties(s, props)
		if g.props == nil {
			g.props = map[*openapi3.Schema][]spec.Property{}
		}
		g.props[s] = props
	}
	return props
}

// sharedProperties returns props, the properties of s, a schema of allOf
// members, with each that more than one of them declares of a schema that
// is the allOf of every declaration: a value of it matches them all.
// Gérer mes affaires' sections are an allOf of a Section, whose Type is
// of an enumeration in lower case, and of a Type whose example is
// "About": the last declaration alone gave "About", which the first
// refuses. GitHub's SCIM groups are an allOf of a group whose members
// require a $ref and of one whose members' example has none.
func sharedProperties(s *openapi3.Schema, props []spec.Property) []spec.Property {
	if len(s.AllOf) == 0 {
		return props
	}
	declared := map[string][]*openapi3.SchemaRef{}
	var visit func(m *openapi3.Schema, depth int)
	visit = func(m *openapi3.Schema, depth int) {
		if m == nil || depth > 32 {
			return
		}
		for _, member := range m.AllOf {
			if member != nil {
				visit(member.Value, depth+1)
			}
		}
		for name, ref := range m.Properties {
			if ref != nil && ref.Value != nil {
				declared[name] = append(declared[name], ref)
			}
		}
	}
	visit(s, 0)
	var out []spec.Property
	for i, p := range props {
		if refs := declared[p.Name]; len(refs) > 1 {
			if out == nil {
				out = slices.Clone(props)
			}
			out[i].Schema = &openapi3.Schema{AllOf: refs}
		}
	}
	if out == nil {
		return props
	}
	return out
}

// Shared returns props, the properties of s as spec.Contract.Properties
// gives them, with each that several of its allOf members declare of a
// schema that is the allOf of every declaration (see sharedProperties),
// for plans of the properties one by one, as a catalogue makes its items.
func Shared(s *openapi3.Schema, props []spec.Property) []spec.Property {
	return sharedProperties(s, props)
}

// Items returns the schema of the items of s, an array's: its items, or,
// where its allOf members give them, the allOf of every one of theirs;
// nil for none.
func Items(s *openapi3.Schema) *openapi3.Schema {
	if s.Items == nil && len(s.AllOf) > 0 {
		s = scalarView(s)
	}
	if s.Items == nil {
		return nil
	}
	return s.Items.Value
}

// scalar reports whether t names a JSON type of no members.
func scalar(t string) bool {
	return t == "string" || t == "integer" || t == "number" || t == "boolean"
}

// maxUniqueTries bounds the items made for one item of an array of
// unique items.
const maxUniqueTries = 8

func (g *Generator) array(s *openapi3.Schema, hint Hint, depth int) any {
	g.spend(2)
	if depth >= hardDepth {
		return []any{}
	}
	lo := int(min(s.MinItems, MaxArrayItems))
	hi := lo + 3
	if s.MaxItems != nil {
		hi = min(hi, int(min(*s.MaxItems, MaxArrayItems)))
	}
	hi = max(hi, lo)
	n := min(max(lo, 1+g.Faker.IntN(3)), hi)
	if depth >= maxDepth {
		// Deep down, only the items the schema asks for: an array of
		// itself would not end.
		n = lo
	}
	out := make([]any, 0, n)
	var item *openapi3.Schema
	if s.Items != nil {
		item = s.Items.Value
	}
	elem := Hint{Property: spec.Singular(hint.Property), Resource: hint.Resource}
	var seen map[string]bool
	if s.UniqueItems {
		seen = make(map[string]bool, n)
	}
	for tries := 0; len(out) < n && g.left > 0; tries++ {
		g.spend(1)
		v := g.value(item, elem, depth+1)
		if seen != nil {
			// Items of an enumeration or of a few values may repeat:
			// another is drawn, and where none is new the array is
			// shorter, if its schema allows.
			key := uniqueKey(v)
			if seen[key] {
				if tries < n*maxUniqueTries {
					continue
				}
				break
			}
			seen[key] = true
		}
		out = append(out, v)
	}
	return out
}

// uniqueKey is the text by which uniqueItems tells two items apart: their
// JSON, with the members of objects in order.
func uniqueKey(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// integer draws within the schema's bounds, 1 to 1000 when it has none.
func (g *Generator) integer(s *openapi3.Schema) json.Number {
	lo, hi := bounds(s, 1, 1000)
	lo, hi = math.Ceil(lo), math.Floor(hi)
	if s.Format == "int32" {
		lo, hi = max(lo, math.MinInt32), min(hi, math.MaxInt32)
	}
	lo, hi = max(lo, -1<<53), min(hi, 1<<53)
	if hi < lo {
		return number(lo)
	}
	v := lo + float64(int64(g.Faker.UintN(uint(hi-lo)+1)))
	if m := s.MultipleOf; m != nil && *m > 0 {
		v = math.Ceil(v / *m) * *m
		if v > hi {
			v -= *m
		}
	}
	return number(v)
}

// number draws within the schema's bounds, with two decimals.
func (g *Generator) number(s *openapi3.Schema) json.Number {
	lo, hi := bounds(s, 0, 1000)
	v := lo + g.Faker.Float64()*(hi-lo)
	v = math.Round(v*100) / 100
	v = min(max(v, lo), hi)
	if m := s.MultipleOf; m != nil && *m > 0 {
		v = math.Round(v / *m) * *m
	}
	return number(v)
}

// bounds returns the range of a number schema, with defaults for the ends
// it leaves open, and exclusive bounds moved inside.
func bounds(s *openapi3.Schema, lo, hi float64) (float64, float64) {
	switch {
	case s.Min != nil && s.Max != nil:
		lo, hi = *s.Min, *s.Max
	case s.Min != nil:
		lo, hi = *s.Min, *s.Min+hi-lo
	case s.Max != nil:
		lo, hi = *s.Max-(hi-lo), *s.Max
	}
	step := 1.0
	if spec.TypeOf(s) == "number" {
		step = 0.01
	}
	if s.ExclusiveMin.IsSet() && s.Min != nil && (s.ExclusiveMin.Bool == nil || *s.ExclusiveMin.Bool) {
		lo += step
	}
	if s.ExclusiveMax.IsSet() && s.Max != nil && (s.ExclusiveMax.Bool == nil || *s.ExclusiveMax.Bool) {
		hi -= step
	}
	return lo, hi
}

func (g *Generator) str(s *openapi3.Schema) string {
	var v string
	switch s.Format {
	case "date-time":
		v = dateTimeOfLength(g.date(), s)
	case "date":
		v = g.date().Format(time.DateOnly)
	case "time":
		v = g.date().Format(time.TimeOnly)
	case "email":
		v = g.Faker.Email()
	case "uuid":
		v = g.Faker.UUID()
	case "uri", "url", "uri-reference", "iri":
		v = g.Faker.URL()
	case "hostname":
		v = g.Faker.DomainName()
	case "ipv4":
		v = g.Faker.IPv4Address()
	case "ipv6":
		v = g.Faker.IPv6Address()
	case "byte":
		b := make([]byte, 6+g.Faker.IntN(10))
		for i := range b {
			b[i] = byte(g.Faker.IntN(256))
		}
		v = base64.StdEncoding.EncodeToString(b)
	case "password":
		v = g.Faker.Password(true, true, true, false, false, 12)
	default:
		if s.Pattern != "" && simplePattern(s.Pattern) {
			v = g.patterned(s)
		} else {
			v = g.Faker.Word()
		}
		return fitLength(v, s, g.Faker)
	}
	// A value of the format that the pattern refuses is one of the
	// pattern: PeerTube's magnet URIs are of the format uri, and of a
	// pattern of magnet:?xt=urn:...
	if s.Pattern != "" && simplePattern(s.Pattern) {
		if re, err := regexp.Compile(s.Pattern); err == nil && !re.MatchString(v) {
			v = g.patterned(s)
		}
	}
	return fitLength(v, s, g.Faker)
}

// dateTimeOfLength writes t as an RFC 3339 date-time of the shortest
// length s allows: with a fraction of a second of as many digits as that
// takes, and an offset of +00:00 for more than nine, as Telstra's
// lastUse of exactly 24 characters is 2024-07-28T15:51:23.000Z; plainly
// where s asks for no length RFC 3339 can write.
func dateTimeOfLength(t time.Time, s *openapi3.Schema) string {
	plain := t.Format(time.RFC3339) // 20 characters, in UTC
	want := int(s.MinLength)
	switch {
	case want <= len(plain) || want > 35 || uint64(want) > maxLength(s):
		return plain
	case want == 21:
		want = 22 // no date-time has 21 characters
		if maxLength(s) < 22 {
			return plain
		}
	}
	if want <= 30 {
		return plain[:19] + "." + strings.Repeat("0", want-21) + "Z"
	}
	return plain[:19] + "." + strings.Repeat("0", want-26) + "+00:00"
}

// date draws a time in the years around 2026, whole seconds, in UTC.
func (g *Generator) date() time.Time {
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	return start.Add(time.Duration(int64(g.Faker.IntN(4*365*24*3600))) * time.Second)
}

// patterned makes a string of s's pattern, of s's minLength at least
// where the pattern repeats a part without bound: AWS IoT's payloadVersion
// of ^[0-9-]+$ and a minLength of 10 was drawn shorter, then padded with
// letters the pattern refuses.
//
// One drawn longer than its maxLength, as AWS Clean Rooms' identifiers of
// .*[0-9a-f]{8}-...-[0-9a-f]{12}.* and at most 36 characters, is drawn
// with each part that may repeat repeated as little as it may, where it
// was cut, and its last group with it.
func (g *Generator) patterned(s *openapi3.Schema) string {
	v := g.Faker.Regex(s.Pattern)
	want := int(min(s.MinLength, MaxStringLength))
	n := utf8.RuneCountInString(v)
	switch {
	case n < want:
		if long, ok := lengthened(s.Pattern, want); ok {
			return g.Faker.Regex(long)
		}
	case uint64(n) > min(uint64(MaxStringLength), maxLength(s)):
		if short, ok := shortened(s.Pattern); ok {
			return g.Faker.Regex(short)
		}
	}
	return v
}

// shortened returns pattern with each part that may repeat repeated as
// few times as it may: none of a * or a ?, once of a +, n times of {n,m};
// false where it has no such part.
func shortened(pattern string) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	changed := false
	var shrink func(r *syntax.Regexp)
	shrink = func(r *syntax.Regexp) {
		for _, sub := range r.Sub {
			shrink(sub)
		}
		switch r.Op {
		case syntax.OpStar, syntax.OpQuest:
			r.Op, r.Sub, changed = syntax.OpEmptyMatch, nil, true
		case syntax.OpPlus:
			r.Op, r.Min, r.Max, changed = syntax.OpRepeat, 1, 1, true
		case syntax.OpRepeat:
			if r.Max != r.Min {
				r.Max, changed = r.Min, true
			}
		}
	}
	shrink(re)
	if !changed {
		return "", false
	}
	return re.String(), true
}

// lengthened returns pattern with its first part repeated without bound
// (+, * or {n,}) repeated as often as a value of want characters needs;
// false where it has no such part.
func lengthened(pattern string, want int) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	short := want - shortest(re)
	var grow func(r *syntax.Regexp) bool
	grow = func(r *syntax.Regexp) bool {
		switch r.Op {
		case syntax.OpStar, syntax.OpPlus, syntax.OpRepeat:
			unit := shortest(r.Sub[0])
			if (r.Op == syntax.OpRepeat && r.Max != -1) || unit == 0 {
				break
			}
			least := 0
			switch r.Op {
			case syntax.OpPlus:
				least = 1
			case syntax.OpRepeat:
				least = r.Min
			}
			r.Op, r.Min, r.Max = syntax.OpRepeat, least+(short+unit-1)/unit, -1
			return true
		case syntax.OpAlternate, syntax.OpQuest:
			return false // a part that may not be there at all
		}
		for _, sub := range r.Sub {
			if grow(sub) {
				return true
			}
		}
		return false
	}
	if short <= 0 || !grow(re) {
		return "", false
	}
	return re.String(), true
}

// shortest returns the length, in characters, of the shortest string re
// matches.
func shortest(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return shortest(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min * shortest(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, sub := range re.Sub {
			n += shortest(sub)
		}
		return n
	case syntax.OpAlternate:
		n := -1
		for _, sub := range re.Sub {
			if m := shortest(sub); n < 0 || m < n {
				n = m
			}
		}
		return max(n, 0)
	}
	return 0
}

// simplePattern reports whether gofakeit can follow pattern: one that Go
// parses, without look-arounds or back references (which Go refuses
// anyway), and without unbounded repetition of large classes.
func simplePattern(pattern string) bool {
	_, err := syntax.Parse(pattern, syntax.Perl)
	return err == nil
}

// fitLength pads or cuts v to the lengths s allows, in characters, up to
// MaxStringLength: padded with letters, all at once.
func fitLength(v string, s *openapi3.Schema, f *gofakeit.Faker) string {
	n := utf8.RuneCountInString(v)
	if want := int(min(s.MinLength, MaxStringLength)); n < want {
		pad := make([]byte, want-n)
		for i := range pad {
			pad[i] = byte('a' + f.IntN(26))
		}
		v += string(pad)
		n = want
	}
	if most := min(uint64(MaxStringLength), maxLength(s)); uint64(n) > most {
		v = string([]rune(v)[:most])
	}
	return v
}

// maxLength is the maxLength of s, or the largest length for none.
func maxLength(s *openapi3.Schema) uint64 {
	if s.MaxLength == nil {
		return math.MaxUint64
	}
	return *s.MaxLength
}
