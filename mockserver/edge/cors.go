package edge

import (
	"net/http"
	"slices"
	"strings"
)

// CORS lets a browser app served from another origin, such as a dev
// server on another port, call the mock with its key.
const (
	corsAllowMethods  = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"
	corsAllowHeaders  = "Authorization, Content-Type, Prefer"
	corsExposeHeaders = "Link, Location, Deprecation, Sunset, WWW-Authenticate, Preference-Applied, Retry-After, X-Petmock-Source, " + ReasonHeader
	corsMaxAge        = "600"
)

// SetCORS sets the CORS headers of every answer, errors included. A
// request with an Origin gets that origin back, with credentials allowed,
// so that apps sending cookies work too; any other gets "*".
func SetCORS(h http.Header, r *http.Request) {
	// The header names are canonical already, so the map is written
	// directly, with values shared between answers: nothing changes them.
	h["Vary"] = VaryOrigin
	h["Access-Control-Expose-Headers"] = exposeHeaders
	if origin := r.Header.Get("Origin"); origin != "" {
		h["Access-Control-Allow-Origin"] = []string{origin}
		h["Access-Control-Allow-Credentials"] = allowCredentials
		return
	}
	h["Access-Control-Allow-Origin"] = anyOrigin
}

var (
	// VaryOrigin is the Vary of an answer that depends on the Origin.
	VaryOrigin       = []string{"Origin"}
	exposeHeaders    = []string{corsExposeHeaders}
	allowCredentials = []string{"true"}
	anyOrigin        = []string{"*"}
)

// IsPreflight reports whether r is a CORS preflight: an OPTIONS that asks
// what it may send, with Access-Control-Request-Method.
func IsPreflight(r *http.Request) bool {
	return r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
}

// AnswersOptions reports whether the gate answers r itself, with
// Preflight, rather than route it: a CORS preflight, or an OPTIONS of a
// path whose document gives no options operation. An OPTIONS of a path
// that has one, as Box's and Kubernetes' do, is that operation, with its
// key, its checks and its documented answer.
func (g *Gate) AnswersOptions(r *http.Request) bool {
	if r.Method != http.MethodOptions {
		return false
	}
	if IsPreflight(r) {
		return true
	}
	op, _, err := g.Route(r)
	return err != nil || op.Spec.Method != http.MethodOptions
}

// Preflight answers the OPTIONS the gate answers itself (AnswersOptions),
// of the API and of every other document's gate: a CORS preflight gets
// the methods and headers it may use, which are every method a document
// may give an operation, and Authorization, Content-Type, Prefer and any
// other header it asks for; a plain OPTIONS gets allow, the methods of its
// path, in Allow. When there are none, it answers nothing and returns the
// 404 to answer, in the error body of the document.
func Preflight(w http.ResponseWriter, r *http.Request, allow []string) *Error {
	h := w.Header()
	if r.Header.Get("Access-Control-Request-Method") == "" {
		if allow == nil {
			return NotAnOperation(r.URL.Path)
		}
		h.Set("Allow", strings.Join(allow, ", "))
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
	allowHeaders := corsAllowHeaders
	if asked := r.Header.Get("Access-Control-Request-Headers"); asked != "" {
		allowHeaders = withAskedHeaders(asked)
	}
	h.Set("Access-Control-Allow-Methods", corsAllowMethods)
	h.Set("Access-Control-Allow-Headers", allowHeaders)
	h.Set("Access-Control-Max-Age", corsMaxAge)
	h.Add("Vary", "Access-Control-Request-Method")
	h.Add("Vary", "Access-Control-Request-Headers")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// withAskedHeaders returns the allowed headers, Authorization and
// Content-Type, followed by the header names a preflight asked for.
// Anything that is not a header name is left out.
func withAskedHeaders(asked string) string {
	out := strings.Split(corsAllowHeaders, ", ")
	for _, name := range strings.Split(asked, ",") {
		name = strings.TrimSpace(name)
		if !isToken(name) || slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, name) }) {
			continue
		}
		out = append(out, name)
	}
	return strings.Join(out, ", ")
}

// isToken reports whether s is an HTTP token (RFC 9110, section 5.6.2).
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}
