package spec

import "strings"

// Singular returns the name of one item of a collection, such as "pet" of
// "pets", "category" of "categories", "address" of "addresses", "box" of
// "boxes", "status" of "statuses" and "person" of "people". A name that is
// singular already, or the same in both numbers, such as "status",
// "analysis", "series" or "news", is returned as it is.
//
// Every message about a resource names one of its items by it, in
// petmock, in the suite and in what spec notes of the resources it infers,
// and the values made for the items of an array property take the hint of
// its singular, so that they all name an item alike.
func Singular(name string) string {
	lower := strings.ToLower(name)
	if one, ok := irregularPlurals[lower]; ok {
		if name[:1] != lower[:1] {
			return strings.ToUpper(one[:1]) + one[1:] // People: Person
		}
		return one
	}
	if invariantNouns[lower] {
		return name
	}
	switch {
	case strings.HasSuffix(lower, "ies") && len(lower) > 3:
		y := "y"
		if name[len(name)-1] != lower[len(lower)-1] {
			y = "Y"
		}
		return name[:len(name)-3] + y
	case strings.HasSuffix(lower, "sses"), strings.HasSuffix(lower, "xes"), strings.HasSuffix(lower, "zzes"),
		strings.HasSuffix(lower, "ches"), strings.HasSuffix(lower, "shes"):
		return name[:len(name)-2]
	case strings.HasSuffix(lower, "uses") && len(lower) > 4 && !strings.ContainsRune("aeiou", rune(lower[len(lower)-5])):
		// statuses, buses, campuses; houses and causes drop their s only.
		return name[:len(name)-2]
	case strings.HasSuffix(lower, "ss"), strings.HasSuffix(lower, "us"), strings.HasSuffix(lower, "sis"):
		return name // class, status, analysis: singular already
	case strings.HasSuffix(lower, "s") && len(lower) > 1:
		return name[:len(name)-1]
	}
	return name
}

// irregularPlurals are the plurals of collections that their endings do
// not tell, each with its singular.
var irregularPlurals = map[string]string{
	"people":   "person",
	"children": "child",
	"men":      "man",
	"women":    "woman",
	"mice":     "mouse",
	"geese":    "goose",
	"quizzes":  "quiz",
	"movies":   "movie",
	"cookies":  "cookie",
	"caches":   "cache",
	"menus":    "menu",
}

// invariantNouns are written alike in both numbers.
var invariantNouns = map[string]bool{
	"series":    true,
	"species":   true,
	"news":      true,
	"data":      true,
	"metadata":  true,
	"info":      true,
	"sheep":     true,
	"fish":      true,
	"aircraft":  true,
	"equipment": true,
}
