package spec

import (
	"encoding/base64"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// SchemeKind is what a security scheme asks a client to send.
type SchemeKind int

// Kinds of security schemes. OAuth2 and OpenID Connect are sent as a
// bearer token: petmock and the suite hold a key, not a flow.
const (
	SchemeUnsupported   SchemeKind = iota // Scheme.Unsupported says why
	SchemeBearer                          // http bearer: Authorization: Bearer <key>
	SchemeBasic                           // http basic: the key as the password
	SchemeAPIKey                          // apiKey: the key as a header, query parameter or cookie
	SchemeOAuth2                          // oauth2: a bearer token
	SchemeOpenIDConnect                   // openIdConnect: a bearer token
	SchemeDigest                          // http digest: a Digest response with the key as the password (digest.go)
	SchemeHTTP                            // another http scheme, such as negotiate: Authorization: <scheme> <key>
	SchemeMutualTLS                       // mutualTLS: a client certificate, which no request over plain HTTP has
)

var schemeKindNames = [...]string{"unsupported", "bearer", "basic", "apiKey", "oauth2", "openIdConnect", "digest", "http", "mutualTLS"}

func (k SchemeKind) String() string { return schemeKindNames[k] }

// Places where a credential travels, as an apiKey scheme names them.
const (
	InHeader = "header"
	InQuery  = "query"
	InCookie = "cookie"
)

// Realm is the realm of the challenges of a 401.
const Realm = "petstore"

// Scheme is a security scheme of the document, resolved: what it asks
// for, and where the key goes.
type Scheme struct {
	// Name is the scheme's name under components.securitySchemes.
	Name string
	Kind SchemeKind
	// In is where the key travels: InHeader, InQuery or InCookie.
	In string
	// Param names the header, query parameter or cookie that carries the
	// key: Authorization, but for an apiKey scheme.
	Param string
	// Unsupported says why a scheme cannot be met with a key: of
	// SchemeUnsupported, and of SchemeMutualTLS, which every request
	// meets (Unchecked); "" for the others.
	Unsupported string
	// Def is the scheme as the document gives it.
	Def *openapi3.SecurityScheme
}

// Requirement is one alternative of the security of an operation: a
// request meets it when it meets every scheme of it. An empty Requirement
// is met by any request: the key is then optional.
type Requirement []*Scheme

// readScheme resolves the scheme of the document called name.
func readScheme(name string, def *openapi3.SecurityScheme) *Scheme {
	s := &Scheme{Name: name, Def: def, In: InHeader, Param: "Authorization"}
	switch {
	case def.Type == "http" && strings.EqualFold(def.Scheme, "bearer"):
		s.Kind = SchemeBearer
	case def.Type == "http" && strings.EqualFold(def.Scheme, "basic"):
		s.Kind = SchemeBasic
	case def.Type == "oauth2":
		s.Kind = SchemeOAuth2
	case def.Type == "openIdConnect":
		s.Kind = SchemeOpenIDConnect
	case def.Type == "apiKey" && slices.Contains([]string{InHeader, InQuery, InCookie}, def.In) && def.Name != "":
		s.Kind, s.In, s.Param = SchemeAPIKey, def.In, def.Name
	case def.Type == "http" && strings.EqualFold(def.Scheme, "digest"):
		s.Kind = SchemeDigest
	case def.Type == "http" && isToken(def.Scheme):
		// Negotiate, Mutual, HOBA...: petmock cannot play them out, and
		// takes the key as their credentials instead.
		s.Kind = SchemeHTTP
	case def.Type == "mutualTLS":
		s.Kind = SchemeMutualTLS
		s.Unsupported = fmt.Sprintf("security scheme %s (mutualTLS) asks for a client certificate, which petmock, serving plain HTTP, never sees: every request meets it", name)
	default:
		s.Unsupported = fmt.Sprintf("security scheme %s (%s %s) is not one petmock checks", name, def.Type, def.Scheme)
	}
	return s
}

// readSchemes resolves the security schemes of the document, by name.
func readSchemes(doc *openapi3.T) map[string]*Scheme {
	out := map[string]*Scheme{}
	if doc.Components == nil {
		return out
	}
	for name, ref := range doc.Components.SecuritySchemes {
		if ref != nil && ref.Value != nil {
			out[name] = readScheme(name, ref.Value)
		}
	}
	return out
}

// AsksForKey reports whether a request of o without a key is refused:
// its security has alternatives, and each names a scheme a key meets, so
// that neither an empty one nor one of schemes every request meets
// (Scheme.Unchecked) lets it through.
func (o *Operation) AsksForKey() bool {
	for _, req := range o.Requirements {
		if !slices.ContainsFunc(req, func(s *Scheme) bool { return !s.Unchecked() }) {
			return false
		}
	}
	return len(o.Requirements) > 0
}

// KeyRefusal is the status a request of o without a valid key is answered
// with: 403 where o documents 403 and not 401, as Box's operations do, for
// a client follows the document; 401, as HTTP asks, where it documents
// neither, or 401.
func (o *Operation) KeyRefusal() int {
	if slices.Contains(o.Statuses, http.StatusForbidden) && !slices.Contains(o.Statuses, http.StatusUnauthorized) {
		return http.StatusForbidden
	}
	return http.StatusUnauthorized
}

// Schemes returns the security schemes of the document, by name.
func (c *Contract) Schemes() []*Scheme {
	out := make([]*Scheme, 0, len(c.schemes))
	for _, name := range slices.Sorted(maps.Keys(c.schemes)) {
		out = append(out, c.schemes[name])
	}
	return out
}

// FirstScheme returns the scheme a client of the document presents its
// key under first: the first of the first security requirement of the
// document, or else of the first operation that has one; nil when no
// operation asks for a key.
func (c *Contract) FirstScheme() *Scheme {
	if reqs := requirements(c.schemes, c.Doc.Security); len(reqs) > 0 && len(reqs[0]) > 0 {
		return reqs[0][0]
	}
	for _, op := range c.Operations {
		if len(op.Requirements) > 0 && len(op.Requirements[0]) > 0 {
			return op.Requirements[0][0]
		}
	}
	return nil
}

// requirements resolves security requirements, each one's schemes in the
// order of their names. The document is validated, so every name is a
// scheme of it; were one not, it would be unsupported, never left out.
func requirements(schemes map[string]*Scheme, security openapi3.SecurityRequirements) []Requirement {
	out := make([]Requirement, 0, len(security))
	for _, sr := range security {
		names := make([]string, 0, len(sr))
		for name := range sr {
			names = append(names, name)
		}
		slices.Sort(names)
		req := make(Requirement, 0, len(names))
		for _, name := range names {
			s := schemes[name]
			if s == nil {
				s = readScheme(name, &openapi3.SecurityScheme{})
			}
			req = append(req, s)
		}
		out = append(out, req)
	}
	return out
}

// bearer reports whether the key goes as a bearer token.
func (s *Scheme) bearer() bool {
	return s.Kind == SchemeBearer || s.Kind == SchemeOAuth2 || s.Kind == SchemeOpenIDConnect
}

// field names the scheme's credential in messages: "authorization", or
// the apiKey's name in lower case, such as "x-api-key".
func (s *Scheme) field() string { return strings.ToLower(s.Param) }

// Credential returns how key is presented under the scheme: where it
// travels, under which name, and the value sent, such as "header",
// "Authorization", "Bearer <key>". An unsupported scheme gets a bearer
// token, the Petstore's own kind of credential. Digest credentials are
// made for each request, from its method and URI (Present, and
// DigestCredentials): of Digest, the value is the scheme's name alone,
// which no request is met with.
func (s *Scheme) Credential(key string) (in, name, value string) {
	switch s.Kind {
	case SchemeBasic:
		return InHeader, "Authorization", "Basic " + base64.StdEncoding.EncodeToString([]byte(":"+key))
	case SchemeAPIKey:
		return s.In, s.Param, key
	case SchemeDigest:
		return InHeader, "Authorization", "Digest"
	case SchemeHTTP:
		return InHeader, "Authorization", s.Def.Scheme + " " + key
	}
	return InHeader, "Authorization", "Bearer " + key
}

// Present sets key on r as the scheme asks, replacing any credential of
// the same name r has: Digest credentials are made for r's method and
// URI, as they are.
func (s *Scheme) Present(r *http.Request, key string) {
	s.Withdraw(r)
	if s.Kind == SchemeDigest {
		r.Header.Set("Authorization", DigestCredentials(key, r.Method, r.URL.RequestURI()))
		return
	}
	in, name, value := s.Credential(key)
	switch in {
	case InQuery:
		q := r.URL.Query()
		q.Set(name, value)
		r.URL.RawQuery = q.Encode()
	case InCookie:
		r.AddCookie(&http.Cookie{Name: name, Value: value})
	default:
		r.Header.Set(name, value)
	}
}

// Withdraw takes the scheme's credential out of r, wherever it travels.
func (s *Scheme) Withdraw(r *http.Request) {
	in, name, _ := s.Credential("")
	switch in {
	case InQuery:
		q := r.URL.Query()
		if q.Has(name) {
			q.Del(name)
			r.URL.RawQuery = q.Encode()
		}
	case InCookie:
		var kept []string
		for _, c := range r.Cookies() {
			if c.Name != name {
				kept = append(kept, c.String())
			}
		}
		r.Header.Del("Cookie")
		if len(kept) > 0 {
			r.Header.Set("Cookie", strings.Join(kept, "; "))
		}
	default:
		r.Header.Del(name)
	}
}

// HeaderForm says how the key travels where the scheme takes it in a
// header: the header's name, and the scheme its value begins with, such
// as Bearer or Basic, or "" for the key as it is. ok is false for a key
// that travels in the query or a cookie, or that is not sent as it is,
// as in a Digest response, and for a scheme no key meets.
func (s *Scheme) HeaderForm() (header, scheme string, ok bool) {
	in, name, value := s.Credential("")
	if in != InHeader || s.Kind == SchemeDigest || s.Kind == SchemeMutualTLS {
		return "", "", false
	}
	scheme, _, _ = strings.Cut(value, " ")
	return name, scheme, true
}

// Bearer reports whether the key goes as a bearer token: the scheme is
// http bearer, OAuth 2 or OpenID Connect.
func (s *Scheme) Bearer() bool { return s.bearer() }

// CredentialError says what is wrong with the credential of a request:
// missing, sent twice, malformed or refused. Its message names the field
// at fault and never holds the key.
type CredentialError struct {
	Message string
	// Challenge is the WWW-Authenticate value of the 401 that refuses
	// the request, or "" where the scheme has none (apiKey).
	Challenge string
}

var _ error = (*CredentialError)(nil)

func (e *CredentialError) Error() string { return e.Message }

// Read returns the key r presents under the scheme, or a
// *CredentialError that says what is wrong with how it was sent. It does
// not say whether the key is accepted: Refused is the error of one that
// is not. A Digest response holds no key, and is read by ReadDigest; a
// scheme every request meets (Unchecked) has none either.
func (s *Scheme) Read(r *http.Request) (string, error) {
	switch {
	case s.Kind == SchemeUnsupported, s.Kind == SchemeMutualTLS:
		return "", s.fail("", s.field()+": "+s.Unsupported)
	case s.Kind == SchemeDigest:
		return "", s.fail("", "authorization: a Digest response holds no key; it is checked against the keys as a whole")
	case s.Kind == SchemeBasic:
		return s.readBasic(r.Header.Values("Authorization"))
	case s.Kind == SchemeAPIKey:
		return s.readAPIKey(r)
	case s.Kind == SchemeHTTP:
		return s.readHTTP(r.Header.Values("Authorization"))
	}
	return s.readBearer(r.Header.Values("Authorization"))
}

// Unchecked reports whether every request meets the scheme, as petmock
// cannot check it: mutualTLS, whose client certificate petmock, serving
// plain HTTP, never sees.
func (s *Scheme) Unchecked() bool { return s.Kind == SchemeMutualTLS }

// Refused is the error of a key that was sent as the scheme asks but is
// not accepted.
func (s *Scheme) Refused() *CredentialError {
	return s.fail("invalid_token", s.field()+": unknown API key")
}

// Challenge returns the WWW-Authenticate value of a 401 under the scheme
// (RFC 7235): Bearer with the error code of RFC 6750, if any, for a
// bearer token; Basic for HTTP basic; Digest with petmock's nonce and
// SHA-256; another http scheme by its name; "" for an apiKey and
// mutualTLS, which have none.
func (s *Scheme) Challenge(errorCode string) string {
	switch s.Kind {
	case SchemeAPIKey, SchemeMutualTLS:
		return ""
	case SchemeBasic:
		return `Basic realm="` + Realm + `"`
	case SchemeDigest:
		return digestChallenge
	case SchemeHTTP:
		return s.Def.Scheme + ` realm="` + Realm + `"`
	}
	c := `Bearer realm="` + Realm + `"`
	if errorCode != "" {
		c += `, error="` + errorCode + `"`
	}
	return c
}

func (s *Scheme) fail(errorCode, message string) *CredentialError {
	return &CredentialError{Message: message, Challenge: s.Challenge(errorCode)}
}

// readBearer reads a bearer token from the Authorization header values.
func (s *Scheme) readBearer(values []string) (string, error) {
	if len(values) == 0 || values[0] == "" {
		return "", s.fail("", "authorization: missing; send Authorization: Bearer <API key>")
	}
	if len(values) > 1 {
		return "", s.fail("invalid_request", "authorization: sent more than once")
	}
	scheme, token, found := strings.Cut(values[0], " ")
	switch {
	case !found:
		return "", s.fail("invalid_request", "authorization: malformed; want Bearer <API key>")
	case !strings.EqualFold(scheme, "Bearer"):
		return "", s.fail("invalid_request", "authorization: scheme must be Bearer")
	}
	return strings.TrimLeft(token, " "), nil
}

// readHTTP reads the key sent as the credentials of another http scheme,
// such as Authorization: Negotiate <key>.
func (s *Scheme) readHTTP(values []string) (string, error) {
	want := s.Def.Scheme
	if len(values) == 0 || values[0] == "" {
		return "", s.fail("", "authorization: missing; send Authorization: "+want+" <API key>")
	}
	if len(values) > 1 {
		return "", s.fail("", "authorization: sent more than once")
	}
	scheme, token, _ := strings.Cut(values[0], " ")
	if !strings.EqualFold(scheme, want) {
		return "", s.fail("", "authorization: scheme must be "+want)
	}
	return strings.TrimSpace(token), nil
}

// isToken reports whether v is a token of HTTP (RFC 9110, section
// 5.6.2), as the name of an authentication scheme is.
func isToken(v string) bool {
	if v == "" {
		return false
	}
	for _, c := range v {
		if c > '~' || c <= ' ' || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, c) {
			return false
		}
	}
	return true
}

