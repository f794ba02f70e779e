package journal

import (
	"slices"
	"strings"
	"testing"
)

func TestSecretNames(t *testing.T) {
	for _, name := range []string{
		"X-Auth-Token", "X-CSRF-Token", "X-XSRF-TOKEN", "session", "sessionId", "SESSIONID", "password", "Passwd", "new_password",
		"passwordConfirm", "token", "access_token", "accessToken", "refreshToken", "id_token", "client_secret", "clientSecret", "secrets",
		"api_key", "apiKey", "APIKey", "apikey", "X-Api-Key", "privateKey", "keys", "auth", "Auth", "OAuth", "authorization",
		"credentials", "credential", "Cookie", "Set-Cookie", "X-Session", "jwt", "pwd", "otp", "pin",
	} {
		if !secretName(name) {
			t.Errorf("secretName(%q) = false, want true", name)
		}
	}
	for _, name := range []string{
		"name", "categoryId", "status", "limit", "cursor", "Content-Type", "Accept", "monkey", "turkey", "author", "authors",
		"keyboard", "hockey", "passenger", "tokenizer", "X-Request-Id", "Location", "Link", "id", "Prefer", "secretary", "spinner",
	} {
		if secretName(name) {
			t.Errorf("secretName(%q) = true, want false", name)
		}
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
	} {
		var found []string
		got := string(hideJSONMembers([]byte(tt.in), &found))
		if got != tt.want {
			t.Errorf("hideJSONMembers(%s) =\n  %s\nwant\n  %s", tt.in, got, tt.want)
		}
		if tt.found != nil && !slices.Equal(found, tt.found) {
			t.Errorf("hideJSONMembers(%s) found %q, want %q", tt.in, found, tt.found)
		}
	}
}

func TestHideParams(t *testing.T) {
	s := &Secrets{params: map[string]bool{"ticket": true}}
	var found []string
	got := s.hideParams("limit=2&session=abc%20d&ticket=t1&pass%77ord=p&x=1&token", &found)
	if want := "limit=2&session=[redacted]&ticket=[redacted]&pass%77ord=[redacted]&x=1&token"; got != want {
		t.Errorf("hideParams = %q, want %q", got, want)
	}
	if !slices.Contains(found, "abc d") || !slices.Contains(found, "t1") || strings.Contains(strings.Join(found, ","), "limit") {
		t.Errorf("found %q", found)
	}
}
