package mockserver

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3filter"
)

// DefaultAPIKey is the key petmock accepts when no other is configured. It
// is a development key, published in the README, and guards nothing.
const DefaultAPIKey = "petmock-dev-key"

// keyring holds the accepted API keys as SHA-256 sums, so that checking a
// key takes the same time whichever key it is, whether it matches or not,
// and whatever its length.
type keyring [][sha256.Size]byte

func newKeyring(keys []string) (keyring, error) {
	keys = keysOrDefault(keys)
	ring := make(keyring, 0, len(keys))
	for i, k := range keys {
		if k == "" || strings.ContainsAny(k, " \t\r\n") {
			return nil, fmt.Errorf("api key %d: must be non-empty and contain no white space", i+1)
		}
		ring = append(ring, sha256.Sum256([]byte(k)))
	}
	return ring, nil
}

// keysOrDefault returns keys, or DefaultAPIKey when there are none.
func keysOrDefault(keys []string) []string {
	if len(keys) == 0 {
		return []string{DefaultAPIKey}
	}
	return keys
}

func (ring keyring) accepts(key string) bool {
	sum := sha256.Sum256([]byte(key))
	match := 0
	for i := range ring {
		match |= subtle.ConstantTimeCompare(sum[:], ring[i][:])
	}
	return match == 1
}

// challenge is the WWW-Authenticate value of a 401 (RFC 6750).
const challenge = `Bearer realm="petstore"`

// authenticate checks the credentials of a request against one security
// scheme the document requires, with the configured keys. It is the
// AuthenticationFunc of the request validation, so the document decides
// which operations need a key, and how it is sent:
//
//   - http bearer, oauth2 and openIdConnect: Authorization: Bearer <key>;
//   - http basic: Authorization: Basic with the key as the password (or
//     as the user, with no password);
//   - apiKey: the key as the header, query parameter or cookie the scheme
//     names.
func (ring keyring) authenticate(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	scheme := in.SecurityScheme
	req := in.RequestValidationInput.Request
	switch {
	case scheme.Type == "http" && strings.EqualFold(scheme.Scheme, "bearer"), scheme.Type == "oauth2", scheme.Type == "openIdConnect":
		if e := ring.check(req.Header.Values("Authorization")); e != nil {
			return e
		}
		return nil
	case scheme.Type == "http" && strings.EqualFold(scheme.Scheme, "basic"):
		if e := ring.checkBasic(req.Header.Values("Authorization")); e != nil {
			return e
		}
		return nil
	case scheme.Type == "apiKey":
		if e := ring.checkAPIKey(req, scheme.In, scheme.Name); e != nil {
			return e
		}
		return nil
	}
	return unauthorized("", fmt.Sprintf("authorization: security scheme %s (%s %s) is not one petmock checks", in.SecuritySchemeName, scheme.Type, scheme.Scheme))
}

// checkBasic checks an Authorization header of the Basic scheme: the key
// is the password, or the user when there is no password.
func (ring keyring) checkBasic(values []string) *Error {
	const challenge = `Basic realm="petstore"`
	refuse := func(message string) *Error {
		return (&Error{Status: http.StatusUnauthorized, Code: CodeUnauthorized, Message: message}).WithHeader("WWW-Authenticate", challenge)
	}
	if len(values) != 1 {
		return refuse("authorization: missing; send Authorization: Basic with the API key as the password")
	}
	scheme, token, _ := strings.Cut(values[0], " ")
	if !strings.EqualFold(scheme, "Basic") {
		return refuse("authorization: scheme must be Basic")
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(token))
	if err != nil {
		return refuse("authorization: malformed Basic credentials")
	}
	user, password, _ := strings.Cut(string(raw), ":")
	key := password
	if key == "" {
		key = user
	}
	if !ring.accepts(key) {
		return refuse("authorization: unknown API key")
	}
	return nil
}

// checkAPIKey checks a key sent as the header, query parameter or cookie
// name.
func (ring keyring) checkAPIKey(r *http.Request, in, name string) *Error {
	var values []string
	switch in {
	case "header":
		values = r.Header.Values(name)
	case "query":
		values = r.URL.Query()[name]
	case "cookie":
		for _, c := range r.CookiesNamed(name) {
			values = append(values, c.Value)
		}
	}
	refuse := func(message string) *Error {
		return &Error{Status: http.StatusUnauthorized, Code: CodeUnauthorized, Message: message}
	}
	switch {
	case len(values) == 0 || values[0] == "":
		return refuse(fmt.Sprintf("%s: missing; send the API key as the %s %s", strings.ToLower(name), in, name))
	case len(values) > 1:
		return refuse(fmt.Sprintf("%s: sent more than once", strings.ToLower(name)))
	case !ring.accepts(values[0]):
		return refuse(fmt.Sprintf("%s: unknown API key", strings.ToLower(name)))
	}
	return nil
}

// check returns nil if the Authorization header values carry an accepted
// key as a bearer token, and a 401 *Error that says what is wrong if not.
// The key itself never appears in the error.
func (ring keyring) check(values []string) *Error {
	if len(values) == 0 || values[0] == "" {
		return unauthorized("", "authorization: missing; send Authorization: Bearer <API key>")
	}
	if len(values) > 1 {
		return unauthorized("invalid_request", "authorization: sent more than once")
	}
	scheme, token, found := strings.Cut(values[0], " ")
	switch {
	case !found:
		return unauthorized("invalid_request", "authorization: malformed; want Bearer <API key>")
	case !strings.EqualFold(scheme, "Bearer"):
		return unauthorized("invalid_request", "authorization: scheme must be Bearer")
	}
	token = strings.TrimLeft(token, " ")
	if !ring.accepts(token) {
		return unauthorized("invalid_token", "authorization: unknown API key")
	}
	return nil
}

func unauthorized(reason, message string) *Error {
	c := challenge
	if reason != "" {
		c += `, error="` + reason + `"`
	}
	return (&Error{Status: http.StatusUnauthorized, Code: CodeUnauthorized, Message: message}).WithHeader("WWW-Authenticate", c)
}
