package edge

import (
	"net/http"
	"slices"
)

// allowOrder is the order of the methods in an Allow header.
var allowOrder = []string{
	http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
	http.MethodDelete, http.MethodTrace, http.MethodConnect,
}

// Allow returns methods as an Allow header lists them: in allowOrder,
// with HEAD wherever GET is, and OPTIONS last; nil for no method.
func Allow(methods []string) []string {
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
