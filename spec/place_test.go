package spec_test

import (
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// TestPlaces: where each scheme's key travels, and the places next to it
// that a key may be sent to by mistake, as a deployment that reads keys
// loosely would take them.
func TestPlaces(t *testing.T) {
	c := schemesDocument(t)
	tests := []struct {
		scheme string
		place  spec.Place
		wrong  string // the names of its wrong places
	}{
		{"bearerAuth", spec.Place{In: spec.InHeader, Name: "Authorization", As: spec.AsBearer},
			"the key as HTTP basic credentials; the bare key in Authorization; the key in the query as access_token"},
		{"oauth", spec.Place{In: spec.InHeader, Name: "Authorization", As: spec.AsBearer},
			"the key as HTTP basic credentials; the bare key in Authorization; the key in the query as access_token"},
		{"oidc", spec.Place{In: spec.InHeader, Name: "Authorization", As: spec.AsBearer},
			"the key as HTTP basic credentials; the bare key in Authorization; the key in the query as access_token"},
		{"basicAuth", spec.Place{In: spec.InHeader, Name: "Authorization", As: spec.AsBasic},
			"the key as a bearer token; the bare key in Authorization"},
		{"headerKey", spec.Place{In: spec.InHeader, Name: "X-API-Key", As: spec.AsKey},
			"the key as a bearer token; the key in the query as X-API-Key"},
		{"queryKey", spec.Place{In: spec.InQuery, Name: "api_key", As: spec.AsKey},
			"the key as a bearer token; the key in the header as api_key"},
		{"cookieKey", spec.Place{In: spec.InCookie, Name: "session", As: spec.AsKey},
			"the key in the header as session; the key in the query as session"},
		{"digest", spec.Place{In: spec.InHeader, Name: "Authorization", As: spec.AsDigest},
			"the key as a bearer token; the key as HTTP basic credentials; the bare key in Authorization"},
		{"negotiate", spec.Place{In: spec.InHeader, Name: "Authorization", As: "Negotiate"},
			"the key as a bearer token; the key as HTTP basic credentials; the bare key in Authorization"},
	}
	for _, tt := range tests {
		s := c.Scheme(tt.scheme)
		if got := s.Place(); got != tt.place {
			t.Errorf("%s: Place() = %+v, want %+v", tt.scheme, got, tt.place)
		}
		var names []string
		for _, w := range s.WrongPlaces() {
			names = append(names, w.Name)
			if w.Same(s.Place()) {
				t.Errorf("%s: wrong place %q is where the scheme puts the key", tt.scheme, w.Name)
			}
		}
		if got := strings.Join(names, "; "); got != tt.wrong {
			t.Errorf("%s: WrongPlaces() = %s, want %s", tt.scheme, got, tt.wrong)
		}
	}
}

// TestPlaceCredential: a key presented at a place is written as the place
// says, and at the place of a scheme as the scheme presents it.
func TestPlaceCredential(t *testing.T) {
	const key = "s3cret-key"
	for _, tt := range []struct {
		place           spec.Place
		in, name, value string
	}{
		{spec.Place{In: spec.InHeader, Name: "Authorization", As: spec.AsBearer}, "header", "Authorization", "Bearer s3cret-key"},
		{spec.Place{In: spec.InHeader, Name: "Authorization", As: spec.AsBasic}, "header", "Authorization", "Basic OnMzY3JldC1rZXk="},
		{spec.Place{In: spec.InHeader, Name: "Authorization", As: spec.AsKey}, "header", "Authorization", key},
		{spec.Place{In: spec.InQuery, Name: "access_token", As: spec.AsKey}, "query", "access_token", key},
		{spec.Place{In: spec.InCookie, Name: "session", As: spec.AsKey}, "cookie", "session", key},
		{spec.Place{In: spec.InHeader, Name: "Authorization", As: "Negotiate"}, "header", "Authorization", "Negotiate s3cret-key"},
		{spec.Place{In: spec.InHeader, Name: "Authorization", As: spec.AsDigest}, "header", "Authorization", "Digest"},
	} {
		if in, name, value := tt.place.Credential(key); in != tt.in || name != tt.name || value != tt.value {
			t.Errorf("%+v: Credential = %s %s %q, want %s %s %q", tt.place, in, name, value, tt.in, tt.name, tt.value)
		}
	}
	c := schemesDocument(t)
	for _, name := range []string{"bearerAuth", "basicAuth", "headerKey", "queryKey", "cookieKey", "oauth", "oidc", "digest", "negotiate"} {
		s := c.Scheme(name)
		in, param, value := s.Credential(key)
		if pin, pparam, pvalue := s.Place().Credential(key); pin != in || pparam != param || pvalue != value {
			t.Errorf("%s: at its place the key is %s %s %q, but the scheme presents %s %s %q", name, pin, pparam, pvalue, in, param, value)
		}
	}
}

// TestPlaceSame: a place is the same whatever the case of its name, and
// another if the key is written otherwise there.
func TestPlaceSame(t *testing.T) {
	auth := spec.Place{In: spec.InHeader, Name: "Authorization", As: spec.AsBearer}
	if !auth.Same(spec.Place{In: spec.InHeader, Name: "authorization", As: spec.AsBearer}) {
		t.Error("Authorization and authorization: not the same place")
	}
	for _, other := range []spec.Place{
		{In: spec.InHeader, Name: "Authorization", As: spec.AsBasic},
		{In: spec.InQuery, Name: "Authorization", As: spec.AsBearer},
		{In: spec.InHeader, Name: "X-API-Key", As: spec.AsBearer},
	} {
		if auth.Same(other) {
			t.Errorf("%+v and %+v: the same place", auth, other)
		}
	}
}
