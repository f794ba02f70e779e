package shape

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// A Shape writes values of a schema as JSON the one way petmock answers
// with them: an object's members in the order the document gives them,
// members the schema does not declare left out (unless it takes any,
// through additionalProperties, or as a free-form object), integers in plain digits and strings
// escaped as encoding/json escapes them without HTML escaping. Every value
// has one text, so an answer matches the contract byte for byte, and
// what a client created comes back as it would from any other read.
type Shape struct {
	kind    kind
	bits    int      // of an integer: 32 or 64 for its format, 0 for none
	members []member // of an object, in order
	items   *Shape   // of an array
	// extra encodes the members of an object that the schema does not
	// declare: nil drops them.
	extra *Shape
}

type kind uint8

const (
	kindAny kind = iota
	kindObject
	kindArray
	kindString
	kindInteger
	kindNumber
	kindBoolean
)

// member is one declared property of an object.
type member struct {
	name  string
	key   []byte // `"name":`
	shape *Shape
}

// Builder builds the shapes of a contract's schemas, each once, so that a
// schema that refers to itself ends.
type Builder struct {
	contract *spec.Contract
	built    map[*openapi3.Schema]*Shape
}

// NewBuilder returns a Builder of the shapes of c's schemas.
func NewBuilder(c *spec.Contract) *Builder {
	return &Builder{contract: c, built: map[*openapi3.Schema]*Shape{}}
}

// Of returns the shape of s.
func (b *Builder) Of(s *openapi3.Schema) *Shape {
	if s == nil {
		return &Shape{}
	}
	if sh, ok := b.built[s]; ok {
		return sh
	}
	sh := &Shape{}
	b.built[s] = sh
	switch spec.TypeOf(s) {
	case "object":
		b.object(sh, s, b.contract.Properties(s))
	case "array":
		sh.kind = kindArray
		sh.items = &Shape{}
		if s.Items != nil {
			sh.items = b.Of(s.Items.Value)
		}
	case "string":
		sh.kind = kindString
	case "integer":
		sh.kind = kindInteger
		switch s.Format {
		case "int32":
			sh.bits = 32
		case "int64":
			sh.bits = 64
		}
	case "number":
		sh.kind = kindNumber
	case "boolean":
		sh.kind = kindBoolean
	}
	return sh
}

// Item returns the shape of the items of a resource: its properties in
// the resource's order, the id first.
func (b *Builder) Item(r *spec.Resource) *Shape {
	sh := &Shape{}
	b.object(sh, r.Item, r.Properties)
	return sh
}

func (b *Builder) object(sh *Shape, s *openapi3.Schema, props []spec.Property) {
	sh.kind = kindObject
	for _, p := range props {
		key, _ := json.Marshal(p.Name)
		sh.members = append(sh.members, member{name: p.Name, key: append(key, ':'), shape: b.Of(p.Schema)})
	}
	// A member the schema requires but declares nowhere, as Spotify's
	// paging object requires its items, is written as it comes: left out,
	// the value would not match.
	for _, name := range requiredNames(s, 0) {
		if !sh.declares(name) {
			key, _ := json.Marshal(name)
			sh.members = append(sh.members, member{name: name, key: append(key, ':'), shape: &Shape{}})
		}
	}
	// The members of a oneOf's or an anyOf's alternatives, as Intellifi's
	// item has one of location, location_id and location_url, are written
	// as they come: left out, a value would match none of them, or more
	// than one.
	for _, name := range alternativeNames(s) {
		if !sh.declares(name) {
			key, _ := json.Marshal(name)
			sh.members = append(sh.members, member{name: name, key: append(key, ':'), shape: &Shape{}})
		}
	}
	ap := s.AdditionalProperties
	switch {
	case ap.Schema != nil && ap.Schema.Value != nil:
		sh.extra = b.Of(ap.Schema.Value)
	case ap.Has != nil && *ap.Has:
		sh.extra = &Shape{}
	case ap.Has == nil && (len(props) == 0 || int(s.MinProps) > len(props)):
		// A free-form object, or one that must have more members than it
		// declares: its other members are what it holds.
		sh.extra = &Shape{}
	}
}

// AppendJSON appends the text of v, a value decoded with json.Number, to
// dst.
func (sh *Shape) AppendJSON(dst []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...)
	case map[string]any:
		if sh.kind != kindObject {
			return appendAny(dst, v)
		}
		dst = append(dst, '{')
		first := true
		for _, m := range sh.members {
			mv, ok := v[m.name]
			if !ok {
				continue
			}
			if !first {
				dst = append(dst, ',')
			}
			first = false
			dst = append(dst, m.key...)
			dst = m.shape.AppendJSON(dst, mv)
		}
		if sh.extra != nil {
			for _, name := range sortedKeys(v) {
				if sh.declares(name) {
					continue
				}
				if !first {
					dst = append(dst, ',')
				}
				first = false
				dst = append(AppendString(dst, name), ':')
				dst = sh.extra.AppendJSON(dst, v[name])
			}
		}
		return append(dst, '}')
	case []any:
		items := sh.items
		if sh.kind != kindArray || items == nil {
			items = &Shape{}
		}
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = items.AppendJSON(dst, e)
		}
		return append(dst, ']')
	case json.Number:
		return appendNumber(dst, v)
	}
	return appendAny(dst, v)
}

// AppendItem appends the text of an item of a resource, whose shape sh
// is and whose first member is its id: appendID appends the id's JSON
// text, and the other members come from item.
func (sh *Shape) AppendItem(dst []byte, item map[string]any, appendID func(dst []byte) []byte) []byte {
	dst = append(dst, '{')
	dst = append(dst, sh.members[0].key...)
	dst = appendID(dst)
	for _, m := range sh.members[1:] {
		if v, ok := item[m.name]; ok {
			dst = append(dst, ',')
			dst = append(dst, m.key...)
			dst = m.shape.AppendJSON(dst, v)
		}
	}
	return append(dst, '}')
}

