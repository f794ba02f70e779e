package mockserver

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// AdminPrefix is where the admin API lives, outside the API's base path.
const AdminPrefix = "/__petmock/"

// DefaultMaxFixtureBytes is the largest fixture PUT /__petmock/pets
// accepts by default.
const DefaultMaxFixtureBytes = 256 << 20

// serveAdmin answers the admin API. Every endpoint but health needs a key
// the API accepts.
//
//	GET    health    liveness, without a key
//	POST   reset     back to the starting catalogue
//	GET    pets      the whole store, as a fixture
//	PUT    pets      replace the store with a fixture
//	GET    requests  the request journal, newest first (?limit=N)
//	DELETE requests  empty the journal
func (s *Server) serveAdmin(w http.ResponseWriter, r *http.Request) error {
	name := strings.TrimPrefix(r.URL.Path, AdminPrefix)
	methods := adminMethods(name)
	if methods == nil {
		return newError(http.StatusNotFound, "path", "%s is not an admin endpoint; see the README", r.URL.Path)
	}
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	if !slices.Contains(methods, method) {
		allow := strings.Join(methods, ", ")
		return newError(http.StatusMethodNotAllowed, "method", "%s is not allowed on %s; use %s", r.Method, r.URL.Path, allow).
			withHeader("Allow", allow)
	}
	if name != "health" {
		if e := s.keys.check(r.Header.Values("Authorization")); e != nil {
			return e
		}
	}
	switch name + " " + method {
	case "health GET":
		return writeValue(w, http.StatusOK, map[string]any{"status": "ok", "pets": s.store.Len()})
	case "reset POST":
		s.store.Restore(s.start)
		return writeValue(w, http.StatusOK, map[string]any{"pets": s.store.Len()})
	case "pets GET":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		if _, err := s.store.Export(w); err != nil && s.log != nil {
			s.log.Warn("export cut short", "err", err)
		}
		return nil
	case "pets PUT":
		return s.replacePets(w, r)
	case "requests GET":
		n := s.journal.size()
		if v := r.URL.Query().Get("limit"); v != "" {
			var err error
			if n, err = strconv.Atoi(v); err != nil || n < 1 {
				return badRequest("limit", "must be a positive integer")
			}
		}
		return writeValue(w, http.StatusOK, map[string]any{"requests": s.journal.recent(n)})
	case "requests DELETE":
		s.journal.clear()
		return writeValue(w, http.StatusOK, map[string]any{"requests": []Exchange{}})
	}
	return nil
}

// adminMethods returns the methods of the admin endpoint name, or nil if
// there is no such endpoint.
func adminMethods(name string) []string {
	return map[string][]string{
		"health":   {http.MethodGet},
		"reset":    {http.MethodPost},
		"pets":     {http.MethodGet, http.MethodPut},
		"requests": {http.MethodGet, http.MethodDelete},
	}[name]
}

func (s *Server) replacePets(w http.ResponseWriter, r *http.Request) error {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return newError(http.StatusUnsupportedMediaType, "content-type", "must be application/json, not %q", ct)
	}
	limit := s.maxFixtureBytes
	if r.ContentLength > limit {
		return newError(http.StatusRequestEntityTooLarge, "body", "larger than %d bytes", limit)
	}
	body := http.MaxBytesReader(w, r.Body, limit)
	pets, err := readFixture(body, s.petSchema)
	var tooLarge *http.MaxBytesError
	var fe *FixtureError
	switch {
	case errors.As(err, &tooLarge):
		return newError(http.StatusRequestEntityTooLarge, "body", "larger than %d bytes", limit)
	case errors.As(err, &fe):
		e := *fe.Err
		e.Message = fe.Error()
		return &e
	case err != nil:
		return err
	}
	if err := s.store.Replace(pets); err != nil {
		if errors.Is(err, ErrStoreFull) {
			return newError(http.StatusInsufficientStorage, "pets", "%v; nothing changed", err)
		}
		return badRequest("pets", "%v", err)
	}
	return writeValue(w, http.StatusOK, map[string]any{"pets": s.store.Len()})
}

// writeValue answers with v encoded as JSON.
func writeValue(w http.ResponseWriter, status int, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	writeJSON(w, status, append(body, '\n'))
	return nil
}
