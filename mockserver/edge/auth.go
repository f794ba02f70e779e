package edge

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net/http"
	"strings"

	"github.com/petstore/contract/spec"
)

// Keyring holds the accepted API keys as SHA-256 sums, so that checking a
// key takes the same time whichever key it is, whether it matches or not,
// and whatever its length.
type Keyring [][sha256.Size]byte

// NewKeyring returns the ring of keys, each of which must be non-empty
// and free of white space.
func NewKeyring(keys []string) (Keyring, error) {
	ring := make(Keyring, 0, len(keys))
	for i, k := range keys {
		if k == "" || strings.ContainsAny(k, " \t\r\n") {
			return nil, fmt.Errorf("api key %d: must be non-empty and contain no white space", i+1)
		}
		ring = append(ring, sha256.Sum256([]byte(k)))
	}
	return ring, nil
}

// Accepts reports whether key is one of the ring's.
func (ring Keyring) Accepts(key string) bool {
	sum := sha256.Sum256([]byte(key))
	match := 0
	for i := range ring {
		match |= subtle.ConstantTimeCompare(sum[:], ring[i][:])
	}
	return match == 1
}

// Authenticate checks the key of a request against the security op
// requires, as spec resolves it: the request passes when it meets every
// scheme of one of the requirements, each with a key the ring accepts.
// The refusal says what is wrong with the first requirement: the first of
// its schemes, by name, that the request does not meet. It is a 401, or a
// 403 where the operation documents 403 and not 401 (spec's KeyRefusal).
func (g *Gate) Authenticate(r *http.Request, op *Operation) error {
	var refusal error
	for i, req := range op.Spec.Requirements {
		err := g.keys.meets(r, req)
		if err == nil {
			return nil
		}
		if i == 0 {
			refusal = err
		}
	}
	if refusal == nil {
		return nil // the operation asks for no key
	}
	return KeyRefused(op.Spec, refusal)
}

// meets returns nil when r presents a key the ring accepts under every
// scheme of req, and otherwise the error of the first scheme it does not.
// The key itself never appears in the error.
func (ring Keyring) meets(r *http.Request, req spec.Requirement) error {
	for _, scheme := range req {
		key, err := scheme.Read(r)
		if err == nil && !ring.Accepts(key) {
			err = scheme.Refused()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// KeyRefused is the refusal of a request of op whose credential a scheme
// refused with err: a 401 with the scheme's challenge where it has one,
// or the 403 op documents instead (spec's KeyRefusal), which asks for no
// challenge.
func KeyRefused(op *spec.Operation, err error) *Error {
	if op != nil && op.KeyRefusal() == http.StatusForbidden {
		return &Error{Status: http.StatusForbidden, Code: CodeForbidden, Message: err.Error()}
	}
	return unauthorized(err)
}

// unauthorized is the 401 of a credential a scheme refused, with the
// scheme's challenge where it has one.
func unauthorized(err error) *Error {
	e := &Error{Status: http.StatusUnauthorized, Code: CodeUnauthorized, Message: err.Error()}
	// Read and Refused return a *spec.CredentialError itself, never
	// wrapped: a type assertion finds it without the allocation of
	// errors.As.
	if ce, ok := err.(*spec.CredentialError); ok && ce.Challenge != "" {
		e.WithHeader("WWW-Authenticate", ce.Challenge)
	}
	return e
}

// Challenge is the WWW-Authenticate value of a 401 forced on op: that of
// the first scheme its security asks for, or, where it asks for none, of
// a bearer token, the Petstore's own kind of key; "" for an apiKey,
// whose 401s have none.
func Challenge(op *spec.Operation) string {
	for _, req := range op.Requirements {
		for _, scheme := range req {
			return scheme.Challenge("")
		}
	}
	return (&spec.Scheme{Kind: spec.SchemeBearer}).Challenge("")
}
