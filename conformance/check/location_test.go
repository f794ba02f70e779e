package check

import (
	"net/http"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
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

// profilesAndCards has profiles created without a list, answered with a
// report of their own, as Beanstream's are, and cards below each.
const profilesAndCards = `openapi: 3.0.3
info: {title: Cards, version: 1.0.0}
servers: [{url: https://api.example.com/v1}]
security: [{key: []}]
paths:
  /profiles:
    post:
      operationId: createProfile
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Profile'}}}}
      responses:
        '200': {description: A report., content: {application/json: {schema: {type: object, properties: {code: {type: integer}}}}}}
  /profiles/{profileId}:
    get:
      operationId: getProfile
      parameters: [{name: profileId, in: path, required: true, schema: {type: string}}]
      responses:
        '200': {description: A profile., content: {application/json: {schema: {$ref: '#/components/schemas/Profile'}}}}
  /profiles/{profileId}/cards:
    parameters: [{name: profileId, in: path, required: true, schema: {type: string}}]
    get:
      operationId: listCards
      responses:
        '200': {description: Cards., content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Card'}}}}}
    post:
      operationId: addCard
      requestBody: {required: true, content: {application/json: {schema: {$ref: '#/components/schemas/Card'}}}}
      responses:
        '201': {description: Added., content: {application/json: {schema: {$ref: '#/components/schemas/Card'}}}}
  /profiles/{profileId}/cards/{cardId}:
    parameters:
      - {name: profileId, in: path, required: true, schema: {type: string}}
      - {name: cardId, in: path, required: true, schema: {type: integer}}
    get:
      operationId: getCard
      responses:
        '200': {description: A card., content: {application/json: {schema: {$ref: '#/components/schemas/Card'}}}}
components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-API-Key}
  schemas:
    Profile: {type: object, properties: {id: {type: string, readOnly: true}, name: {type: string}}}
    Card: {type: object, properties: {cardId: {type: integer, readOnly: true}, number: {type: string}}}
`

// TestParentsTheRunCreates: below a resource of no list, as Beanstream's
// cards below a profile, the run creates a profile, known by the Location
// of its create, and asks for cards below it, where a made-up profile id
// had every request of them answered 404, which they do not document.
func TestParentsTheRunCreates(t *testing.T) {
	t.Parallel()
	path := ct.WriteDocument(t, profilesAndCards)
	c := readFile(t, path)
	h := judgeOver(t, ct.PetmockOf(t, path), Settings{Contract: c})
	for _, id := range []string{"listCards", "addCard"} {
		if err := h.CheckValidRequest(checkContext(t), c.Operation(id)); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
	if err := h.CheckItemCreated(checkContext(t), c.Resource("profiles")); err != nil {
		t.Errorf("profiles created, read back by the Location's id: %v", err)
	}
}
