package fake

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Caps finds where schemas ask a Generator for more than it makes (see
// MaxStringLength and the others), and says so once for each schema, at
// the place it is written: a schema a $ref names, at its definition.
type Caps struct {
	// Notes are the lines found, in the order found, such as
	// "paths./x.get.responses.200.content.application/json.schema:
	// minLength 1000000000: generated values are capped at 4096
	// characters; validation keeps the document's value".
	Notes []string

	seen map[*openapi3.Schema]bool
}

// Add looks at the schema ref gives, found at the place where, and at
// every schema below it.
func (c *Caps) Add(where string, ref *openapi3.SchemaRef) {
	if ref == nil || ref.Value == nil {
		return
	}
	if c.seen == nil {
		c.seen = map[*openapi3.Schema]bool{}
	}
	if name, ok := strings.CutPrefix(ref.Ref, "#/"); ok {
		where = strings.ReplaceAll(name, "/", ".")
	}
	if least := (&walk{}).least(ref.Value, 0); least >= MaxValueBytes && !c.seen[ref.Value] {
		c.Notes = append(c.Notes, fmt.Sprintf("%s: its values take more than %d MiB: generated values are capped at that; validation keeps the document's bounds", where, MaxValueBytes>>20))
	}
	c.schema(where, ref.Value)
}

func (c *Caps) schema(where string, s *openapi3.Schema) {
	if c.seen[s] {
		return
	}
	c.seen[s] = true
	note := func(keyword string, value uint64, capped string) {
		c.Notes = append(c.Notes, fmt.Sprintf("%s: %s %d: generated values are capped at %s; validation keeps the document's value", where, keyword, value, capped))
	}
	if s.MinLength > MaxStringLength {
		note("minLength", s.MinLength, strconv.Itoa(MaxStringLength)+" characters")
	}
	if s.MinItems > MaxArrayItems {
		note("minItems", s.MinItems, strconv.Itoa(MaxArrayItems)+" items")
	}
	if s.MinProps > MaxObjectProperties {
		note("minProperties", s.MinProps, strconv.Itoa(MaxObjectProperties)+" properties")
	}
	below := func(key string, ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil {
			return
		}
		at := where + "." + key
		if name, ok := strings.CutPrefix(ref.Ref, "#/"); ok {
			at = strings.ReplaceAll(name, "/", ".")
		}
		c.schema(at, ref.Value)
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		below("properties."+name, s.Properties[name])
	}
	below("items", s.Items)
	below("additionalProperties", s.AdditionalProperties.Schema)
	for _, list := range []struct {
		key  string
		refs openapi3.SchemaRefs
	}{{"allOf", s.AllOf}, {"anyOf", s.AnyOf}, {"oneOf", s.OneOf}} {
		for i, ref := range list.refs {
			below(list.key+"."+strconv.Itoa(i), ref)
		}
	}
}