// requiredNames returns the names s and its allOf members require.
func requiredNames(s *openapi3.Schema, depth int) []string {
	if s == nil || depth > 32 {
		return nil
	}
	out := slices.Clip(s.Required)
	for _, m := range s.AllOf {
		if m != nil {
			out = append(out, requiredNames(m.Value, depth+1)...)
		}
	}
	return out
}

// alternativeNames returns the names of the properties the members of
// the oneOfs and anyOfs of s and of its allOf members declare, each once,
// in order. Each schema is walked once a kind: a member may refer back to
// its owner, as a discriminator's Cat is an allOf of the Pet whose oneOf
// names it.
func alternativeNames(s *openapi3.Schema) []string {
	type visit struct {
		s   *openapi3.Schema
		alt bool
	}
	seen := map[visit]bool{}
	var names []string
	var walk func(s *openapi3.Schema, alt bool)
	walk = func(s *openapi3.Schema, alt bool) {
		if s == nil || seen[visit{s, alt}] {
			return
		}
		seen[visit{s, alt}] = true
		if alt {
			for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
				if !slices.Contains(names, name) {
					names = append(names, name)
				}
			}
		}
		for _, m := range s.AllOf {
			if m != nil {
				walk(m.Value, alt)
			}
		}
		for _, alts := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf} {
			for _, m := range alts {
				if m != nil {
					walk(m.Value, true)
				}
			}
		}
	}
	walk(s, false)
	return names
}

func (sh *Shape) declares(name string) bool {
	for _, m := range sh.members {
		if m.name == name {
			return true
		}
	}
	return false
}

// appendNumber appends a JSON number: an integer in plain digits, any
// other number as it was written.
func appendNumber(dst []byte, n json.Number) []byte {
	if i, ok := spec.ExactInt64(string(n)); ok {
		return strconv.AppendInt(dst, i, 10)
	}
	return append(dst, n...)
}

// appendAny appends a value of no known shape: objects with their members
// sorted by name.
func appendAny(dst []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...)
	case string:
		return AppendString(dst, v)
	case bool:
		return strconv.AppendBool(dst, v)
	case json.Number:
		return appendNumber(dst, v)
	case float64:
		return strconv.AppendFloat(dst, v, 'g', -1, 64)
	case map[string]any:
		dst = append(dst, '{')
		for i, k := range sortedKeys(v) {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(AppendString(dst, k), ':')
			dst = appendAny(dst, v[k])
		}
		return append(dst, '}')
	case []any:
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendAny(dst, e)
		}
		return append(dst, ']')
	}
	b, _ := json.Marshal(v)
	return append(dst, b...)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// AbsentKey is the filter key of an item that lacks the property: no
// query value is ever this.
const AbsentKey = "\x00absent\x00"

// FilterKey returns the key of a property's value in the index of a
// filter: the text a query parameter gives for that value.
func FilterKey(v any, present bool) string {
	if !present {
		return AbsentKey
	}
	switch v := v.(type) {
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	case json.Number:
		return NumberKey(string(v))
	case nil:
		return "null"
	}
	return string(bytes.TrimSpace(appendAny(nil, v)))
}

// NumberKey returns the one text of a number, so that 1e2, 100 and 100.0
// are the same key.
func NumberKey(s string) string {
	if i, ok := spec.ExactInt64(s); ok {
		return strconv.FormatInt(i, 10)
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return s
}

// IntegerError is an integer of a value that is not exactly an integer of
// the size its schema's format gives.
type IntegerError struct {
	// Field names the integer: a member below the value, such as
	// "categoryId" or "tags.0", or the value itself.
	Field string
	// Bits is the size of its format: 32 or 64.
	Bits int
}

func (e *IntegerError) Error() string {
	return fmt.Sprintf("%s: must be an integer (int%d)", e.Field, e.Bits)
}

// ExactIntegers checks that every integer of v that the shape gives a
// format is exactly an integer of that size: JSON numbers are read as
// float64s by the schema check, which rounds 9223372036854775808 into the
// int64 range. It names the first at fault, under the path where.
func (sh *Shape) ExactIntegers(v any, where string) *IntegerError {
	switch v := v.(type) {
	case json.Number:
		if sh.kind != kindInteger || sh.bits == 0 {
			return nil
		}
		n, ok := spec.ExactInt64(string(v))
		if !ok || sh.bits == 32 && (n < math.MinInt32 || n > math.MaxInt32) {
			return &IntegerError{Field: where, Bits: sh.bits}
		}
	case map[string]any:
		if sh.kind != kindObject {
			return nil
		}
		for _, m := range sh.members {
			if mv, ok := v[m.name]; ok {
				if e := m.shape.ExactIntegers(mv, join(where, m.name)); e != nil {
					return e
				}
			}
		}
		if sh.extra != nil {
			for _, name := range sortedKeys(v) {
				if !sh.declares(name) {
					if e := sh.extra.ExactIntegers(v[name], join(where, name)); e != nil {
						return e
					}
				}
			}
		}
	case []any:
		if sh.kind != kindArray || sh.items == nil {
			return nil
		}
		for i, e := range v {
			if err := sh.items.ExactIntegers(e, join(where, strconv.Itoa(i))); err != nil {
				return err
			}
		}
	}
	return nil
}

// join names a member below where: "categoryId" below the body, and
// "tags.0" below "tags".
func join(where, name string) string {
	if where == "body" || where == "" {
		return name
	}
	return where + "." + name
}
