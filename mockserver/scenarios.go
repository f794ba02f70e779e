package mockserver

import (
	"net/http"

	"github.com/petstore/contract/mockserver/store"
)

// Scenarios are the states a frontend developer asks for, each one request
// to the admin API away:
//
//	POST /__petmock/empty         every resource empty
//	POST /__petmock/reset         back to the starting items (admin.go)
//	PUT  /__petmock/fixture       the stores become a fixture's, every resource
//	PUT  /__petmock/{resource}    one resource becomes a fixture's (admin.go)
//	POST /__petmock/forced        the next requests answer a status (forced.go)
//
// Each answers with the number of items of each resource, as reset does.

// empty answers POST /__petmock/empty: every store is emptied. Ids start
// again from 1; POST /__petmock/reset returns to the starting items.
func (s *Server) empty(w http.ResponseWriter) error {
	if err := s.replaceAll(nil); err != nil {
		return err
	}
	s.scenario("empty")
	return writeValue(w, http.StatusOK, s.counts())
}

// loadFixture answers PUT /__petmock/fixture: the stores become those of
// the fixture in the body, as petmock --fixtures starts with. An array is
// the first resource's items, an object holds an array for each resource
// by name, and a resource it does not name is emptied. Every item is
// checked before anything changes; the first bad one is named in a 400.
func (s *Server) loadFixture(w http.ResponseWriter, r *http.Request) error {
	body, done, e := s.upload(w, r)
	if e != nil {
		return e
	}
	defer done()
	loaded, err := s.readFixture(body)
	if err != nil {
		return fixtureError(err)
	}
	if e := s.refuseWrite(); e != nil {
		return e // saves began to fail while the fixture was read
	}
	if err := s.replaceAll(loaded); err != nil {
		return err
	}
	s.scenario("fixture")
	return writeValue(w, http.StatusOK, s.counts())
}

// replaceAll gives every resource its items, none for a resource items
// leaves out, all or nothing (see store.ReplaceAll).
func (s *Server) replaceAll(items map[*resource][]store.Entry) error {
	stores := make([]*store.Store, len(s.resources))
	entries := make([][]store.Entry, len(s.resources))
	for i, rs := range s.resources {
		stores[i], entries[i] = rs.store, items[rs]
	}
	return store.ReplaceAll(stores, entries)
}

// scenario logs that a scenario was played, and tells the console.
func (s *Server) scenario(name string) {
	if s.log != nil {
		s.log.Info("scenario", "scenario", name, "items", s.counts())
	}
	s.events.publish(eventStore)
}
