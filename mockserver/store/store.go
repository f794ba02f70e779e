package store

import (
	"math"
	"sync"
	"sync/atomic"
)

// Entry is one item as the store takes and gives it: its id, its JSON text
// and its filter keys, one for each filter of the store, in order.
type Entry struct {
	ID   int64
	Text []byte
	Keys []string
	// Name, when not empty, is the id clients know the item by where it
	// is not ID, such as a UUID: ID finds the item of a name. Replace
	// and Add take it; Put keeps the name the item has.
	Name string
}

// Store keeps the items of one resource in memory, ordered by id, and is
// safe for concurrent use. Reads never wait for writers: they work on an
// immutable snapshot, and every write publishes a new one before it
// returns, so a read sees every write that has already been answered.
//
// The store keeps each item as the JSON text the API sends, so a page of
// the list is a concatenation of those texts. An index per filter value,
// such as each status, keeps a filtered page as cheap as an unfiltered one,
// whatever the size of the store. Adding an item costs the same at any
// size; replacing or removing one costs in proportion to a run of records
// and the number of runs, not to the whole store. The package comment
// lists what a Store guarantees.
type Store struct {
	name    string // of the items, for messages, such as "pets"
	filters int    // number of filter keys of each item

	mu sync.Mutex // serialises writers; guards the fields below
	// limits bound what the store may hold; zero fields do not bound.
	limits Limits
	// fill is how many bytes of the last chunk of the current snapshot
	// are taken.
	fill int
	// gen is the generation of the newest snapshot: see seq.
	gen uint64
	// interned maps the joined filter keys of a tuple to its index in
	// the newest snapshot's tuples.
	interned map[string]uint32
	// heir is where writes go once the store has been handed over to
	// another (see HandOver); nil until then.
	heir *heir
	// tap is told of every write before readers see it: see SetTap.
	tap func(Write) error

	snap atomic.Pointer[snapshot]
}

// maxID is the largest id an item can have.
const maxID = math.MaxInt64

// New returns an empty store of the items of a resource, such as "pets",
// which have the given number of filter keys.
func New(name string, filters int) *Store {
	s := &Store{name: name, filters: filters, gen: 1, interned: map[string]uint32{}}
	s.snap.Store(&snapshot{byKey: make([][]keyed, filters), next: 1})
	return s
}
