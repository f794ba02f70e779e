package journal

import (
	"slices"
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

func TestSecretNames(t *testing.T) {
	for _, name := range []string{
		"X-Auth-Token", "X-CSRF-Token", "X-XSRF-TOKEN", "session", "sessionId", "SESSIONID", "password", "Passwd", "new_password",
		"passwordConfirm", "token", "access_token", "accessToken", "refreshToken", "id_token", "client_secret", "clientSecret", "secrets",
		"api_key", "apiKey", "APIKey", "apikey", "X-Api-Key", "privateKey", "keys", "auth", "Auth", "OAuth", "authorization",
		"credentials", "credential", "Cookie", "Set-Cookie", "X-Session", "jwt", "pwd", "otp", "pin",
		"JSESSIONID", "jsessionid", "PHPSESSID", "ASPSESSIONID", "ASP.NET_SessionId", "sid", "connect.sid", "sessid", "X-Sessid",
		"cvv", "CVV2", "cvc", "card_cvc", "passcode", "userPasscode", "refresh", "refresh_token", "refreshToken", "client_assertion",
	} {
		if !secretName(name) {
			t.Errorf("secretName(%q) = false, want true", name)
		}
	}
	for _, name := range []string{
		"name", "categoryId", "status", "limit", "cursor", "Content-Type", "Accept", "monkey", "turkey", "author", "authors",
		"keyboard", "hockey", "passenger", "tokenizer", "X-Request-Id", "Location", "Link", "id", "Prefer", "secretary", "spinner",
		"code", "errorCode", "postalCode", "refreshInterval", "refreshed", "side", "inside", "sidebar", "consider",
	} {
		if secretName(name) {
			t.Errorf("secretName(%q) = true, want false", name)
		}
	}
}

// TestParamSecrets: OAuth's code is a secret as a query parameter or a
// form field, where a JSON member named code is an error's.
func TestParamSecrets(t *testing.T) {
	s := &Secrets{}
	if !s.param("code") || !s.param("Code") || s.member("code") || s.header("Code") {
		t.Errorf("code: param %v, member %v, header %v; want a secret as a parameter only", s.param("code"), s.member("code"), s.header("Code"))
	}
}

func TestWords(t *testing.T) {
	for name, want := range map[string][]string{
		"X-CSRF-Token": {"x", "csrf", "token"},
		"accessToken":  {"access", "token"},
		"APIKey":       {"api", "key"},
		"api_key2":     {"api", "key2"},
		"sessionID":    {"session", "id"},
		"":             nil,
	} {
		if got := words(name); !slices.Equal(got, want) {
			t.Errorf("words(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestHideJSONMembers hides members at any depth, of any type, in text
// that may be cut short or be no JSON at all.
func TestHideJSONMembers(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		found    []string
	}{
		{`{"user":{"name":"ann","password":"hunter22"}}`, `{"user":{"name":"ann","password":"[redacted]"}}`, []string{"hunter22"}},
		{`[{"token": "a\"b"}, {"pin": 1234}]`, `[{"token": "[redacted]"}, {"pin": "[redacted]"}]`, []string{`a"b`, "1234"}},
		{`{"auth":{"user":"u","pass":"p"},"name":"Rex"}`, `{"auth":"[redacted]","name":"Rex"}`, nil},
		{`{"name":"password","status":"token"}`, `{"name":"password","status":"token"}`, nil},
		{`{"a":["password","x"],"b":{"c":[{"secret":"s1s2s3"}]}}`, `{"a":["password","x"],"b":{"c":[{"secret":"[redacted]"}]}}`, []string{"s1s2s3"}},
		{`{"session":"abcdef`, `{"session":"[redacted]"`, []string{"abcdef"}},
		{`{"session":`, `{"session":`, nil},
		{`{"pass\u0077ord":"xyz1"}`, `{"pass\u0077ord":"[redacted]"}`, []string{"xyz1"}},
		{`not json, password=1`, `not json, password=1`, nil},
		{`{"token"  :  null , "n":1}`, `{"token"  :  "[redacted]" , "n":1}`, []string{""}},
		{`{"access":"a1","refresh":"r1","code":"not_found"}`, `{"access":"a1","refresh":"[redacted]","code":"not_found"}`, []string{"r1"}},
		{`{"card":{"cvv":123,"number":"4111"}}`, `{"card":{"cvv":"[redacted]","number":"4111"}}`, []string{"123"}},
	} {
		var found []string
		got := string(hideJSONMembers([]byte(tt.in), (&Secrets{}).member, &found))
		if got != tt.want {
			t.Errorf("hideJSONMembers(%s) =\n  %s\nwant\n  %s", tt.in, got, tt.want)
		}
		if tt.found != nil && !slices.Equal(found, tt.found) {
			t.Errorf("hideJSONMembers(%s) found %q, want %q", tt.in, found, tt.found)
		}
	}
}

func TestHideParams(t *testing.T) {
	s := &Secrets{marked: map[string]bool{"ticket": true}}
	var found []string
	got := s.hideParams("limit=2&session=abc%20d&ticket=t1&pass%77ord=p&x=1&token", &found)
	if want := "limit=2&session=[redacted]&ticket=[redacted]&pass%77ord=[redacted]&x=1&token"; got != want {
		t.Errorf("hideParams = %q, want %q", got, want)
	}
	if !slices.Contains(found, "abc d") || !slices.Contains(found, "t1") || strings.Contains(strings.Join(found, ","), "limit") {
		t.Errorf("found %q", found)
	}
}

// TestHidePath hides the values of secret path parameters, those after a
// semicolon in a segment, as servlet containers put the session id in a
// URL; the rest of the path stays as it was.
func TestHidePath(t *testing.T) {
	s := &Secrets{}
	for _, tt := range []struct{ in, want, found string }{
		{"/v1/pets;jsessionid=A1B2C3", "/v1/pets;jsessionid=[redacted]", "A1B2C3"},
		{"/v1/pets;JSESSIONID=A%20B/7", "/v1/pets;JSESSIONID=[redacted]/7", "A B"},
		{"/v1/cart;color=red;sid=s1s2/x", "/v1/cart;color=red;sid=[redacted]/x", "s1s2"},
		{"/v1/pets/7", "/v1/pets/7", ""},
		{"/v1/pets;limit=2", "/v1/pets;limit=2", ""},
	} {
		var found []string
		if got := s.hidePath(tt.in, &found); got != tt.want {
			t.Errorf("hidePath(%s) = %s, want %s", tt.in, got, tt.want)
		}
		if tt.found != "" && !slices.Contains(found, tt.found) {
			t.Errorf("hidePath(%s) found %q, want %q among them", tt.in, found, tt.found)
		}
	}
}

// TestMarkedByTheDocument: the properties a document marks writeOnly or
// of format password, at any depth and in any composition, and the
// parameters of format password, are secrets by their names; a schema
// that holds itself is walked once.
func TestMarkedByTheDocument(t *testing.T) {
	c, err := spec.Read([]byte(`openapi: 3.0.3
info: {title: Marks, version: 1.0.0}
paths:
  /accounts:
    post:
      operationId: createAccount
      parameters:
        - {name: X-Unlock, in: header, schema: {type: string, format: password}}
        - {name: pass_phrase_q, in: query, schema: {type: string, format: password}}
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                name: {type: string}
                recovery: {type: string, writeOnly: true}
                nested:
                  type: array
                  items:
                    allOf:
                      - {$ref: '#/components/schemas/Node'}
                      - {type: object, properties: {memorable: {type: string, format: password}}}
      responses:
        '201': {description: Made.}
components:
  schemas:
    Node:
      type: object
      properties:
        child: {$ref: '#/components/schemas/Node'}
        ssn: {type: string, writeOnly: true}
        label: {type: string}
`))
	if err != nil {
		t.Fatal(err)
	}
	s := NewSecrets(c)
	for _, name := range []string{"recovery", "memorable", "ssn", "X-Unlock", "x-unlock", "pass_phrase_q"} {
		if !s.member(name) || !s.param(name) || !s.header(name) {
			t.Errorf("%s: not a secret, which the document marks", name)
		}
	}
	for _, name := range []string{"name", "label", "child", "nested"} {
		if s.member(name) {
			t.Errorf("%s: a secret, which the document does not mark", name)
		}
	}
}
