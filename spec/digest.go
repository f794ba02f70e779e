package spec

import (
	"crypto/md5"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"hash"
	"net/http"
	"strings"
)

// HTTP Digest (RFC 7616) is met with the key as the password: a client
// answers petmock's challenge, or any nonce of its own, with the response
// computed from the key, for any username, and petmock computes it again
// from each key it takes. A mock keeps no state of nonces: any nonce is
// taken as given, and the URI is the one the credentials name. The
// challenge offers SHA-256; MD5, the algorithm of RFC 2617, and the -sess
// variants are taken too; qop is auth, or none; auth-int is not taken.

// DigestNonce is the nonce of petmock's challenges.
const DigestNonce = "cGV0bW9jay1kaWdlc3Q"

// digestUser is the username DigestCredentials sends; petmock takes any.
const digestUser = "petmock"

var digestChallenge = `Digest realm="` + Realm + `", qop="auth", algorithm=SHA-256, nonce="` + DigestNonce + `"`

// DigestCredentials returns the Authorization value of HTTP Digest for a
// request of method to uri, such as "/v1/pets?limit=2", with key as the
// password, answering petmock's challenge.
func DigestCredentials(key, method, uri string) string {
	d := Digest{Username: digestUser, Realm: Realm, Nonce: DigestNonce, URI: uri, Algorithm: "SHA-256", QOP: "auth", NC: "00000001", CNonce: "cGV0c3RvcmU"}
	d.Response = d.expected(method, key)
	return `Digest username="` + d.Username + `", realm="` + d.Realm + `", nonce="` + d.Nonce + `", uri="` + d.URI +
		`", algorithm=` + d.Algorithm + `, qop=` + d.QOP + `, nc=` + d.NC + `, cnonce="` + d.CNonce + `", response="` + d.Response + `"`
}

// Digest is the credentials of an Authorization: Digest header.
type Digest struct {
	Username, Realm, Nonce, URI, Algorithm, QOP, NC, CNonce, Response string
}

// ReadDigest returns the Digest credentials r presents, or the
// *CredentialError that says what is wrong with them. It does not say
// whether they answer with a key petmock takes: Verify does.
func (s *Scheme) ReadDigest(r *http.Request) (*Digest, error) {
	values := r.Header.Values("Authorization")
	switch {
	case len(values) == 0 || values[0] == "":
		return nil, s.fail("", "authorization: missing; send Authorization: Digest, answering the challenge with the API key as the password")
	case len(values) > 1:
		return nil, s.fail("", "authorization: sent more than once")
	}
	scheme, rest, _ := strings.Cut(values[0], " ")
	if !strings.EqualFold(scheme, "Digest") {
		return nil, s.fail("", "authorization: scheme must be Digest")
	}
	params, ok := authParams(rest)
	if !ok {
		return nil, s.fail("", "authorization: malformed Digest credentials")
	}
	d := &Digest{Username: params["username"], Realm: params["realm"], Nonce: params["nonce"], URI: params["uri"],
		Algorithm: params["algorithm"], QOP: params["qop"], NC: params["nc"], CNonce: params["cnonce"], Response: params["response"]}
	for name, v := range map[string]string{"username": d.Username, "nonce": d.Nonce, "uri": d.URI, "response": d.Response} {
		if v == "" {
			return nil, s.fail("", "authorization: Digest credentials without "+name)
		}
	}
	if d.hash() == nil {
		return nil, s.fail("", "authorization: Digest algorithm "+d.Algorithm+" is not taken; use SHA-256 or MD5")
	}
	switch d.QOP {
	case "":
	case "auth":
		if d.NC == "" || d.CNonce == "" {
			return nil, s.fail("", "authorization: Digest credentials of qop auth without nc or cnonce")
		}
	default:
		return nil, s.fail("", "authorization: Digest qop "+d.QOP+" is not taken; use auth")
	}
	return d, nil
}

// Verify reports whether d answers a request of method with key as the
// password, in a time that does not depend on where a wrong response
// differs.
func (d *Digest) Verify(method, key string) bool {
	return subtle.ConstantTimeCompare([]byte(d.expected(method, key)), []byte(strings.ToLower(d.Response))) == 1
}

// expected returns the response of d for a request of method, with key as
// the password.
func (d *Digest) expected(method, key string) string {
	if d.hash() == nil {
		return ""
	}
	sum := func(parts ...string) string {
		h := d.hash()
		h.Write([]byte(strings.Join(parts, ":")))
		return hex.EncodeToString(h.Sum(nil))
	}
	ha1 := sum(d.Username, d.Realm, key)
	if strings.HasSuffix(strings.ToLower(d.Algorithm), "-sess") {
		ha1 = sum(ha1, d.Nonce, d.CNonce)
	}
	ha2 := sum(method, d.URI)
	if d.QOP == "" {
		return sum(ha1, d.Nonce, ha2)
	}
	return sum(ha1, d.Nonce, d.NC, d.CNonce, d.QOP, ha2)
}

// hash returns a new hash of d's algorithm, MD5 where it names none, or
// nil for one petmock does not take.
func (d *Digest) hash() hash.Hash {
	switch strings.ToUpper(d.Algorithm) {
	case "", "MD5", "MD5-SESS":
		return md5.New()
	case "SHA-256", "SHA-256-SESS":
		return sha256.New()
	}
	return nil
}

// authParams reads the parameters of credentials, name=value or
// name="quoted value" separated by commas (RFC 9110, section 11.2), with
// lower-case names. ok is false where they do not read.
func authParams(text string) (map[string]string, bool) {
	out := map[string]string{}
	for {
		text = strings.TrimLeft(text, " \t,")
		if text == "" {
			return out, true
		}
		name, rest, found := strings.Cut(text, "=")
		name = strings.ToLower(strings.TrimSpace(name))
		if !found || !isToken(name) {
			return nil, false
		}
		rest = strings.TrimLeft(rest, " \t")
		var value string
		if strings.HasPrefix(rest, `"`) {
			var b strings.Builder
			i := 1
			for ; i < len(rest) && rest[i] != '"'; i++ {
				if rest[i] == '\\' && i+1 < len(rest) {
					i++
				}
				b.WriteByte(rest[i])
			}
			if i >= len(rest) {
				return nil, false // no closing quote
			}
			value, text = b.String(), rest[i+1:]
		} else {
			value, text, _ = strings.Cut(rest, ",")
			value = strings.TrimSpace(value)
		}
		out[name] = value
	}
}
