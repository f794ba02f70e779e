package mockserver

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// AdminPrefix is where the admin API lives, outside the API's base path.
const AdminPrefix = "/__petmock/"

// DefaultMaxFixtureBytes is the largest fixture PUT /__petmock/{resource}
// accepts by default.
const DefaultMaxFixtureBytes = 256 << 20

// adminEndpoints are the fixed endpoints of the admin API and their
// methods. Every resource adds one more, named after it, with GET and PUT,
// and catalogue/{resource}, with GET; a resource named like a fixed
// endpoint is not reachable there.
var adminEndpoints = map[string][]string{
	"health":   {http.MethodGet},
	"reset":    {http.MethodPost},
	"requests": {http.MethodGet, http.MethodDelete},
	"settings": {http.MethodGet, http.MethodPatch},
	"empty":    {http.MethodPost},
	"fixture":  {http.MethodPut},
	"forced":   {http.MethodGet, http.MethodPost, http.MethodDelete},
	"events":   {http.MethodGet},
	"contract": {http.MethodGet},
	// The console: the page, at /__petmock/, and its files.
	"":            {http.MethodGet},
	"console.css": {http.MethodGet},
	"console.js":  {http.MethodGet},
}

// publicEndpoints need no key: they say nothing the document does not.
var publicEndpoints = map[string]bool{"health": true, "contract": true, "": true, "console.css": true, "console.js": true}

// serveAdmin answers the admin API. Every endpoint but health needs a key
// the API accepts.
//
//	GET    health      liveness, and the number of items of each resource, without a key;
//	                   503 while they cannot be kept
//	POST   reset       back to the starting items
//	GET    {resource}  the items of a resource, as a fixture
//	PUT    {resource}  replace the items of a resource with a fixture
//	GET    requests    the request journal, newest first (?limit=N)
//	DELETE requests    empty the journal
//	GET    settings    the settings: latency, fail rate, clock, journal size
//	PATCH  settings    change some of them (settings.go)
//	POST   empty       every resource empty (scenarios.go)
//	PUT    fixture     every resource from a fixture (scenarios.go)
//	GET    forced      the answers forced on the next requests (forced.go)
//	POST   forced      force the next requests' answer
//	DELETE forced      force nothing more
//	GET    events      a stream of Server-Sent Events for the console (events.go)
//	GET    contract    the operations and resources, without a key (contractview.go)
//	GET    catalogue/{resource}  a page of items, for the console (browse.go)
//	GET    (nothing)   the console, without a key (console.go)
func (s *Server) serveAdmin(w http.ResponseWriter, r *http.Request) error {
	name := strings.TrimPrefix(r.URL.Path, AdminPrefix)
	methods := s.adminMethods(name)
	if methods == nil {
		return notAdminEndpoint(r.URL.Path)
	}
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	if !slices.Contains(methods, method) {
		return methodNotAllowed(r.Method, r.URL.Path, s.methodsFor(r))
	}
	if !publicEndpoints[name] {
		if e := s.keys.check(r.Header.Values("Authorization")); e != nil {
			return e
		}
	}
	if _, ok := consoleAssets[name]; ok {
		return s.serveConsole(w, r)
	}
	switch name + " " + method {
	case "health GET":
		counts, err := s.Health()
		if err != nil {
			return err
		}
		out := map[string]any{"status": "ok"}
		for k, v := range counts {
			out[k] = v
		}
		return writeValue(w, http.StatusOK, out)
	case "reset POST", "empty POST":
		play := s.Reset
		if name == "empty" {
			play = s.Empty
		}
		counts, err := play()
		if err != nil {
			return err
		}
		return writeValue(w, http.StatusOK, counts)
	case "requests GET":
		n := 0
		q, e := parseQuery(r.URL.RawQuery)
		if e != nil {
			return e
		}
		if v := q.Get("limit"); v != "" {
			var err error
			if n, err = strconv.Atoi(v); err != nil || n < 1 {
				return badRequest("limit", "must be a positive integer")
			}
		}
		return writeValue(w, http.StatusOK, map[string]any{"requests": s.Journal(n)})
	case "requests DELETE":
		s.ClearJournal()
		return writeValue(w, http.StatusOK, map[string]any{"requests": []Exchange{}})
	case "settings GET":
		return writeValue(w, http.StatusOK, s.Settings())
	case "settings PATCH":
		return s.patchSettings(w, r)
	case "fixture PUT":
		body, done, e := s.upload(w, r)
		if e != nil {
			return e
		}
		defer done()
		counts, err := s.LoadFixture(body)
		if err != nil {
			return err
		}
		return writeValue(w, http.StatusOK, counts)
	case "forced GET", "forced POST", "forced DELETE":
		return s.serveForced(w, r)
	case "events GET":
		return s.serveEvents(w, r)
	case "contract GET":
		return s.serveContract(w)
	}
	if res, ok := strings.CutPrefix(name, "catalogue/"); ok {
		return s.browse(w, r, s.byName[res])
	}
	rs := s.byName[name]
	if method == http.MethodGet {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		if _, err := rs.store.Export(w); err != nil && s.log != nil {
			s.log.Warn("export cut short", "err", err)
		}
		return nil
	}
	body, done, e := s.upload(w, r)
	if e != nil {
		return e
	}
	defer done()
	n, err := s.ReplaceItems(name, body)
	if err != nil {
		return err
	}
	return writeValue(w, http.StatusOK, map[string]any{name: n})
}

