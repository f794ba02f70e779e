package spec_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/petstore/contract/spec"
)

// TestDigest: a Digest response is verified with the key as the password,
// as RFC 2617 and RFC 7616 compute it, for their own examples; one of
// another key, method or algorithm is not; credentials petmock does not
// take say why.
func TestDigest(t *testing.T) {
	s := schemesDocument(t).Scheme("digest")
	read := func(method, authorization string) (*spec.Digest, error) {
		r := httptest.NewRequest(method, "http://h/dir/index.html", nil)
		r.Header.Set("Authorization", authorization)
		return s.ReadDigest(r)
	}
	for _, tt := range []struct {
		name, method, authorization, password string
		want                                  bool
	}{
		{"RFC 2617's example", "GET", `Digest username="Mufasa", realm="testrealm@host.com", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", uri="/dir/index.html", qop=auth, nc=00000001, cnonce="0a4f113b", response="6629fae49393a05397450978507c4ef1", opaque="5ccc069c403ebaf9f0171e9517f40e41"`, "Circle Of Life", true},
		{"RFC 7616's example, SHA-256", "GET", `Digest username="Mufasa", realm="http-auth@example.org", uri="/dir/index.html", algorithm=SHA-256, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", nc=00000001, cnonce="f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", qop=auth, response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`, "Circle of Life", true},
		{"RFC 7616's example, MD5", "GET", `Digest username="Mufasa", realm="http-auth@example.org", uri="/dir/index.html", algorithm=MD5, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", nc=00000001, cnonce="f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", qop=auth, response="8ca523f5e9506fed4657c9700eebdbec", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`, "Circle of Life", true},
		{"another password", "GET", `Digest username="Mufasa", realm="testrealm@host.com", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", uri="/dir/index.html", qop=auth, nc=00000001, cnonce="0a4f113b", response="6629fae49393a05397450978507c4ef1"`, "Circle Of Death", false},
		{"another method", "POST", `Digest username="Mufasa", realm="testrealm@host.com", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", uri="/dir/index.html", qop=auth, nc=00000001, cnonce="0a4f113b", response="6629fae49393a05397450978507c4ef1"`, "Circle Of Life", false},
		{"petmock's own", "DELETE", spec.DigestCredentials("s3cret", "DELETE", "/v1/pets/1?x=1"), "s3cret", true},
		{"petmock's own, another key", "DELETE", spec.DigestCredentials("s3cret", "DELETE", "/v1/pets/1"), "other", false},
	} {
		d, err := read(tt.method, tt.authorization)
		if err != nil {
			t.Errorf("%s: ReadDigest: %v", tt.name, err)
			continue
		}
		if got := d.Verify(tt.method, tt.password); got != tt.want {
			t.Errorf("%s: Verify = %v, want %v", tt.name, got, tt.want)
		}
	}
	for _, tt := range []struct{ authorization, message string }{
		{"", "authorization: missing; send Authorization: Digest, answering the challenge with the API key as the password"},
		{"Bearer x", "authorization: scheme must be Digest"},
		{`Digest username="a`, "authorization: malformed Digest credentials"},
		{`Digest username="a", nonce="n", uri="/"`, "authorization: Digest credentials without response"},
		{`Digest username="a", nonce="n", uri="/", response="r", algorithm=SHA-512-256`, "authorization: Digest algorithm SHA-512-256 is not taken; use SHA-256 or MD5"},
		{`Digest username="a", nonce="n", uri="/", response="r", qop=auth-int, nc=1, cnonce=c`, "authorization: Digest qop auth-int is not taken; use auth"},
		{`Digest username="a", nonce="n", uri="/", response="r", qop=auth`, "authorization: Digest credentials of qop auth without nc or cnonce"},
	} {
		_, err := read(http.MethodGet, tt.authorization)
		var ce *spec.CredentialError
		if !errors.As(err, &ce) || ce.Message != tt.message || ce.Challenge == "" {
			t.Errorf("%q: ReadDigest = %v, want %q with a challenge", tt.authorization, err, tt.message)
		}
	}
	r := httptest.NewRequest(http.MethodPut, "http://h/v1/pets/7?dry=1", nil)
	s.Present(r, "s3cret")
	if d, err := s.ReadDigest(r); err != nil || !d.Verify(http.MethodPut, "s3cret") {
		t.Errorf("the key presented under Digest does not verify: %v", err)
	}
}
