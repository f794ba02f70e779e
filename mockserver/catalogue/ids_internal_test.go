package catalogue

import (
	"math"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// TestUUIDsReadBack: every id's UUID reads back to it, whatever the case,
// and a UUID petmock did not make, or one of another seed, reads to none.
func TestUUIDsReadBack(t *testing.T) {
	u := newIDUUIDs(1, "things")
	for _, id := range []int64{1, 2, 51, 1 << 40, math.MaxInt64, -7} {
		s := u.text(id)
		if !uuidV4(s) {
			t.Errorf("UUID of %d: %s, not a version 4 UUID", id, s)
		}
		if got, ok := u.parse(s); !ok || got != id {
			t.Errorf("parse(%s) = %d, %v, want %d", s, got, ok, id)
		}
	}
	for _, s := range []string{
		"f47ac10b-58cc-4372-a567-0e02b2c3d479", // not made by petmock
		newIDUUIDs(2, "things").text(1),        // of another seed
		newIDUUIDs(1, "others").text(1),        // of another resource
		"f47ac10b58cc4372a5670e02b2c3d479",     // no hyphens
		u.text(1)[:35] + "g",
	} {
		if id, ok := u.parse(s); ok {
			t.Errorf("parse(%s) = %d, want none", s, id)
		}
	}
}

func uuidV4(s string) bool {
	if len(s) != 36 || s[14] != '4' || (s[19] != '8' && s[19] != '9' && s[19] != 'a' && s[19] != 'b') {
		return false
	}
	for i, r := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if r != '-' {
				return false
			}
		case (r < '0' || r > '9') && (r < 'a' || r > 'f'):
			return false
		}
	}
	return true
}

// TestDigitIDs: digits read back only as they are written, so that "007"
// and "+7" are names rather than another way to say 7.
func TestDigitIDs(t *testing.T) {
	x := ids{kind: idDigits, prefix: "ord-", width: 4}
	if got := x.text(7); got != "ord-0007" {
		t.Errorf("text(7) = %q, want ord-0007", got)
	}
	if got := x.text(123456); got != "ord-123456" {
		t.Errorf("text(123456) = %q, want ord-123456", got)
	}
	for s, want := range map[string]int64{"ord-0007": 7, "ord-123456": 123456} {
		if got, ok := x.parse(s); !ok || got != want {
			t.Errorf("parse(%q) = %d, %v, want %d", s, got, ok, want)
		}
	}
	for _, s := range []string{"ord-7", "ord-+007", "0007", "ord-00007", "ord-abcd"} {
		if id, ok := x.parse(s); ok {
			t.Errorf("parse(%q) = %d, want none", s, id)
		}
	}
}

func TestPatternPrefix(t *testing.T) {
	for pattern, want := range map[string]string{
		`^ord-[0-9]+$`:   "ord-",
		`^PET\d{6}$`:     "PET",
		`[0-9]+`:         "",
		`^(?i)abc[0-9]$`: "",
		`^[a-f0-9]{24}$`: "",
		``:               "",
		`^(`:             "",
	} {
		if got := patternPrefix(pattern); got != want {
			t.Errorf("patternPrefix(%q) = %q, want %q", pattern, got, want)
		}
	}
}

// TestIDsOfASchema: ids are digits, padded or after a prefix where the
// schema asks, UUIDs for format uuid, and made from the schema, as names,
// where no digits match it, with a note that says so.
func TestIDsOfASchema(t *testing.T) {
	str := func(s openapi3.Schema) *openapi3.Schema { s.Type = &openapi3.Types{"string"}; return &s }
	tests := []struct {
		schema *openapi3.Schema
		kind   idKind
		first  string
	}{
		{str(openapi3.Schema{}), idDigits, "1"},
		{str(openapi3.Schema{Pattern: `^pet-[0-9]+$`}), idDigits, "pet-1"},
		{str(openapi3.Schema{Pattern: `^[a-f0-9]{24}$`, MinLength: 24}), idDigits, "000000000000000000000001"},
		{str(openapi3.Schema{Pattern: `^[a-f0-9]{24}$`}), idDigits, "000000000000000000000001"},
		{str(openapi3.Schema{Pattern: `^PO-[0-9]{8}$`}), idDigits, "PO-00000001"},
		{str(openapi3.Schema{Format: "uuid"}), idUUID, newIDUUIDs(DefaultSeed, "things").text(1)},
		{str(openapi3.Schema{Pattern: `^[A-Z]{3}$`}), idMade, ""},
	}
	for _, tt := range tests {
		r := &spec.Resource{Name: "things", IDProperty: "id", IDIsString: true, CreateOp: &spec.Operation{Where: "paths./things.post"},
			Properties: []spec.Property{{Name: "id", Schema: tt.schema}}}
		x, note := newIDs(r, DefaultSeed)
		if x.kind != tt.kind || (note != "") != (tt.kind == idMade) {
			t.Errorf("%s: kind %d, note %q, want kind %d", tt.schema.Pattern, x.kind, note, tt.kind)
			continue
		}
		if tt.kind != idMade {
			if got := x.text(1); got != tt.first {
				t.Errorf("%s: first id %q, want %q", tt.schema.Pattern, got, tt.first)
			}
			continue
		}
		if made := x.made(1, 0); !x.named || tt.schema.VisitJSON(made) != nil || x.made(1, 0) != made || x.made(1, 1) == made {
			t.Errorf("%s: named %v, made %q, %q, want names of the schema, the same for a try, another for the next", tt.schema.Pattern, x.named, made, x.made(1, 1))
		}
	}
}
