package edge

import (
	"errors"
	"net/http"
	"strings"
)

// Below reports whether path is below a base path an operation is served
// below (spec.Operation.Base), such as /v1/pets of /v1: a request of the
// API rather than one outside it. With an operation served at the root,
// every path is.
func (g *Gate) Below(path string) bool {
	for _, base := range g.bases {
		if strings.HasPrefix(path, base+"/") {
			return true
		}
	}
	return false
}

// Outside reports whether path is outside every base path, and none of
// them: a request sent without the base path, such as GET /pets for an
// API at /v1, which OutsideBase answers.
func (g *Gate) Outside(path string) bool {
	for _, base := range g.bases {
		if base == "" || path == base || strings.HasPrefix(path, base+"/") {
			return false
		}
	}
	return true
}

// OutsideBase is the 404 of a request outside the base paths, such as
// GET /pets for an API at /v1: it names the path under a base path that
// the request probably meant, when one is an operation's, such as
// /v1/pets, or else the base paths. The path tried is the request's below
// each base path, then without its first segments one by one, so that
// /api/pets and /v2/pets find /v1/pets too.
func (g *Gate) OutsideBase(r *http.Request) *Error {
	path := r.URL.Path
	bases := strings.Join(g.bases, ", ")
	which := "the API's base path"
	if len(g.bases) > 1 {
		which = "the API's base paths"
	}
	for rest := path; rest != ""; {
		for _, base := range g.bases {
			if candidate := base + rest; g.routes(r, candidate) {
				return NewError(http.StatusNotFound, "path", "%s is outside %s %s; did you mean %s?", path, which, bases, candidate)
			}
		}
		i := strings.IndexByte(rest[1:], '/')
		if i < 0 {
			break
		}
		rest = rest[1+i:]
	}
	return NewError(http.StatusNotFound, "path", "%s is outside %s %s, below which every operation's path begins", path, which, bases)
}

// routes reports whether a request like r to path would find an
// operation, of its method or another.
func (g *Gate) routes(r *http.Request, path string) bool {
	probe := *r
	u := *r.URL
	u.Path, u.RawPath = path, ""
	probe.URL = &u
	_, _, err := g.Route(&probe)
	var e *Error
	return err == nil || errors.As(err, &e) && e.Status == http.StatusMethodNotAllowed
}
