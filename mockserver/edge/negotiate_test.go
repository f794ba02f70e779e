package edge

import "testing"

// TestNegotiate: the media type an Accept prefers among those offered, by
// RFC 9110's rules: q-values, the most specific range, wildcards, and the
// order offered among equals; none where it takes none.
func TestNegotiate(t *testing.T) {
	offered := []string{"application/json", "application/xml", "application/vnd.pets+json", "text/plain"}
	for _, tt := range []struct {
		accept string
		want   string // "" for none acceptable
	}{
		{"application/xml", "application/xml"},
		{"application/vnd.pets+json", "application/vnd.pets+json"},
		{"text/plain", "text/plain"},
		{"*/*", "application/json"},
		{"application/*", "application/json"},
		{"text/*", "text/plain"},
		{"application/xml;q=0.5, application/json", "application/json"},
		{"application/xml, application/json;q=0.9", "application/xml"},
		{"*/*;q=0.1, application/xml", "application/xml"},
		{"application/*;q=0, application/xml", "application/xml"},
		{"*/*, application/json;q=0", "application/xml"},
		{"image/png", ""},
		{"application/json;q=0", ""},
		{"not a media type", "application/json"}, // taken as absent
		{"APPLICATION/XML", "application/xml"},
	} {
		got, ok := Negotiate([]string{tt.accept}, offered)
		if !ok {
			got = ""
		}
		if got != tt.want {
			t.Errorf("Accept: %s: %q, want %q", tt.accept, got, tt.want)
		}
	}
	// Accept: application/json takes a JSON type of another name, which
	// clients of such APIs send.
	if got, ok := Negotiate([]string{"application/json"}, []string{"application/problem+json", "application/xml"}); !ok || got != "application/problem+json" {
		t.Errorf("application/json, of problem+json and XML: %q %v, want application/problem+json", got, ok)
	}
	// A type of the document with parameters is matched by its type.
	if got, ok := Negotiate([]string{"application/json"}, []string{"application/json;charset=UTF-8"}); !ok || got != "application/json;charset=UTF-8" {
		t.Errorf("application/json of application/json;charset=UTF-8: %q %v", got, ok)
	}
	// A document that answers */* takes any Accept.
	if got, ok := Negotiate([]string{"image/png"}, []string{"*/*"}); !ok || got != "*/*" {
		t.Errorf("image/png of */*: %q %v, want */*", got, ok)
	}
	// Several Accept headers are one list.
	if got, _ := Negotiate([]string{"text/plain;q=0.2", "application/xml"}, offered); got != "application/xml" {
		t.Errorf("two Accept headers: %q, want application/xml", got)
	}
}
