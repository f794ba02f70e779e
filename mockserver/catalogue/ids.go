package catalogue

import (
	"fmt"
	"regexp/syntax"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// A store orders and finds items by int64 ids, given in order. Clients
// know an item by the id its id property holds: that int64 itself, for
// integer ids; for string ids, a text the int64 is written as and read
// back from with no index (its digits, or a UUID of it), so that a
// resource of string ids costs the store no more than one of integers.
// An id the resource did not write, such as a fixture's own UUID or the
// user name a client sends, is a name of the store's (see store.Entry).

// idKind is how a resource writes the ids it gives.
type idKind int

const (
	idInteger idKind = iota // a JSON integer, the int64 itself
	idDigits                // the int64's digits, after a prefix, padded with zeros to a width
	idUUID                  // a UUID of the int64 (see idUUIDs)
	idMade                  // a string made from the schema of the id, kept as a name
)

// ids is how a resource writes the ids of its items and reads them back.
type ids struct {
	kind idKind
	// prefix and width are those of idDigits: "ord-" and 6 write 42 as
	// "ord-000042".
	prefix string
	width  int
	uuids  idUUIDs
	// named says that the ids of the resource are names of its store:
	// its create sends them, or they are made, so that none reads back
	// to an int64.
	named bool
	// schema is the schema of the id property; seed and resource seed
	// the ids made from it.
	schema *openapi3.Schema
	// param is the schema of the item path's parameter of the id, which
	// the ids written must match too; nil when the document gives none.
	param    *openapi3.Schema
	seed     uint64
	resource string
}

// maxIDWidth is the widest an id of padded digits is tried at.
const maxIDWidth = 40

// maxIDTries bounds the ids made for one new item, when a client took the
// ones before.
const maxIDTries = 8

// newIDs returns how r writes its ids, the UUIDs and made ids drawn from
// seed, and a note when the document's schema of them is one petmock
// cannot write ids in order by.
func newIDs(r *spec.Resource, seed uint64) (ids, string) {
	if !r.IDIsString {
		return ids{kind: idInteger}, ""
	}
	s := r.Properties[0].Schema
	x := ids{schema: s, seed: seed, resource: r.Name, named: r.IDSent, param: idParamSchema(r)}
	if s.Format == "uuid" {
		x.kind, x.uuids = idUUID, newIDUUIDs(seed, r.Name)
		if x.fits() {
			return x, ""
		}
	}
	x.kind, x.prefix = idDigits, patternPrefix(s.Pattern)
	if s.Pattern == "" && x.param != nil {
		x.prefix = patternPrefix(x.param.Pattern)
	}
	x.width = max(0, int(s.MinLength)-len(x.prefix))
	if x.fits() {
		return x, ""
	}
	// A pattern of a fixed length, such as ^[a-f0-9]{24}$, takes digits
	// padded to it.
	for x.width = len(strconv.Itoa(DefaultMaxItems + 1)); x.width <= maxIDWidth; x.width++ {
		if x.fits() {
			return x, ""
		}
	}
	x.kind, x.prefix, x.width, x.named = idMade, "", 0, true
	return x, fmt.Sprintf("%s: ids of the schema of %s are not ones petmock writes in order, so a new %s gets one made from the schema at random",
		r.CreateOp.Where, r.IDProperty, spec.Singular(r.Name))
}

// fits reports whether the ids x writes, up to the largest a store holds,
// match the schema of the id.
func (x ids) fits() bool {
	for _, id := range []int64{1, 42, 1_000_000, DefaultMaxItems + 1} {
		if x.schema.VisitJSON(x.text(id)) != nil || x.param != nil && x.param.VisitJSON(x.text(id)) != nil {
			return false
		}
	}
	return true
}

// idParamSchema returns the schema of the item path's parameter of the
// id of r, of a string, or nil.
func idParamSchema(r *spec.Resource) *openapi3.Schema {
	for _, op := range []*spec.Operation{r.Read, r.Replace, r.Update, r.Delete} {
		if op == nil || r.ByBody(op) {
			continue
		}
		if p := op.Parameter("path", r.IDParam); p != nil && p.Schema != nil && p.Schema.Value != nil && spec.TypeOf(p.Schema.Value) == "string" {
			return p.Schema.Value
		}
	}
	return nil
}

// patternPrefix returns the text a pattern's matches all begin with, such
// as "ord-" of ^ord-[0-9]+$, or "".
func patternPrefix(pattern string) string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil || pattern == "" {
		return ""
	}
	re = re.Simplify()
	parts := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		parts = re.Sub
	}
	var b strings.Builder
	for i, p := range parts {
		switch {
		case i == 0 && (p.Op == syntax.OpBeginText || p.Op == syntax.OpBeginLine):
		case p.Op == syntax.OpLiteral && p.Flags&syntax.FoldCase == 0:
			b.WriteString(string(p.Rune))
		default:
			if i == 0 {
				return "" // unanchored: a match may begin anywhere
			}
			return b.String()
		}
	}
	return b.String()
}

