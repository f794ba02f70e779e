package check

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// schemesContract is the Petstore's document with operations whose keys
// go as an API key in a header, the query or a cookie, as HTTP basic
// credentials, as two of these at once, not at all, or optionally, and
// one whose query takes an access_token of its own.
func schemesContract(tb testing.TB) *spec.Contract {
	tb.Helper()
	doc := strings.Replace(string(spec.YAML()), "  securitySchemes:\n", `  securitySchemes:
    basicAuth: {type: http, scheme: basic}
    headerKey: {type: apiKey, in: header, name: X-API-Key}
    queryKey: {type: apiKey, in: query, name: api_key}
    cookieKey: {type: apiKey, in: cookie, name: session}
`, 1)
	doc = strings.Replace(doc, "paths:\n", `paths:
  /header:
    get: {operationId: header, security: [{headerKey: []}], responses: {'204': {description: Done.}}}
  /query:
    get: {operationId: query, security: [{queryKey: []}], responses: {'204': {description: Done.}}}
  /cookie:
    get: {operationId: cookie, security: [{cookieKey: []}], responses: {'204': {description: Done.}}}
  /basic:
    get: {operationId: basic, security: [{basicAuth: []}], responses: {'204': {description: Done.}}}
  /both:
    get: {operationId: both, security: [{queryKey: [], headerKey: []}, {basicAuth: []}], responses: {'204': {description: Done.}}}
  /public:
    get: {operationId: public, security: [], responses: {'204': {description: Done.}}}
  /tokened:
    get: {operationId: tokened, parameters: [{name: access_token, in: query, schema: {type: string}}], responses: {'204': {description: Done.}}}
  /maybe:
    get: {operationId: maybe, security: [{}, {headerKey: []}], responses: {'204': {description: Done.}, '401': {description: Refused., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}}}
`, 1)
	c, err := spec.Read([]byte(doc))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// TestCredentials: a request of the generic checks carries the key as the
// operation's first security requirement asks, every scheme of it, with
// the run's key in place as keyVar; a public operation carries none. A
// check that sends no key, or another, sends nothing of the run's key.
func TestCredentials(t *testing.T) {
	c := schemesContract(t)
	h := testHarness(t, Settings{BaseURL: "http://h/v1", APIKey: "k", Contract: c}, 1)
	tests := []struct {
		op, key       string
		authorization string
		apiKey        string // X-API-Key
		cookie        string
		query         string
		basicKey      bool
	}{
		{spec.ListPets, judge.KeyVar, "Bearer " + judge.KeyVar, "", "", "limit=5", false},
		{"header", judge.KeyVar, "", judge.KeyVar, "", "limit=5", false},
		{"query", judge.KeyVar, "", "", "", "api_key=" + url.QueryEscape(judge.KeyVar) + "&limit=5", false},
		{"cookie", judge.KeyVar, "", "", "session=" + judge.KeyVar, "limit=5", false},
		{"basic", judge.KeyVar, "", "", "", "limit=5", true},
		{"basic", "other", "Basic Om90aGVy", "", "", "limit=5", false}, // base64 of ":other"
		{"both", judge.KeyVar, "", judge.KeyVar, "", "api_key=" + url.QueryEscape(judge.KeyVar) + "&limit=5", false},
		{"header", "", "", "", "", "limit=5", false},
		{"header", "other", "", "other", "", "limit=5", false},
		{"query", "", "", "", "", "limit=5", false},
		{"query", "other", "", "", "", "api_key=other&limit=5", false},
		{"cookie", "", "", "", "", "limit=5", false},
		{"basic", "", "", "", "", "limit=5", false},
		{"both", "", "", "", "", "limit=5", false},
		{spec.ListPets, "", "", "", "", "limit=5", false},
		{"public", judge.KeyVar, "", "", "", "limit=5", false},
	}
	for _, tt := range tests {
		op := c.Operation(tt.op)
		r := h.OpRequest(op, nil, url.Values{"limit": {"5"}}, nil, h.Credentials(op, tt.key))
		if got := [3]string{r.Header.Get("Authorization"), r.Header.Get("X-API-Key"), r.Header.Get("Cookie")}; got != [3]string{tt.authorization, tt.apiKey, tt.cookie} || r.Query != tt.query || (r.Basic != nil) != tt.basicKey {
			t.Errorf("%s with key %q: Authorization %q, X-API-Key %q, Cookie %q, query %q, basic %v; want %q, %q, %q, %q, %v",
				tt.op, tt.key, got[0], got[1], got[2], r.Query, r.Basic != nil, tt.authorization, tt.apiKey, tt.cookie, tt.query, tt.basicKey)
		}
	}
	// The path of a generic request is expanded from its template, escaped.
	if r := h.OpRequest(c.Operation(spec.GetPet), map[string]string{"petId": "a b/c"}, nil, nil); r.Path != "/pets/a%20b%2Fc" {
		t.Errorf("getPet of petId %q: path %q, want /pets/a%%20b%%2Fc", "a b/c", r.Path)
	}
}

// TestBasicKeyOnTheWire: the run's key sent as HTTP basic credentials is
// encoded on the wire only; the exchange shows where it went, not what it
// is.
func TestBasicKeyOnTheWire(t *testing.T) {
	c := schemesContract(t)
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Get("Authorization")
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	h := testHarness(t, Settings{BaseURL: srv.URL + "/v1", APIKey: "s3cret", Contract: c}, 1)
	x, err := h.Send(context.Background(), h.OpRequest(c.Operation("basic"), nil, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if got != "Basic OnMzY3JldA==" { // base64 of ":s3cret"
		t.Errorf("Authorization on the wire %q, want Basic OnMzY3JldA==", got)
	}
	if shown := x.RequestHeader.Get("Authorization"); shown != "Basic <base64 of :"+judge.KeyVar+">" || strings.Contains(shown, "s3cret") {
		t.Errorf("Authorization shown %q, want the key's place only", shown)
	}
}
