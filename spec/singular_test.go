package spec_test

import (
	"testing"

	"github.com/petstore/contract/spec"
)

// TestSingular: the name of one item of each collection, the plurals of
// English in their common kinds, and names that are singular already or
// the same in both numbers, which stay as they are.
func TestSingular(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"pets", "pet"},
		{"orders", "order"},
		{"categories", "category"},
		{"companies", "company"},
		{"classes", "class"},
		{"addresses", "address"},
		{"boxes", "box"},
		{"taxes", "tax"},
		{"batches", "batch"},
		{"wishes", "wish"},
		{"buzzes", "buzz"},
		{"statuses", "status"},
		{"buses", "bus"},
		{"campuses", "campus"},
		{"houses", "house"},
		{"causes", "cause"},
		{"uses", "use"},
		{"responses", "response"},
		{"cases", "case"},
		{"people", "person"},
		{"children", "child"},
		{"women", "woman"},
		{"quizzes", "quiz"},
		{"movies", "movie"},
		{"caches", "cache"},
		{"menus", "menu"},
		{"wikis", "wiki"},
		{"photos", "photo"},
		{"Pets", "Pet"},
		{"People", "Person"},
		{"CATEGORIES", "CATEGORY"},
		// Singular already, or alike in both numbers.
		{"pet", "pet"},
		{"status", "status"},
		{"class", "class"},
		{"address", "address"},
		{"analysis", "analysis"},
		{"series", "series"},
		{"species", "species"},
		{"news", "news"},
		{"data", "data"},
		{"sheep", "sheep"},
		{"s", "s"},
		{"", ""},
	} {
		if got := spec.Singular(tc.name); got != tc.want {
			t.Errorf("Singular(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