// text returns the id of the int64 id as clients know it, for an id the
// resource writes: digits or a UUID. An integer id's is its digits.
func (x ids) text(id int64) string {
	switch x.kind {
	case idUUID:
		return x.uuids.text(id)
	case idDigits:
		digits := strconv.FormatInt(id, 10)
		if pad := x.width - len(digits); pad > 0 && id >= 0 {
			digits = strings.Repeat("0", pad) + digits
		}
		return x.prefix + digits
	}
	return strconv.FormatInt(id, 10)
}

// parse returns the int64 whose id text s is, when the resource wrote it;
// false for any other text, which may be a name.
func (x ids) parse(s string) (int64, bool) {
	switch {
	case x.named:
		return 0, false
	case x.kind == idUUID:
		return x.uuids.parse(s)
	}
	rest, ok := strings.CutPrefix(s, x.prefix)
	if !ok {
		return 0, false
	}
	id, err := strconv.ParseInt(rest, 10, 64)
	if err != nil || x.text(id) != s {
		return 0, false
	}
	return id, true
}

// made returns the name a new item of id takes at its try'th attempt, of
// a resource whose ids are named: the id it would write at the first,
// and one made from the schema after, or when it writes none.
func (x ids) made(id int64, try int) string {
	if try == 0 && x.kind != idMade {
		return x.text(id)
	}
	if try >= maxIDTries/2 {
		// What the schema makes is taken: its one example, such as
		// LaunchDarkly's key of a project ("new-project"), is all the
		// generator makes of many schemas. The id written, or it with
		// the try, is taken by no other item, where the schema takes it.
		s := x.text(id)
		if try > maxIDTries/2 {
			s += "-" + strconv.Itoa(try)
		}
		if x.schema.VisitJSON(s) == nil && (x.param == nil || x.param.VisitJSON(s) == nil) {
			return s
		}
	}
	gen := &fake.Generator{Faker: fake.NewFaker(x.seed ^ hashString(x.resource) ^ splitmix(uint64(id)) ^ uint64(try)<<56)}
	schema := x.schema
	if schema.Pattern == "" && x.param != nil && x.param.Pattern != "" {
		// The path's parameter says more of the ids than the property.
		schema = x.param
	}
	if v, err := gen.Valid(schema, fake.Hint{Resource: x.resource}); err == nil {
		if s, ok := v.(string); ok && s != "" {
			return s
		}
	}
	// No string made matched: the schema asks for more than the
	// generator follows. Digits do, for an id nothing checks.
	if try == 0 {
		return strconv.FormatInt(id, 10)
	}
	return strconv.FormatInt(id, 10) + "-" + strconv.Itoa(try)
}

// appendJSON appends the id of the int64 id as JSON: a number, or the
// text as a string.
func (x ids) appendJSON(dst []byte, id int64) []byte {
	if x.kind == idInteger {
		return strconv.AppendInt(dst, id, 10)
	}
	return shape.AppendString(dst, x.text(id))
}
