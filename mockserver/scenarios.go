package mockserver

import (
	"context"
	"io"
	"net/http"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver/store"
)

// Scenarios are the states a frontend developer asks for, each one call
// away: every resource back to its starting items (Reset), empty (Empty),
// or a fixture's (LoadFixture), or one resource a fixture's
// (ReplaceItems). Each is refused while items cannot be kept (see
// SetPersistError), changes all the stores or none, logs what it did,
// tells the event streams, and returns once the change is kept (see
// SetCommit); the admin API answers each with the number of items of each
// resource. Each is played on the server that serves now, the last that
// took over from s (see TakeOver), if one did.

// Reset returns every resource to the items it started with, those of
// Config.Items or the generated catalogue, and returns how many each
// holds.
func (s *Server) Reset() (map[string]int, error) {
	s, done := s.settled()
	defer done()
	if e := s.refuseWrite(); e != nil {
		return nil, e
	}
	for _, rs := range s.resources {
		rs.store.Restore(rs.start)
	}
	s.scenario("reset")
	return s.keptCounts()
}

// Empty empties every resource; ids start again from 1. Reset returns to
// the starting items.
func (s *Server) Empty() (map[string]int, error) {
	s, done := s.settled()
	defer done()
	if e := s.refuseWrite(); e != nil {
		return nil, e
	}
	if err := s.replaceAll(nil); err != nil {
		return nil, err
	}
	s.scenario("empty")
	return s.keptCounts()
}

// LoadFixture makes the items of every resource those of a fixture: an
// array is the first resource's items, an object holds an array for each
// resource by name, and a resource it does not name returns to its
// starting items, as Reset returns it, which is the rule of every file
// loaded (see Load). Every item is checked before anything changes; the
// first bad one is named in a *FixtureError. It returns how many items
// each resource holds.
func (s *Server) LoadFixture(r io.Reader) (map[string]int, error) {
	s, done := s.settled()
	defer done()
	if e := s.refuseWrite(); e != nil {
		return nil, e
	}
	loaded, err := readFixture(r, s.resources, nil)
	if err != nil {
		return nil, err
	}
	if e := s.refuseWrite(); e != nil {
		return nil, e // saves began to fail while the fixture was read
	}
	if err := s.load(loaded); err != nil {
		return nil, err
	}
	s.scenario("fixture")
	return s.keptCounts()
}

// ReplaceItems makes the items of one resource those of a fixture, an
// array, if every one is valid; otherwise nothing changes, and the first
// bad item is named in a *FixtureError. It returns how many items the
// resource holds.
func (s *Server) ReplaceItems(resource string, r io.Reader) (int, error) {
	s, done := s.settled()
	defer done()
	rs := s.byName[resource]
	if rs == nil {
		return 0, edge.NewError(http.StatusNotFound, "resource", "%s is no resource of the document (it has %s)", resource, resourceList(s.resources))
	}
	if e := s.refuseWrite(); e != nil {
		return 0, e
	}
	loaded, err := readFixture(r, s.resources, rs)
	if err != nil {
		return 0, err
	}
	if e := s.refuseWrite(); e != nil {
		return 0, e // saves began to fail while the fixture was read
	}
	if err := rs.store.Replace(loaded[rs]); err != nil {
		return 0, err
	}
	s.events.Publish(journal.ChangeStore)
	if e := s.kept(context.Background()); e != nil {
		return 0, e
	}
	return rs.store.Len(), nil
}

// Counts returns how many items each resource holds, by name.
func (s *Server) Counts() map[string]int {
	out := make(map[string]int, len(s.resources))
	for _, rs := range s.resources {
		out[rs.spec.Name] = rs.store.Len()
	}
	return out
}

// keptCounts waits until a scenario's change is kept (see SetCommit), and
// returns how many items each resource holds, or the 503 of a change that
// could not be kept.
func (s *Server) keptCounts() (map[string]int, error) {
	if e := s.kept(context.Background()); e != nil {
		return nil, e
	}
	return s.Counts(), nil
}

// load gives every resource a fixture names its items, and every other
// resource its starting items, all or nothing: a fixture sets what it
// names, and leaves the rest as petmock starts.
func (s *Server) load(loaded map[*resource][]store.Entry) error {
	var stores []*store.Store
	var entries [][]store.Entry
	for _, rs := range s.resources {
		if items, ok := loaded[rs]; ok {
			stores, entries = append(stores, rs.store), append(entries, items)
		}
	}
	if err := store.ReplaceAll(stores, entries); err != nil {
		return err
	}
	for _, rs := range s.resources {
		if _, ok := loaded[rs]; !ok {
			rs.store.Restore(rs.start)
		}
	}
	return nil
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

// scenario logs that a scenario was played, and tells the event streams.
func (s *Server) scenario(name string) {
	if s.log != nil {
		s.log.Info("scenario", "scenario", name, "items", s.Counts())
	}
	s.events.Publish(journal.ChangeStore)
}
