package edge

import (
	"errors"
	"net/http"
	"strings"
)

// OutsideBase is the 404 of a request outside the base path, such as
// GET /pets for an API at /v1: it names the path under the base path that
// the request probably meant, when one is an operation's, such as
// /v1/pets, or else the base path. The path tried is the request's below
// the base path, then without its first segments one by one, so that
// /api/pets and /v2/pets find /v1/pets too.
func (g *Gate) OutsideBase(r *http.Request) *Error {
	path := r.URL.Path
	for rest := path; rest != ""; {
		candidate := g.contract.Base + rest
		if g.routes(r, candidate) {
			return NewError(http.StatusNotFound, "path", "%s is outside the API's base path %s; did you mean %s?", path, g.contract.Base, candidate)
		}
		i := strings.IndexByte(rest[1:], '/')
		if i < 0 {
			break
		}
		rest = rest[1+i:]
	}
	return NewError(http.StatusNotFound, "path", "%s is outside the API's base path %s, below which every operation's path begins", path, g.contract.Base)
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
