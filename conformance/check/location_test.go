package check

import (
	"net/http"
	"testing"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// TestIDInLocation: the id of an item created is read from the Location
// that names it, absolute or relative, below the collection it was made
// in; a Location of another path, or below another parent, names none.
func TestIDInLocation(t *testing.T) {
	c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Cards, version: 1.0.0}
paths:
  /profiles/{profileId}/cards:
    post:
      parameters: [{name: profileId, in: path, required: true, schema: {type: string}}]
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Card'}}}}
      responses:
        '200': {description: A report., content: {application/json: {schema: {type: object, properties: {code: {type: integer}}}}}}
  /profiles/{profileId}/cards/{cardId}:
    get:
      parameters:
        - {name: profileId, in: path, required: true, schema: {type: string}}
        - {name: cardId, in: path, required: true, schema: {type: string}}
      responses:
        '200': {description: A card., content: {application/json: {schema: {$ref: '#/components/schemas/Card'}}}}
components:
  schemas:
    Card: {type: object, properties: {cardId: {type: string}, number: {type: string}}}
`))
	if err != nil {
		t.Fatal(err)
	}
	res := c.Resource("cards")
	if res == nil {
		t.Fatal("no resource cards")
	}
	params := map[string]string{"profileId": "p1"}
	for _, tt := range []struct{ location, want string }{
		{"https://api.example/v1/profiles/p1/cards/c%2F7", "c/7"},
		{"/v1/profiles/p1/cards/c8", "c8"},
		{"cards/c9", "c9"}, // relative to the collection's URL
		{"/v1/profiles/p2/cards/c8", ""},
		{"/v1/reports/r1", ""},
		{"", ""},
	} {
		x := &judge.Exchange{URL: "https://api.example/v1/profiles/p1/cards", Header: http.Header{}}
		if tt.location != "" {
			x.Header.Set("Location", tt.location)
		}
		if got := idInLocation(x, res, params); got != tt.want {
			t.Errorf("Location %q: id %q, want %q", tt.location, got, tt.want)
		}
	}
}
