package fake

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
)

// byName makes a value from what the name of its property says it holds,
// where gofakeit has such values: the name of a pet is a pet name, an
// email an email, a petId the id of a pet. It returns false when the name
// says nothing it knows, or the schema is of another type.
func (g *Generator) byName(s *openapi3.Schema, t string, hint Hint) (any, bool) {
	name := strings.ToLower(hint.Property)
	if name == "" || s.Pattern != "" {
		return nil, false
	}
	f := g.Faker
	switch t {
	case "integer":
		if ref, ok := strings.CutSuffix(name, "id"); ok && ref != "" && hint.Property[len(ref)] == 'I' {
			return g.reference(hint.Property[:len(ref)]), true
		}
		switch name {
		case "quantity", "qty", "count", "age":
			return fits(s, json.Number(strconv.Itoa(1+f.IntN(10))))
		case "year":
			return fits(s, json.Number(strconv.Itoa(2000+f.IntN(27))))
		}
		return nil, false
	case "number":
		switch {
		case strings.Contains(name, "price"), strings.Contains(name, "amount"), strings.Contains(name, "total"), strings.Contains(name, "cost"):
			return fits(s, number(f.Price(1, 500)))
		case name == "latitude" || name == "lat":
			return fits(s, number(f.Latitude()))
		case name == "longitude" || name == "lng" || name == "lon":
			return fits(s, number(f.Longitude()))
		}
		return nil, false
	case "string":
	default:
		return nil, false
	}
	if s.Format != "" && s.Format != "date-time" && s.Format != "date" {
		return nil, false
	}
	var v string
	switch {
	case name == "name":
		v = g.nameOf(hint.Resource)
	case name == "firstname" || name == "givenname":
		v = f.FirstName()
	case name == "lastname" || name == "surname" || name == "familyname":
		v = f.LastName()
	case name == "fullname" || name == "displayname":
		v = f.Name()
	case name == "username" || name == "login":
		v = f.Username()
	case strings.Contains(name, "email"):
		v = f.Email()
	case strings.Contains(name, "phone"):
		v = f.Phone()
	case name == "city":
		v = f.City()
	case name == "country":
		v = f.Country()
	case name == "street" || name == "address":
		v = f.Street()
	case name == "zip" || name == "zipcode" || name == "postcode" || name == "postalcode":
		v = f.Zip()
	case name == "state" && !strings.Contains(hint.Resource, "order"):
		v = f.State()
	case strings.HasSuffix(name, "url") || name == "website" || name == "homepage" || name == "link":
		v = f.URL()
	case name == "company" || name == "organization" || name == "organisation":
		v = f.Company()
	case name == "title":
		v = f.BookTitle()
	case name == "description" || name == "summary" || name == "comment" || name == "note" || name == "notes" || name == "bio":
		v = f.Sentence(8)
	case name == "color" || name == "colour":
		v = f.Color()
	case name == "currency":
		v = f.CurrencyShort()
	case name == "tag" || name == "label" || name == "keyword":
		v = f.Adjective()
	case name == "breed" || name == "species":
		v = f.Animal()
	case strings.HasSuffix(name, "at") && s.Format == "date-time", strings.HasSuffix(name, "date") && s.Format == "date":
		// createdAt, shipDate: a time, in the format the schema asks.
		if s.Format == "date" {
			v = g.date().Format(time.DateOnly)
		} else {
			v = g.date().Format(time.RFC3339)
		}
	default:
		return nil, false
	}
	return fits(s, fitLength(v, s, f))
}

// fits returns v, and whether it fits s: a name gives a value that still
// has to meet the schema's bounds. The common cases are checked here, as
// a catalogue of a million items makes a million such values.
func fits(s *openapi3.Schema, v any) (any, bool) {
	switch v := v.(type) {
	case string:
		if s.Pattern == "" && len(s.Enum) == 0 {
			n := utf8.RuneCountInString(v)
			return v, n >= int(s.MinLength) && (s.MaxLength == nil || n <= int(*s.MaxLength))
		}
	case json.Number:
		if f, err := v.Float64(); err == nil && s.MultipleOf == nil && len(s.Enum) == 0 {
			lo, hi := bounds(s, math.Inf(-1), math.Inf(1))
			return v, f >= lo && f <= hi
		}
	}
	return v, s.VisitJSON(v) == nil
}

// nameOf makes the name of an item of the resource: a pet name for pets,
// a person's name for people, a product's for products.
func (g *Generator) nameOf(resource string) string {
	f := g.Faker
	r := strings.ToLower(resource)
	switch {
	case strings.Contains(r, "pet") || strings.Contains(r, "animal"):
		return f.PetName()
	case isPerson(r):
		return f.Name()
	case strings.Contains(r, "product") || strings.Contains(r, "item") || strings.Contains(r, "article"):
		return f.ProductName()
	case strings.Contains(r, "compan") || strings.Contains(r, "vendor") || strings.Contains(r, "supplier"):
		return f.Company()
	case strings.Contains(r, "categor") || strings.Contains(r, "tag"):
		return f.Noun()
	case strings.Contains(r, "cit") || strings.Contains(r, "store") || strings.Contains(r, "shop"):
		return f.City()
	}
	return f.Name()
}

func isPerson(resource string) bool {
	r := strings.ToLower(resource)
	for _, w := range []string{"user", "owner", "customer", "person", "people", "employee", "member", "author", "staff", "contact"} {
		if strings.Contains(r, w) {
			return true
		}
	}
	return false
}

// reference makes the id of an item of the resource a property such as
// petId names: one that exists, when that resource holds items, and
// otherwise one of Categories.
func (g *Generator) reference(noun string) json.Number {
	if g.Refs != nil {
		for _, name := range []string{noun + "s", noun + "es", noun, strings.TrimSuffix(noun, "y") + "ies"} {
			if n, ok := g.Refs(strings.ToLower(name)); ok && n > 0 {
				return json.Number(strconv.Itoa(1 + g.Faker.IntN(n)))
			}
		}
	}
	return json.Number(strconv.FormatInt(Categories[g.Faker.IntN(len(Categories))], 10))
}
