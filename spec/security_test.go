package spec_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// schemesDocument is the Petstore's document with a scheme of every kind,
// and operations that ask for them in alternatives, or for none.
func schemesDocument(tb testing.TB) *spec.Contract {
	tb.Helper()
	doc := strings.Replace(string(spec.YAML()), "  securitySchemes:\n", `  securitySchemes:
    basicAuth: {type: http, scheme: basic}
    headerKey: {type: apiKey, in: header, name: X-API-Key}
    queryKey: {type: apiKey, in: query, name: api_key}
    cookieKey: {type: apiKey, in: cookie, name: session}
    oauth:
      type: oauth2
      flows: {clientCredentials: {tokenUrl: 'https://auth.example/token', scopes: {read: Read.}}}
    oidc: {type: openIdConnect, openIdConnectUrl: 'https://auth.example/.well-known/openid-configuration'}
    digest: {type: http, scheme: digest}
    negotiate: {type: http, scheme: Negotiate}
`, 1)
	doc = strings.Replace(doc, "paths:\n", `paths:
  /report:
    get:
      operationId: report
      security: [{queryKey: [], headerKey: []}, {basicAuth: []}]
      responses:
        '204': {description: Done.}
  /public:
    get:
      operationId: public
      security: []
      responses:
        '204': {description: Done.}
  /optional:
    get:
      operationId: optional
      security: [{}, {oauth: [read]}]
      responses:
        '204': {description: Done.}
`, 1)
	c, err := spec.Read([]byte(doc))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// TestSchemesResolve: each scheme's kind and where its key goes.
func TestSchemesResolve(t *testing.T) {
	c := schemesDocument(t)
	tests := []struct {
		name      string
		kind      spec.SchemeKind
		in, param string
	}{
		{"bearerAuth", spec.SchemeBearer, spec.InHeader, "Authorization"},
		{"basicAuth", spec.SchemeBasic, spec.InHeader, "Authorization"},
		{"headerKey", spec.SchemeAPIKey, spec.InHeader, "X-API-Key"},
		{"queryKey", spec.SchemeAPIKey, spec.InQuery, "api_key"},
		{"cookieKey", spec.SchemeAPIKey, spec.InCookie, "session"},
		{"oauth", spec.SchemeOAuth2, spec.InHeader, "Authorization"},
		{"oidc", spec.SchemeOpenIDConnect, spec.InHeader, "Authorization"},
		{"digest", spec.SchemeDigest, spec.InHeader, "Authorization"},
		{"negotiate", spec.SchemeHTTP, spec.InHeader, "Authorization"},
	}
	for _, tt := range tests {
		s := c.Scheme(tt.name)
		if s == nil {
			t.Errorf("%s: no such scheme", tt.name)
			continue
		}
		if s.Name != tt.name || s.Kind != tt.kind || s.In != tt.in || s.Param != tt.param || (s.Unsupported != "") != (tt.kind == spec.SchemeUnsupported) {
			t.Errorf("%s: %s in %s %s (unsupported: %q), want %s in %s %s", tt.name, s.Kind, s.In, s.Param, s.Unsupported, tt.kind, tt.in, tt.param)
		}
	}
	if c.Scheme("nope") != nil {
		t.Error("Scheme(nope) is not nil")
	}
}

// TestRequirements: an operation's security, resolved: alternatives of
// schemes, by name within one, none for a public operation, and an empty
// alternative for an optional key.
func TestRequirements(t *testing.T) {
	c := schemesDocument(t)
	describe := func(reqs []spec.Requirement) string {
		var alts []string
		for _, r := range reqs {
			var names []string
			for _, s := range r {
				names = append(names, s.Name)
			}
			alts = append(alts, "["+strings.Join(names, " ")+"]")
		}
		return strings.Join(alts, " or ")
	}
	for id, want := range map[string]string{
		spec.ListPets: "[bearerAuth]",
		spec.GetPet:   "[bearerAuth]",
		"report":      "[headerKey queryKey] or [basicAuth]",
		"public":      "",
		"optional":    "[] or [oauth]",
	} {
		if got := describe(c.Operation(id).Requirements); got != want {
			t.Errorf("%s: requirements %s, want %s", id, got, want)
		}
	}
}

// TestCredentials: how a key is presented under each scheme, and that a
// request it is presented on reads back the same key.
func TestCredentials(t *testing.T) {
	c := schemesDocument(t)
	const key = "s3cret-key"
	tests := []struct {
		scheme          string
		in, name, value string
		header, cookie  string // as the request then carries them
		query           string
	}{
		{"bearerAuth", "header", "Authorization", "Bearer s3cret-key", "Bearer s3cret-key", "", "a=1"},
		{"oauth", "header", "Authorization", "Bearer s3cret-key", "Bearer s3cret-key", "", "a=1"},
		{"oidc", "header", "Authorization", "Bearer s3cret-key", "Bearer s3cret-key", "", "a=1"},
		{"negotiate", "header", "Authorization", "Negotiate s3cret-key", "Negotiate s3cret-key", "", "a=1"},
		{"basicAuth", "header", "Authorization", "Basic OnMzY3JldC1rZXk=", "Basic OnMzY3JldC1rZXk=", "", "a=1"},
		{"headerKey", "header", "X-API-Key", key, "", "", "a=1"},
		{"queryKey", "query", "api_key", key, "", "", "a=1&api_key=s3cret-key"},
		{"cookieKey", "cookie", "session", key, "", "other=1; session=s3cret-key", "a=1"},
	}
	for _, tt := range tests {
		s := c.Scheme(tt.scheme)
		in, name, value := s.Credential(key)
		if in != tt.in || name != tt.name || value != tt.value {
			t.Errorf("%s: Credential = %s %s %q, want %s %s %q", tt.scheme, in, name, value, tt.in, tt.name, tt.value)
		}
		r := httptest.NewRequest(http.MethodGet, "http://h/v1/report?a=1&api_key=old", nil)
		r.Header.Set("Cookie", "session=old; other=1")
		s.Present(r, key)
		if got := r.Header.Get("Authorization"); got != tt.header {
			t.Errorf("%s: Authorization %q, want %q", tt.scheme, got, tt.header)
		}
		if tt.scheme == "headerKey" && r.Header.Get("X-API-Key") != key {
			t.Errorf("%s: X-API-Key %q, want the key", tt.scheme, r.Header.Get("X-API-Key"))
		}
		if tt.cookie != "" && r.Header.Get("Cookie") != tt.cookie {
			t.Errorf("%s: Cookie %q, want %q", tt.scheme, r.Header.Get("Cookie"), tt.cookie)
		}
		if tt.scheme == "queryKey" && r.URL.RawQuery != tt.query {
			t.Errorf("%s: query %q, want %q", tt.scheme, r.URL.RawQuery, tt.query)
		}
		if got, err := s.Read(r); err != nil || got != key {
			t.Errorf("%s: Read of the presented key = %q, %v; want the key", tt.scheme, got, err)
		}
	}
}

// TestReadSaysWhatIsWrong: each way a credential is missing or malformed
// gives its message, word for word, and the scheme's challenge.
func TestReadSaysWhatIsWrong(t *testing.T) {
	c := schemesDocument(t)
	bearer := `Bearer realm="petstore"`
	digestChallenge := `Digest realm="petstore", qop="auth", algorithm=SHA-256, nonce="` + spec.DigestNonce + `"`
	tests := []struct {
		scheme    string
		headers   []string // name, value pairs
		query     string
		key       string // read when the error is ""
		message   string
		challenge string
	}{
		{"bearerAuth", nil, "", "", "authorization: missing; send Authorization: Bearer <API key>", bearer},
		{"bearerAuth", []string{"Authorization", ""}, "", "", "authorization: missing; send Authorization: Bearer <API key>", bearer},
		{"bearerAuth", []string{"Authorization", "Bearer a", "Authorization", "Bearer b"}, "", "", "authorization: sent more than once", bearer + `, error="invalid_request"`},
		{"bearerAuth", []string{"Authorization", "k3y"}, "", "", "authorization: malformed; want Bearer <API key>", bearer + `, error="invalid_request"`},
		{"bearerAuth", []string{"Authorization", "Basic k3y"}, "", "", "authorization: scheme must be Bearer", bearer + `, error="invalid_request"`},
		{"bearerAuth", []string{"Authorization", "bearer   k3y"}, "", "k3y", "", ""},
		{"bearerAuth", []string{"Authorization", "Bearer "}, "", "", "", ""},
		{"oauth", nil, "", "", "authorization: missing; send Authorization: Bearer <API key>", bearer},
		{"oidc", []string{"Authorization", "Token k3y"}, "", "", "authorization: scheme must be Bearer", bearer + `, error="invalid_request"`},
		{"basicAuth", nil, "", "", "authorization: missing; send Authorization: Basic with the API key as the password", `Basic realm="petstore"`},
		{"basicAuth", []string{"Authorization", "Basic a", "Authorization", "Basic b"}, "", "", "authorization: missing; send Authorization: Basic with the API key as the password", `Basic realm="petstore"`},
		{"basicAuth", []string{"Authorization", "Bearer k3y"}, "", "", "authorization: scheme must be Basic", `Basic realm="petstore"`},
		{"basicAuth", []string{"Authorization", "Basic !!"}, "", "", "authorization: malformed Basic credentials", `Basic realm="petstore"`},
		{"basicAuth", []string{"Authorization", "Basic dXNlcjpzM2NyZXQ="}, "", "s3cret", "", ""}, // user:s3cret
		{"basicAuth", []string{"Authorization", "Basic czNjcmV0"}, "", "s3cret", "", ""},         // s3cret, no password
		{"headerKey", nil, "", "", "x-api-key: missing; send the API key as the header X-API-Key", ""},
		{"headerKey", []string{"X-API-Key", ""}, "", "", "x-api-key: missing; send the API key as the header X-API-Key", ""},
		{"headerKey", []string{"X-API-Key", "a", "X-API-Key", "b"}, "", "", "x-api-key: sent more than once", ""},
		{"queryKey", nil, "api_key=", "", "api_key: missing; send the API key as the query api_key", ""},
		{"queryKey", nil, "api_key=a&api_key=b", "", "api_key: sent more than once", ""},
		{"cookieKey", []string{"Cookie", "other=1"}, "", "", "session: missing; send the API key as the cookie session", ""},
		{"cookieKey", []string{"Cookie", "session=a; session=b"}, "", "", "session: sent more than once", ""},
		{"negotiate", nil, "", "", "authorization: missing; send Authorization: Negotiate <API key>", `Negotiate realm="petstore"`},
		{"negotiate", []string{"Authorization", "Bearer k3y"}, "", "", "authorization: scheme must be Negotiate", `Negotiate realm="petstore"`},
		{"negotiate", []string{"Authorization", "negotiate k3y"}, "", "k3y", "", ""},
		{"digest", []string{"Authorization", "Digest x"}, "", "", "authorization: a Digest response holds no key; it is checked against the keys as a whole", digestChallenge},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(http.MethodGet, "http://h/v1/report?"+tt.query, nil)
		for i := 0; i+1 < len(tt.headers); i += 2 {
			r.Header.Add(tt.headers[i], tt.headers[i+1])
		}
		key, err := c.Scheme(tt.scheme).Read(r)
		if tt.message == "" {
			if err != nil || key != tt.key {
				t.Errorf("%s %v %s: Read = %q, %v; want %q", tt.scheme, tt.headers, tt.query, key, err, tt.key)
			}
			continue
		}
		var ce *spec.CredentialError
		if !errors.As(err, &ce) || ce.Message != tt.message || ce.Challenge != tt.challenge || key != "" {
			t.Errorf("%s %v %s: Read = %q, %v (challenge %q); want %q, challenge %q", tt.scheme, tt.headers, tt.query, key, err, challengeOf(err), tt.message, tt.challenge)
		}
	}
}

func challengeOf(err error) string {
	var ce *spec.CredentialError
	if errors.As(err, &ce) {
		return ce.Challenge
	}
	return ""
}

// TestRefused: a key sent as the scheme asks but not accepted.
func TestRefused(t *testing.T) {
	c := schemesDocument(t)
	for scheme, want := range map[string]spec.CredentialError{
		"bearerAuth": {Message: "authorization: unknown API key", Challenge: `Bearer realm="petstore", error="invalid_token"`},
		"oauth":      {Message: "authorization: unknown API key", Challenge: `Bearer realm="petstore", error="invalid_token"`},
		"basicAuth":  {Message: "authorization: unknown API key", Challenge: `Basic realm="petstore"`},
		"headerKey":  {Message: "x-api-key: unknown API key"},
		"cookieKey":  {Message: "session: unknown API key"},
	} {
		if got := *c.Scheme(scheme).Refused(); got != want {
			t.Errorf("%s: Refused() = %+v, want %+v", scheme, got, want)
		}
	}
}

// ExampleScheme presents a key as a document's scheme asks, and reads it
// back as a server would, or says what is wrong.
func ExampleScheme() {
	doc := strings.Replace(string(spec.YAML()), "      type: http\n      scheme: bearer\n", "      type: apiKey\n      in: header\n      name: X-API-Key\n", 1)
	c, err := spec.Read([]byte(doc))
	if err != nil {
		panic(err)
	}
	s := c.Operation(spec.ListPets).Requirements[0][0]
	fmt.Println(s.Name, s.Kind, s.In, s.Param)

	r := httptest.NewRequest(http.MethodGet, "http://h/v1/pets", nil)
	s.Present(r, "s3cret")
	fmt.Println(s.Read(r))

	_, err = s.Read(httptest.NewRequest(http.MethodGet, "http://h/v1/pets", nil))
	fmt.Println(err)
	// Output:
	// bearerAuth apiKey header X-API-Key
	// s3cret <nil>
	// x-api-key: missing; send the API key as the header X-API-Key
}

// TestFirstScheme: the scheme a client presents its key under first is
// the first of the document's security, else of the first operation that
// asks for a key, else none.
func TestFirstScheme(t *testing.T) {
	if s := schemesDocument(t).FirstScheme(); s == nil || s.Kind != spec.SchemeBearer {
		t.Errorf("the Petstore's with more schemes: %v, want its bearer scheme", s)
	}
	noDefault := func(security string) *spec.Contract {
		c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: t, version: '1'}
paths:
  /a: {get: {operationId: a, security: [], responses: {'204': {description: Done.}}}}
  /b: {get: {operationId: b, ` + security + `responses: {'204': {description: Done.}}}}
components:
  securitySchemes:
    headerKey: {type: apiKey, in: header, name: X-API-Key}
`))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if s := noDefault("security: [{headerKey: []}], ").FirstScheme(); s == nil || s.Kind != spec.SchemeAPIKey || s.Param != "X-API-Key" {
		t.Errorf("a document whose second operation asks for X-API-Key: %v, want that scheme", s)
	}
	if s := noDefault("").FirstScheme(); s != nil {
		t.Errorf("a document that asks for no key: %v, want none", s)
	}
}
