package catalogue

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
func (set *Resources) Reset() (map[string]int, error) {
	set, done := set.settled()
	defer done()
	if e := set.RefuseWrite(); e != nil {
		return nil, e
	}
	for _, rs := range set.list {
		if err := rs.store.Restore(rs.start); err != nil {
			return nil, err
		}
	}
	set.scenario("reset")
	return set.keptCounts()
}

// Empty empties every resource; ids start again from 1. Reset returns to
// the starting items.
func (set *Resources) Empty() (map[string]int, error) {
	set, done := set.settled()
	defer done()
	if e := set.RefuseWrite(); e != nil {
		return nil, e
	}
	if err := set.replaceAll(nil); err != nil {
		return nil, err
	}
	set.scenario("empty")
	return set.keptCounts()
}

// LoadFixture makes the items of every resource those of a fixture: an
// array is the first resource's items, an object holds an array for each
// resource by name, and a resource it does not name returns to its
// starting items, as Reset returns it, which is the rule of every file
// loaded (see Load). Every item is checked before anything changes; the
// first bad one is named in a *FixtureError. It returns how many items
// each resource holds.
func (set *Resources) LoadFixture(r io.Reader) (map[string]int, error) {
	set, done := set.settled()
	defer done()
	if e := set.RefuseWrite(); e != nil {
		return nil, e
	}
	loaded, err := readFixture(r, set.list, nil)
	if err != nil {
		return nil, err
	}
	if e := set.RefuseWrite(); e != nil {
		return nil, e // saves began to fail while the fixture was read
	}
	if err := set.load(loaded); err != nil {
		return nil, err
	}
	set.scenario("fixture")
	return set.keptCounts()
}

// ReplaceItems makes the items of one resource those of a fixture, an
// array, if every one is valid; otherwise nothing changes, and the first
// bad item is named in a *FixtureError. It returns how many items the
// resource holds.
func (set *Resources) ReplaceItems(resource string, r io.Reader) (int, error) {
	set, done := set.settled()
	defer done()
	rs := set.byName[resource]
	if rs == nil {
		return 0, edge.NewError(http.StatusNotFound, "resource", "%s is no resource of the document (it has %s)", resource, resourceList(set.list))
	}
	if e := set.RefuseWrite(); e != nil {
		return 0, e
	}
	loaded, err := readFixture(r, set.list, rs)
	if err != nil {
		return 0, err
	}
	if e := set.RefuseWrite(); e != nil {
		return 0, e // saves began to fail while the fixture was read
	}
	if err := rs.store.Replace(loaded[rs]); err != nil {
		return 0, err
	}
	set.events.Publish(journal.ChangeStore)
	if e := set.kept(context.Background()); e != nil {
		return 0, e
	}
	return rs.store.Len(), nil
}

// Counts returns how many items each resource holds, by name.
func (set *Resources) Counts() map[string]int {
	out := make(map[string]int, len(set.list))
	for _, rs := range set.list {
		out[rs.spec.Name] = rs.store.Len()
	}
	return out
}

// keptCounts waits until a scenario's change is kept (see SetCommit), and
// returns how many items each resource holds, or the 503 of a change that
// could not be kept.
func (set *Resources) keptCounts() (map[string]int, error) {
	if e := set.kept(context.Background()); e != nil {
		return nil, e
	}
	return set.Counts(), nil
}

// load gives every resource a fixture names its items, and every other
// resource its starting items, all or nothing: a fixture sets what it
// names, and leaves the rest as petmock starts.
func (set *Resources) load(loaded map[*Resource][]store.Entry) error {
	var stores []*store.Store
	var entries [][]store.Entry
	for _, rs := range set.list {
		if items, ok := loaded[rs]; ok {
			stores, entries = append(stores, rs.store), append(entries, items)
		}
	}
	if err := store.ReplaceAll(stores, entries); err != nil {
		return err
	}
	for _, rs := range set.list {
		if _, ok := loaded[rs]; !ok {
			if err := rs.store.Restore(rs.start); err != nil {
				return err
			}
		}
	}
	return nil
}

// replaceAll gives every resource its items, none for a resource items
// leaves out, all or nothing (see store.ReplaceAll).
func (set *Resources) replaceAll(items map[*Resource][]store.Entry) error {
	stores := make([]*store.Store, len(set.list))
	entries := make([][]store.Entry, len(set.list))
	for i, rs := range set.list {
		stores[i], entries[i] = rs.store, items[rs]
	}
	return store.ReplaceAll(stores, entries)
}

// scenario logs that a scenario was played, and tells the event streams.
func (set *Resources) scenario(name string) {
	if set.log != nil {
		set.log.Info("scenario", "scenario", name, "items", set.Counts())
	}
	set.events.Publish(journal.ChangeStore)
}