// readBasic reads the key of HTTP basic credentials: the password, or
// the user when there is no password.
func (s *Scheme) readBasic(values []string) (string, error) {
	if len(values) != 1 {
		return "", s.fail("", "authorization: missing; send Authorization: Basic with the API key as the password")
	}
	scheme, token, _ := strings.Cut(values[0], " ")
	if !strings.EqualFold(scheme, "Basic") {
		return "", s.fail("", "authorization: scheme must be Basic")
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(token))
	if err != nil {
		return "", s.fail("", "authorization: malformed Basic credentials")
	}
	user, password, _ := strings.Cut(string(raw), ":")
	if password == "" {
		return user, nil
	}
	return password, nil
}

// readAPIKey reads a key sent as the header, query parameter or cookie
// the scheme names.
func (s *Scheme) readAPIKey(r *http.Request) (string, error) {
	var values []string
	switch s.In {
	case InHeader:
		values = r.Header.Values(s.Param)
	case InQuery:
		values = r.URL.Query()[s.Param]
	case InCookie:
		for _, c := range r.CookiesNamed(s.Param) {
			values = append(values, c.Value)
		}
	}
	switch {
	case len(values) == 0 || values[0] == "":
		return "", s.fail("", fmt.Sprintf("%s: missing; send the API key as the %s %s", s.field(), s.In, s.Param))
	case len(values) > 1:
		return "", s.fail("", s.field()+": sent more than once")
	}
	return values[0], nil
}
