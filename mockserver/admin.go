package mockserver

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/petstore/contract/mockserver/store"
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
	if e := s.refuseAdminWrite(name, method); e != nil {
		return e
	}
	switch name + " " + method {
	case "health GET":
		return s.serveHealth(w)
	case "reset POST":
		for _, rs := range s.resources {
			rs.store.Restore(rs.start)
		}
		s.scenario("reset")
		return writeValue(w, http.StatusOK, s.counts())
	case "requests GET":
		n := s.journal.size()
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
		return writeValue(w, http.StatusOK, map[string]any{"requests": s.journal.recent(n)})
	case "requests DELETE":
		s.journal.clear()
		s.events.publish(eventJournal)
		return writeValue(w, http.StatusOK, map[string]any{"requests": []Exchange{}})
	case "settings GET":
		return writeValue(w, http.StatusOK, s.settingsView())
	case "settings PATCH":
		return s.patchSettings(w, r)
	case "empty POST":
		return s.empty(w)
	case "fixture PUT":
		return s.loadFixture(w, r)
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
	return s.replaceItems(w, r, rs)
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

// health is the answer of GET /__petmock/health: ok, and how many items
// each resource holds, by name.
func (s *Server) health() map[string]any {
	out := s.counts()
	out["status"] = "ok"
	return out
}

// counts returns how many items each resource holds, by name.
func (s *Server) counts() map[string]any {
	out := make(map[string]any, len(s.resources)+1)
	for _, rs := range s.resources {
		out[rs.spec.Name] = rs.store.Len()
	}
	return out
}

// replaceItems answers PUT /__petmock/{resource}: the resource's items
// become those of the fixture in the body, an array, if every one is
// valid; otherwise nothing changes.
func (s *Server) replaceItems(w http.ResponseWriter, r *http.Request, rs *resource) error {
	body, done, e := s.upload(w, r)
	if e != nil {
		return e
	}
	defer done()
	var entries []store.Entry
	seen := map[int64]int{}
	err := readItemsOf(body, rs.spec.Name, func(i int, v any) error {
		e, err := rs.decodeItem(v)
		if err != nil {
			return err
		}
		if j, dup := seen[e.ID]; dup {
			return badRequest(rs.spec.IDProperty, "%d is also the id of %s[%d]", e.ID, rs.spec.Name, j)
		}
		seen[e.ID] = i
		entries = append(entries, e)
		return nil
	})
	if err != nil {
		return fixtureError(err)
	}
	if e := s.refuseWrite(); e != nil {
		return e // saves began to fail while the fixture was read
	}
	if err := rs.store.Replace(entries); err != nil {
		return err
	}
	s.events.publish(eventStore)
	return writeValue(w, http.StatusOK, map[string]any{rs.spec.Name: rs.store.Len()})
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
