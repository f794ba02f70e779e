package mockserver

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
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

// authenticate checks the Authorization header of a request against the
// security scheme the document requires. It is the AuthenticationFunc of
// the request validation, so the document decides which operations need a
// key.
func (ring keyring) authenticate(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	scheme := in.SecurityScheme
	if scheme.Type != "http" || !strings.EqualFold(scheme.Scheme, "bearer") {
		return fmt.Errorf("security scheme %s: only http bearer is supported", in.SecuritySchemeName)
	}
	if e := ring.check(in.RequestValidationInput.Request.Header.Values("Authorization")); e != nil {
		return e
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
	return (&Error{Status: http.StatusUnauthorized, Code: CodeUnauthorized, Message: message}).withHeader("WWW-Authenticate", c)
}
