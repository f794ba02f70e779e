package check

import (
	"net/http"
	"testing"

	"github.com/petstore/contract/conformance/judge"
)

// TestLocation: a Location names the item created when its path ends in
// the item's path, whatever host and base path come before it; one that
// names another item or the collection breaks the rule.
func TestLocation(t *testing.T) {
	h := testHarness(t, Settings{BaseURL: "https://petstore.example/v1", APIKey: "k"}, 1)
	pets := h.contract.Pets
	for _, tc := range []struct {
		location string
		ok       bool
	}{
		{"", true},
		{"/v1/pets/51", true},
		{"https://petstore.example/v1/pets/51", true},
		{"https://public.petstore.example/api/v1/pets/51", true},
		{"/v1/pets/51/", true},
		{"51", false}, // relative to /v1/pets: /v1/51
		{"pets/51", true},
		{"/v1/pets/52", false},
		{"/v1/pets/510", false},
		{"/v1/pets", false},
		{"/v1/xpets/51", false},
	} {
		x := &judge.Exchange{URL: "https://petstore.example/v1/pets", Status: http.StatusCreated, Header: http.Header{}}
		if tc.location != "" {
			x.Header.Set("Location", tc.location)
		}
		err := h.checkLocation(x, pets, nil, "51", judge.RuleCreateLocation)
		if (err == nil) != tc.ok {
			t.Errorf("Location %q of pet 51: %v, want ok %v", tc.location, err, tc.ok)
		}
	}
}
