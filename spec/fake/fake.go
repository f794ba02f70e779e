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
	"regexp/syntax"
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
	refs  map[string]func(*gofakeit.Faker) any // of the resource a reference names; nil for none
	mixes map[*openapi3.Schema][]int
	// left is what is left of the bytes the value being made may take:
	// see MaxValueBytes.
	left int
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
	for range maxTries {
		v := g.Value(s, hint)
		if last = s.VisitJSON(v, openapi3.DisableSchemaErrorDetails()); last == nil {
			return v, nil
		}
	}
	why, _, _ := strings.Cut(last.Error(), "\n")
	return nil, fmt.Errorf("%w: %s", ErrNoValue, why)
}

// Value makes a value for s. It may not match s where s asks for more than
// the generator follows, or more than its bounds allow; Valid checks.
func (g *Generator) Value(s *openapi3.Schema, hint Hint) any {
	g.left = MaxValueBytes
	return g.value(s, hint, 0)
}

// Plan returns a function that makes values for s as Value does, having
// worked out once what the schema and the hint call for: a catalogue of a
// million items makes each of its properties' values with one.
func (g *Generator) Plan(s *openapi3.Schema, hint Hint) func() any {
	p := g.plan(s, hint, 0)
	return func() any {
		g.left = MaxValueBytes
		return p()
	}
}

// spend counts n bytes against what is left of the value being made.
func (g *Generator) spend(n int) { g.left -= n }

// maxDepth bounds the nesting of made values, for recursive schemas.
const maxDepth = 8

func (g *Generator) value(s *openapi3.Schema, hint Hint, depth int) any {
	return g.plan(s, hint, depth)()
}

// plan works out how to make values for s: examples first for a mock's
// answers, then the enumeration, what the property's name says, examples
// for a catalogue, and at last the type. Nothing is drawn until the plan
// runs, so that plans and values draw alike.
func (g *Generator) plan(s *openapi3.Schema, hint Hint, depth int) func() any {
	if s == nil {
		return func() any { return g.Faker.Word() }
	}
	if g.Examples && hasExample(s) {
		return func() any { v, _ := g.example(s); return v }
	}
	if len(s.Enum) > 0 {
		return func() any { return g.enum(s) }
	}
	if s.Const != nil {
		return func() any { return s.Const }
	}
	switch {
	case len(s.OneOf) > 0 && s.OneOf[0].Value != nil:
		return g.plan(s.OneOf[0].Value, hint, depth+1)
	case len(s.AnyOf) > 0 && s.AnyOf[0].Value != nil:
		return g.plan(s.AnyOf[0].Value, hint, depth+1)
	}
	t := spec.TypeOf(s)
	byType := g.typePlan(s, t, hint, depth)
	if !g.Examples && hasExample(s) {
		byType = func() any { v, _ := g.example(s); return v }
	}
	if hint.Property == "" || s.Pattern != "" {
		return byType
	}
	named := pickNamer(hint, t, s)
	if named == nil {
		return byType
	}
	return func() any {
		if v, ok := named(g, s); ok {
			if str, ok := v.(string); ok {
				g.spend(len(str) + 2)
			}
			return v
		}
		return byType()
	}
}

// typePlan makes values from the type of s alone.
func (g *Generator) typePlan(s *openapi3.Schema, t string, hint Hint, depth int) func() any {
	switch t {
	case "object":
		return func() any { return g.object(s, hint, depth) }
	case "array":
		return func() any { return g.array(s, hint, depth) }
	case "integer":
		return func() any { g.spend(8); return g.integer(s) }
	case "number":
		return func() any { g.spend(8); return g.number(s) }
	case "boolean":
		return func() any { g.spend(5); return g.Faker.Bool() }
	case "string":
		return func() any {
			v := g.str(s)
			g.spend(len(v) + 2)
			return v
		}
	}
	if len(s.AllOf) > 0 && s.AllOf[0].Value != nil {
		return g.plan(s.AllOf[0].Value, hint, depth+1)
	}
	return func() any { return g.Faker.Word() }
}

func hasExample(s *openapi3.Schema) bool {
	return len(s.Examples) > 0 || s.Example != nil
}

func (g *Generator) example(s *openapi3.Schema) (any, bool) {
	switch {
	case len(s.Examples) > 0:
		return normalize(s.Examples[g.Faker.IntN(len(s.Examples))]), true
	case s.Example != nil:
		return normalize(s.Example), true
	}
	return nil, false
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
// schema has one: weights in the order of the values.
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
		return normalize(s.Enum[g.Faker.IntN(len(s.Enum))])
	}
	return normalize(s.Enum[Pick(g.Faker.IntN(total), weights)])
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
	if depth >= maxDepth {
		return out
	}
	for _, p := range g.properties(s) {
		if p.Schema.ReadOnly && hint.Property == requestHint {
			continue
		}
		if !p.Required && depth > 2 || g.left <= 0 {
			continue
		}
		g.spend(len(p.Name) + 4)
		out[p.Name] = g.value(p.Schema, Hint{Property: p.Name, Resource: hint.Resource}, depth+1)
	}
	if len(out) == 0 && s.AdditionalProperties.Schema != nil && s.AdditionalProperties.Schema.Value != nil {
		for range 1 + g.Faker.IntN(3) {
			out[g.Faker.Noun()] = g.value(s.AdditionalProperties.Schema.Value, Hint{Resource: hint.Resource}, depth+1)
		}
	}
	if len(out) < int(s.MinProps) {
		g.moreProperties(s, out, hint, depth)
	}
	return out
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
		if _, done := out[p.Name]; !done && !(p.Schema.ReadOnly && hint.Property == requestHint) {
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
		name := g.Faker.Noun()
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

// requestHint marks a value made for a request, whose read-only
// properties are left out.
const requestHint = "\x00request"

// Request makes a value for the body of a request: read-only properties
// are left out, as a client sends none.
func (g *Generator) Request(s *openapi3.Schema, resource string) any {
	g.left = MaxValueBytes
	return g.value(s, Hint{Property: requestHint, Resource: resource}, 0)
}

func (g *Generator) properties(s *openapi3.Schema) []spec.Property {
	if g.Contract != nil {
		return g.Contract.Properties(s)
	}
	return (&spec.Contract{}).Properties(s)
}

func (g *Generator) array(s *openapi3.Schema, hint Hint, depth int) any {
	g.spend(2)
	if depth >= maxDepth {
		// Even a minItems is not met this deep: an array of itself,
		// with a minItems, would not end.
		return []any{}
	}
	lo := int(min(s.MinItems, MaxArrayItems))
	hi := lo + 3
	if s.MaxItems != nil {
		hi = min(hi, int(min(*s.MaxItems, MaxArrayItems)))
	}
	hi = max(hi, lo)
	n := min(max(lo, 1+g.Faker.IntN(3)), hi)
	out := make([]any, 0, n)
	var item *openapi3.Schema
	if s.Items != nil {
		item = s.Items.Value
	}
	elem := Hint{Property: spec.Singular(hint.Property), Resource: hint.Resource}
	for range n {
		if g.left <= 0 {
			break
		}
		g.spend(1)
		out = append(out, g.value(item, elem, depth+1))
	}
	return out
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
		v = g.date().Format(time.RFC3339)
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
			v = g.Faker.Regex(s.Pattern)
		} else {
			v = g.Faker.Word()
		}
	}
	return fitLength(v, s, g.Faker)
}

// date draws a time in the years around 2026, whole seconds, in UTC.
func (g *Generator) date() time.Time {
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	return start.Add(time.Duration(int64(g.Faker.IntN(4*365*24*3600))) * time.Second)
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
