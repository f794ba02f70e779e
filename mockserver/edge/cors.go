package mockserver

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
	corsExposeHeaders = "Link, Location, Deprecation, Sunset, WWW-Authenticate, Preference-Applied, Retry-After, X-Petmock-Source"
	corsMaxAge        = "600"
)

// setCORS sets the CORS headers of every answer, errors included. A
// request with an Origin gets that origin back, with credentials allowed,
// so that apps sending cookies work too; any other gets "*".
func setCORS(h http.Header, r *http.Request) {
	// The header names are canonical already, so the map is written
	// directly, with values shared between answers: nothing changes them.
	h["Vary"] = varyOrigin
	h["Access-Control-Expose-Headers"] = exposeHeaders
	if origin := r.Header.Get("Origin"); origin != "" {
		h["Access-Control-Allow-Origin"] = []string{origin}
		h["Access-Control-Allow-Credentials"] = allowCredentials
		return
	}
	h["Access-Control-Allow-Origin"] = anyOrigin
}

var (
	varyOrigin       = []string{"Origin"}
	exposeHeaders    = []string{corsExposeHeaders}
	allowCredentials = []string{"true"}
	anyOrigin        = []string{"*"}
)

func isPreflight(r *http.Request) bool {
	return r.Method == http.MethodOptions
}

// preflight answers OPTIONS, of the API and of every Edge: a CORS
// preflight gets the methods and headers it may use, which are every
// method a document may give an operation, and Authorization,
// Content-Type, Prefer and any other header it asks for; a plain OPTIONS
// gets allow, the methods of its path, in Allow, or a 404 when there are
// none, in the error body of ed's document.
func (s *Server) preflight(w http.ResponseWriter, r *http.Request, ed *edge, allow []string) {
	h := w.Header()
	if r.Header.Get("Access-Control-Request-Method") == "" {
		if allow == nil {
			s.writeErrorOf(w, ed, nil, notAnOperation(r.URL.Path))
			return
		}
		h.Set("Allow", strings.Join(allow, ", "))
		w.WriteHeader(http.StatusNoContent)
		return
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
