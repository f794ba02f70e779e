package fake

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/getkin/kin-openapi/openapi3"
)

// namer makes a value of what a property's name says it holds, and says
// whether it fits the property's schema.
type namer func(g *Generator, s *openapi3.Schema) (any, bool)

// text returns the namer of a string made by make.
func text(make func(g *Generator) string) namer {
	return func(g *Generator, s *openapi3.Schema) (any, bool) {
		v := make(g)
		if s.MinLength == 0 && s.MaxLength == nil && len(s.Enum) == 0 {
			return v, true
		}
		return fits(s, fitLength(v, s, g.Faker))
	}
}

// pickNamer returns the namer of a property, or nil when its name says
// nothing gofakeit has values for.
func pickNamer(hint Hint, t string, s *openapi3.Schema) namer {
	name := strings.ToLower(hint.Property)
	switch t {
	case "integer":
		if ref, ok := strings.CutSuffix(name, "id"); ok && ref != "" && hint.Property[len(ref)] == 'I' {
			noun := hint.Property[:len(ref)]
			return func(g *Generator, s *openapi3.Schema) (any, bool) {
				// The id of an item of the resource named, as an
				// integer: onsched's services refer to their group by an
				// integer serviceGroupId, where the groups' ids are
				// strings of digits. One of no integer does not fit.
				v := g.reference(noun)
				if text, ok := v.(string); ok {
					n, err := strconv.ParseInt(text, 10, 64)
					if err != nil {
						return nil, false
					}
					v = integer(n)
				}
				return fits(s, v)
			}
		}
		switch name {
		case "quantity", "qty", "count", "age":
			return func(g *Generator, s *openapi3.Schema) (any, bool) {
				return fits(s, json.Number(strconv.Itoa(1+g.Faker.IntN(10))))
			}
		case "year":
			return func(g *Generator, s *openapi3.Schema) (any, bool) {
				return fits(s, json.Number(strconv.Itoa(2000+g.Faker.IntN(27))))
			}
		}
		return nil
	case "number":
		var draw func(g *Generator) float64
		switch {
		case strings.Contains(name, "price"), strings.Contains(name, "amount"), strings.Contains(name, "total"), strings.Contains(name, "cost"):
			draw = func(g *Generator) float64 { return g.Faker.Price(1, 500) }
		case name == "latitude" || name == "lat":
			draw = func(g *Generator) float64 { return g.Faker.Latitude() }
		case name == "longitude" || name == "lng" || name == "lon":
			draw = func(g *Generator) float64 { return g.Faker.Longitude() }
		default:
			return nil
		}
		return func(g *Generator, s *openapi3.Schema) (any, bool) { return fits(s, number(draw(g))) }
	case "string":
	default:
		return nil
	}
	switch {
	case s.Format == "date-time" && strings.HasSuffix(name, "at"):
		// createdAt, updatedAt: a time.
		return text(func(g *Generator) string { return g.date().Format(time.RFC3339) })
	case s.Format == "date" && strings.HasSuffix(name, "date"):
		return text(func(g *Generator) string { return g.date().Format(time.DateOnly) })
	case s.Format != "":
		// The format says what the value is, whatever the name: Autotask's
		// bulkEmailOptOutTime is a date-time, not an email.
		return nil
	}
	resource := hint.Resource
	switch {
	case name == "name":
		return text(nameOf(resource))
	case name == "firstname" || name == "givenname":
		return text(func(g *Generator) string { return g.Faker.FirstName() })
	case name == "lastname" || name == "surname" || name == "familyname":
		return text(func(g *Generator) string { return g.Faker.LastName() })
	case name == "fullname" || name == "displayname":
		return text(func(g *Generator) string { return g.Faker.Name() })
	case name == "username" || name == "login":
		return text(func(g *Generator) string { return g.Faker.Username() })
	case strings.Contains(name, "email"):
		return text(func(g *Generator) string { return g.Faker.Email() })
	case strings.Contains(name, "phone"):
		return text(func(g *Generator) string { return g.Faker.Phone() })
	case name == "city":
		return text(func(g *Generator) string { return g.Faker.City() })
	case name == "country":
		return text(func(g *Generator) string { return g.Faker.Country() })
	case name == "street" || name == "address":
		return text(func(g *Generator) string { return g.Faker.Street() })
	case name == "zip" || name == "zipcode" || name == "postcode" || name == "postalcode":
		return text(func(g *Generator) string { return g.Faker.Zip() })
	case name == "state" && !strings.Contains(resource, "order"):
		return text(func(g *Generator) string { return g.Faker.State() })
	case strings.HasSuffix(name, "url") || name == "website" || name == "homepage" || name == "link":
		return text(func(g *Generator) string { return g.Faker.URL() })
	case name == "company" || name == "organization" || name == "organisation":
		return text(func(g *Generator) string { return g.Faker.Company() })
	case name == "title":
		return text(func(g *Generator) string { return g.Faker.BookTitle() })
	case name == "description" || name == "summary" || name == "comment" || name == "note" || name == "notes" || name == "bio":
		return text(func(g *Generator) string { return g.Faker.Sentence(8) })
	case name == "color" || name == "colour":
		return text(func(g *Generator) string { return g.Faker.Color() })
	case name == "currency":
		return text(func(g *Generator) string { return g.Faker.CurrencyShort() })
	case name == "tag" || name == "label" || name == "keyword":
		return text(func(g *Generator) string { return g.Faker.Adjective() })
	case name == "breed" || name == "species":
		return text(func(g *Generator) string { return g.Faker.Animal() })
	}
	return nil
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

// nameOf returns what makes the name of an item of the resource: a pet
// name for pets, a person's name for people, a product's for products.
func nameOf(resource string) func(g *Generator) string {
	r := strings.ToLower(resource)
	switch {
	case strings.Contains(r, "pet") || strings.Contains(r, "animal"):
		return func(g *Generator) string { return g.Faker.PetName() }
	case isPerson(r):
		return func(g *Generator) string { return g.Faker.Name() }
	case strings.Contains(r, "product") || strings.Contains(r, "item") || strings.Contains(r, "article"):
		return func(g *Generator) string { return g.Faker.ProductName() }
	case strings.Contains(r, "compan") || strings.Contains(r, "vendor") || strings.Contains(r, "supplier"):
		return func(g *Generator) string { return g.Faker.Company() }
	case strings.Contains(r, "categor") || strings.Contains(r, "tag"):
		return func(g *Generator) string { return g.Faker.Noun() }
	case strings.Contains(r, "cit") || strings.Contains(r, "store") || strings.Contains(r, "shop"):
		return func(g *Generator) string { return g.Faker.City() }
	}
	return func(g *Generator) string { return g.Faker.Name() }
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
func (g *Generator) reference(noun string) any {
	pick, ok := g.refs[noun]
	if !ok {
		if g.refs == nil {
			g.refs = map[string]func(*gofakeit.Faker) any{}
		}
		if g.Refs != nil {
			for _, name := range ReferredNames(noun) {
				if p, found := g.Refs(name); found {
					pick = p
					break
				}
			}
		}
		g.refs[noun] = pick
	}
	if pick != nil {
		return pick(g.Faker)
	}
	return integer(Categories[g.Faker.IntN(len(Categories))])
}

// ReferredNames returns the names a resource a reference such as petId
// names may go by: pets, petes, pet, and for categoryId categories.
func ReferredNames(noun string) []string {
	noun = strings.ToLower(noun)
	return []string{noun + "s", noun + "es", noun, strings.TrimSuffix(noun, "y") + "ies"}
}

// Integer returns n as a made value, a json.Number.
func Integer(n int64) any { return integer(n) }

// smallIntegers are the integers from 0 to 1023 as values: references and
// counts are mostly small, and a catalogue makes a million of them.
var smallIntegers = func() []any {
	out := make([]any, 1024)
	for i := range out {
		out[i] = json.Number(strconv.Itoa(i))
	}
	return out
}()

// integer returns n as a value, a json.Number.
func integer(n int64) any {
	if n >= 0 && n < int64(len(smallIntegers)) {
		return smallIntegers[n]
	}
	return json.Number(strconv.FormatInt(n, 10))
}