// patchSettings answers PATCH /__petmock/settings.
func (s *Server) patchSettings(w http.ResponseWriter, r *http.Request) error {
	members, err := readObject(w, r, "settings", `{"latency":"100ms"}`)
	if err != nil {
		return err
	}
	changes := map[string]any{}
	for name, raw := range members {
		v, e := decodeJSON(raw)
		if e != nil {
			return e
		}
		changes[name] = v
	}
	if err := s.ChangeSettings(changes); err != nil {
		return err
	}
	return writeValue(w, http.StatusOK, s.Settings())
}

// serveForced answers GET, POST and DELETE /__petmock/forced, each with
// the forced answers that remain: {"forced": [...]}.
func (s *Server) serveForced(w http.ResponseWriter, r *http.Request) error {
	switch r.Method {
	case http.MethodPost:
		const example = `{"code":503,"count":3,"operation":"listPets"}`
		members, err := readObject(w, r, "a forced answer", example)
		if err != nil {
			return err
		}
		for _, name := range slices.Sorted(maps.Keys(members)) {
			if name != "code" && name != "count" && name != "operation" {
				return badRequest(name, "not a member of a forced answer; want code, and count and operation if need be, such as %s", example)
			}
		}
		code, count, operation := 0, 1, ""
		raw, ok := members["code"]
		if !ok {
			return badRequest("code", "is required: the HTTP status to answer, such as 503")
		}
		if json.Unmarshal(raw, &code) != nil {
			return badRequest("code", "%s: want an HTTP status such as 503", raw)
		}
		if raw, ok := members["count"]; ok && json.Unmarshal(raw, &count) != nil {
			return badRequest("count", "%s: want a number of requests from 1 to %d", raw, MaxForcedCount)
		}
		if raw, ok := members["operation"]; ok && string(raw) != "null" && json.Unmarshal(raw, &operation) != nil {
			return badRequest("operation", "%s: want the id of an operation of the document: %s", raw, s.operationIDs())
		}
		if err := s.Force(code, count, operation); err != nil {
			return err
		}
	case http.MethodDelete:
		s.ClearForced()
	}
	return writeValue(w, http.StatusOK, map[string]any{"forced": s.Forced()})
}

// maxAdminBody is the largest body of an admin request other than a
// fixture.
const maxAdminBody = 64 << 10

// readObject reads the body of an admin request, a JSON object, into its
// members. what names the body in messages, and example shows one.
func readObject(w http.ResponseWriter, r *http.Request, what, example string) (map[string]json.RawMessage, error) {
	if e := admitJSON(r, maxAdminBody); e != nil {
		return nil, e
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxAdminBody))
	if err != nil {
		return nil, err // asError answers a body over the limit with 413
	}
	var members map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&members); err != nil || members == nil {
		return nil, badRequest("body", "want a JSON object of %s, such as %s", what, example)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, badRequest("body", "want a JSON object of %s, such as %s, and nothing after it", what, example)
	}
	return members, nil
}

// adminMethods returns the methods of the admin endpoint name, or nil if
// there is no such endpoint.
func (s *Server) adminMethods(name string) []string {
	if m, ok := adminEndpoints[name]; ok {
		return m
	}
	if s.byName[name] != nil {
		return []string{http.MethodGet, http.MethodPut}
	}
	if res, ok := strings.CutPrefix(name, "catalogue/"); ok && s.byName[res] != nil {
		return []string{http.MethodGet}
	}
	return nil
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
