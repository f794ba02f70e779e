package edge

import (
	"crypto/subtle"
	"fmt"
	"hash/maphash"
	"net/http"
	"slices"
	"strings"

	"github.com/petstore/contract/spec"
)

// Keyring holds the accepted API keys as 64-bit sums under a seed made at
// random for the process and never shown, so that checking a key takes the
// same time whichever key it is, whether it matches or not, and whatever
// its length: the sent key's sum is compared with every key's, in constant
// time, and its text only with the key whose sum it shares, which a key of
// another text does one time in 2^64. A SHA-256 sum did the same at ten
// times the cost of the sum, on every request. The keys are kept as they
// are too, for HTTP Digest, whose response is computed again from each.
type Keyring []ringKey

// ringKey is one key of a Keyring.
type ringKey struct {
	sum  uint64
	text string
}

// keySeed seeds the sums of a Keyring.
var keySeed = maphash.MakeSeed()

// NewKeyring returns the ring of keys, each of which must be non-empty
// and free of white space.
func NewKeyring(keys []string) (Keyring, error) {
	ring := make(Keyring, 0, len(keys))
	for i, k := range keys {
		if k == "" || strings.ContainsAny(k, " \t\r\n") {
			return nil, fmt.Errorf("api key %d: must be non-empty and contain no white space", i+1)
		}
		ring = append(ring, ringKey{sum: maphash.String(keySeed, k), text: k})
	}
	return ring, nil
}

// Accepts reports whether key is one of the ring's.
func (ring Keyring) Accepts(key string) bool {
	sum := maphash.String(keySeed, key)
	match := 0
	for i := range ring {
		if sameSum(sum, ring[i].sum) == 1 {
			match |= subtle.ConstantTimeCompare([]byte(key), []byte(ring[i].text))
		}
	}
	return match == 1
}

// sameSum returns 1 where a and b are equal, 0 else, in a time that does
// not depend on them.
func sameSum(a, b uint64) int {
	x := a ^ b
	return int(((x | -x) >> 63) ^ 1)
}

// acceptsDigest reports whether d answers a request of method with one of
// the ring's keys as the password, trying every key whatever the first
// gives.
func (ring Keyring) acceptsDigest(d *spec.Digest, method string) bool {
	match := false
	for i := range ring {
		match = d.Verify(method, ring[i].text) || match
	}
	return match
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
		if err := ring.admits(r, scheme); err != nil {
			return err
		}
	}
	return nil
}

// admits returns nil when r meets scheme with a key of the ring: its key,
// or a Digest response computed from it; every request meets a scheme
// petmock cannot check (mutualTLS).
func (ring Keyring) admits(r *http.Request, scheme *spec.Scheme) error {
	switch scheme.Kind {
	case spec.SchemeMutualTLS:
		return nil
	case spec.SchemeDigest:
		d, err := scheme.ReadDigest(r)
		if err != nil {
			return err
		}
		if !ring.acceptsDigest(d, r.Method) {
			return scheme.Refused()
		}
		return nil
	}
	key, err := scheme.Read(r)
	if err == nil && !ring.Accepts(key) {
		err = scheme.Refused()
	}
	return err
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

// SchemeNotes says, for a start-up log, how petmock takes the key under
// each scheme of c that a client could not guess: HTTP Digest, another
// http scheme than basic and bearer, and mutualTLS, naming the operations
// that every request reaches for it.
func SchemeNotes(c *spec.Contract) []string {
	var notes []string
	for _, s := range c.Schemes() {
		where := "components.securitySchemes." + s.Name
		switch s.Kind {
		case spec.SchemeDigest:
			notes = append(notes, where+": HTTP Digest is met with the API key as the password (RFC 7616): a Digest response for any username, computed with petmock's nonce or any other, SHA-256 or MD5, qop auth or none; its challenge offers SHA-256")
		case spec.SchemeHTTP:
			notes = append(notes, fmt.Sprintf("%s: HTTP %s is one petmock cannot play out: it takes the API key as its credentials, Authorization: %s <API key>", where, s.Def.Scheme, s.Def.Scheme))
		case spec.SchemeMutualTLS:
			var open []string
			for _, op := range c.Operations {
				if slices.ContainsFunc(op.Requirements, func(req spec.Requirement) bool {
					return slices.ContainsFunc(req, func(o *spec.Scheme) bool { return o == s }) &&
						!slices.ContainsFunc(req, func(o *spec.Scheme) bool { return !o.Unchecked() })
				}) {
					open = append(open, op.ID)
				}
			}
			note := where + ": mutualTLS asks for a client certificate, which petmock, serving plain HTTP, never sees: every request meets it"
			if len(open) > 0 {
				note += fmt.Sprintf(", so these operations answer without a key: %s", strings.Join(open, ", "))
			}
			notes = append(notes, note)
		}
	}
	return notes
}
