package mockserver

import (
	"net/http"
	"slices"
)

// allowOrder is the order of the methods in an Allow header.
var allowOrder = []string{
	http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
	http.MethodDelete, http.MethodTrace, http.MethodConnect,
}

// methodsFor returns the methods the path of r takes, as an Allow header
// lists them both on a 405 and on an answer to OPTIONS: those of the
// documents, or of the operations of its path. It returns nil for a path
// that is nothing the server serves.
func (s *Server) methodsFor(r *http.Request) []string {
	if path := r.URL.Path; path == docYAMLPath || path == docJSONPath {
		return allow([]string{http.MethodGet})
	}
	return s.edge.methodsFor(r)
}

// allow returns methods as an Allow header lists them: in allowOrder,
// with HEAD wherever GET is, and OPTIONS last; nil for no method.
func allow(methods []string) []string {
	if methods == nil {
		return nil
	}
	var out []string
	for _, m := range allowOrder {
		if slices.Contains(methods, m) || m == http.MethodHead && slices.Contains(methods, http.MethodGet) {
			out = append(out, m)
		}
	}
	return append(out, http.MethodOptions)
}
