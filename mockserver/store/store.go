package store

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// ErrIDsExhausted is returned by Store.Add when the largest id has been
// given, so no further id can be assigned.
var ErrIDsExhausted = errors.New("no id left to assign")

// ErrStoreFull is returned when a write would take a store past its
// limits.
var ErrStoreFull = errors.New("the store is full")

// Limits bound what a store may hold, so that no client can make it use
// unbounded memory. A zero field does not bound.
type Limits struct {
	MaxItems int   // items in the store
	MaxBytes int64 // bytes of JSON text of all the items together
}

// full reports whether a store of n items and b bytes passes the limits.
func (l Limits) full(n int, b int64) bool {
	return (l.MaxItems > 0 && n > l.MaxItems) || (l.MaxBytes > 0 && b > l.MaxBytes)
}

// Entry is one item as the store takes and gives it: its id, its JSON text
// and its filter keys, one for each filter of the store, in order.
type Entry struct {
	ID   int64
	Text []byte
	Keys []string
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
// and the number of runs, not to the whole store.
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

	snap atomic.Pointer[snapshot]
}

// snapshot is one immutable state of the store. Writers build the next
// snapshot from the current one; they share what the write did not touch.
type snapshot struct {
	all seq // every item
	// byKey[f] lists the values of filter f that items have, in order,
	// each with the sequence of the items that have it.
	byKey [][]keyed
	// tuples are the distinct lists of filter keys items have; a record
	// names its own by index. Writers append to it; no snapshot reads past
	// its length.
	tuples [][]string
	// chunks hold the JSON text of the items. A chunk is allocated with
	// its full capacity and its length stays 0: records slice into it up
	// to its capacity, so appending text never rewrites a slice header
	// that an older snapshot shares.
	chunks [][]byte
	// version counts the writes that led to this snapshot.
	version uint64
	// bytes is the length of the JSON text of all the items; dead is
	// that of texts no item has any more, replaced or removed.
	bytes, dead int64
	// longest is the length of the longest text written to the chunks,
	// removed ones included: no item on a page is longer.
	longest int
	// next is the id the next Add gives, or 0 when none is left: one
	// more than the largest id the store has held since it was last
	// replaced or restored, so that a removed item's id is not given to
	// another.
	next int64
}

// keyed is one value of a filter and the items that have it.
type keyed struct {
	key string
	seq seq
}

const chunkSize = 1 << 20

// maxID is the largest id an item can have.
const maxID = math.MaxInt64

// New returns an empty store of the items of a resource, such as "pets",
// which have the given number of filter keys.
func New(name string, filters int) *Store {
	s := &Store{name: name, filters: filters, gen: 1, interned: map[string]uint32{}}
	s.snap.Store(&snapshot{byKey: make([][]keyed, filters), next: 1})
	return s
}

// SetLimits sets the limits of the store. Writes that would pass them fail
// with ErrStoreFull; what the store holds already stays.
func (s *Store) SetLimits(l Limits) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limits = l
}

// Replace replaces every item in the store with entries, atomically. It
// fails, changing nothing, if two entries share an id, an entry has the
// wrong number of filter keys, or they pass the limits.
func (s *Store) Replace(entries []Entry) error {
	return ReplaceAll([]*Store{s}, [][]Entry{entries})
}

// ReplaceAll replaces the items of each store, all distinct, with its
// entries, as Replace does, all of them or none: if one store refuses its
// entries, no store changes. Readers see each store change at once,
// though not every store at the same instant.
func ReplaceAll(stores []*Store, entries [][]Entry) error {
	sorted := make([][]Entry, len(stores))
	for i, s := range stores {
		var err error
		if sorted[i], err = s.sortEntries(entries[i]); err != nil {
			return err
		}
	}
	// No other code holds two stores' locks, so taking them in any
	// order cannot deadlock.
	for _, s := range stores {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	next := make([]built, len(stores))
	for i, s := range stores {
		b := s.build(sorted[i], s.gen+1)
		if s.limits.full(b.sn.all.n, b.sn.bytes) {
			return fmt.Errorf("%w: %d %s in %d bytes pass the limits of %d %s and %d bytes",
				ErrStoreFull, b.sn.all.n, s.name, b.sn.bytes, s.limits.MaxItems, s.name, s.limits.MaxBytes)
		}
		next[i] = b
	}
	for i, s := range stores {
		s.snap.Store(s.adopt(next[i]))
	}
	return nil
}

// sortEntries returns entries in order of id, checked: no id twice, and
// a key for each filter.
func (s *Store) sortEntries(entries []Entry) ([]Entry, error) {
	byID := func(a, b Entry) int {
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	}
	sorted := entries
	if !slices.IsSortedFunc(entries, byID) {
		// A generated catalogue is sorted already; sparing it a copy
		// matters at a million items.
		sorted = slices.Clone(entries)
		slices.SortFunc(sorted, byID)
	}
	for i, e := range sorted {
		if i > 0 && sorted[i-1].ID == e.ID {
			return nil, fmt.Errorf("id %d: used by two items", e.ID)
		}
		if len(e.Keys) != s.filters {
			return nil, fmt.Errorf("id %d: %d filter keys, want %d", e.ID, len(e.Keys), s.filters)
		}
	}
	if len(sorted) > math.MaxInt32 {
		return nil, fmt.Errorf("%d items: at most %d are supported", len(sorted), math.MaxInt32)
	}
	return sorted, nil
}

// built is a snapshot made by build, with the state of the store that
// writes after it need: they append to its memory, of its generation.
type built struct {
	sn       *snapshot
	gen      uint64
	fill     int
	interned map[string]uint32
}

// adopt makes the store's writes go on from b, and returns b's snapshot
// for the caller, which holds s.mu, to publish. Until then the store's
// state is that of its current snapshot, so a snapshot built but not
// published, such as one past the limits, changes nothing.
func (s *Store) adopt(b built) *snapshot {
	s.gen, s.fill, s.interned = b.gen, b.fill, b.interned
	return b.sn
}

// build makes a snapshot of sorted entries, in new memory of generation
// gen. It changes nothing of the store's: see adopt.
func (s *Store) build(sorted []Entry, gen uint64) built {
	next := &snapshot{byKey: make([][]keyed, s.filters), next: 1}
	interned := map[string]uint32{}
	recs := make([]record, 0, len(sorted))
	fill := 0
	for _, e := range sorted {
		var r record
		fill = next.appendText(&r, e.Text, fill)
		r.id = e.ID
		r.tuple = next.intern(interned, e.Keys)
		recs = append(recs, r)
	}
	next.all = buildSeq(recs, gen)
	perTuple := make([]int, len(next.tuples))
	for _, r := range recs {
		perTuple[r.tuple]++
	}
	for f := range s.filters {
		// Group the records by the value of filter f, through their
		// tuples: each record is looked at, and copied, once.
		group := make([]int, len(next.tuples)) // of each tuple
		index := map[string]int{}
		var sizes []int
		for t, n := range perTuple {
			k := next.tuples[t][f]
			g, ok := index[k]
			if !ok {
				g = len(sizes)
				index[k] = g
				sizes = append(sizes, 0)
			}
			group[t] = g
			sizes[g] += n
		}
		groups := make([][]record, len(sizes))
		for g, n := range sizes {
			groups[g] = make([]record, 0, n)
		}
		for _, r := range recs {
			g := group[r.tuple]
			groups[g] = append(groups[g], r)
		}
		for k, g := range index {
			next.byKey[f] = append(next.byKey[f], keyed{key: k, seq: buildSeq(groups[g], gen)})
		}
		slices.SortFunc(next.byKey[f], func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	}
	if n := len(recs); n > 0 {
		next.next = nextID(recs[n-1].id)
	}
	if cur := s.snap.Load(); cur != nil {
		next.version = cur.version + 1
	}
	return built{sn: next, gen: gen, fill: fill, interned: interned}
}

// nextID returns the id that follows last, at least 1, or 0 when last is
// the largest id.
func nextID(last int64) int64 {
	if last == maxID {
		return 0
	}
	return max(last+1, 1)
}

// appendText copies text into the chunks of the snapshot, which must not
// be published yet, points r at it and returns the new fill of the last
// chunk.
func (sn *snapshot) appendText(r *record, text []byte, fill int) int {
	if len(sn.chunks) == 0 || fill+len(text) > cap(sn.chunks[len(sn.chunks)-1]) {
		sn.chunks = append(sn.chunks, make([]byte, 0, max(chunkSize, len(text))))
		fill = 0
	}
	last := len(sn.chunks) - 1
	copy(sn.chunks[last][fill:fill+len(text)], text)
	r.off, r.n, r.chunk = uint32(fill), uint32(len(text)), uint32(last)
	sn.bytes += int64(len(text))
	sn.longest = max(sn.longest, len(text))
	return fill + len(text)
}

// intern returns the index of the tuple of keys, adding it to the
// snapshot, which must not be published yet, if it is new.
func (sn *snapshot) intern(interned map[string]uint32, keys []string) uint32 {
	joined := tupleKey(keys)
	if i, ok := interned[joined]; ok {
		return i
	}
	i := uint32(len(sn.tuples))
	sn.tuples = append(sn.tuples, slices.Clone(keys))
	interned[joined] = i
	return i
}

// tupleKey joins filter keys into one map key; most resources have one
// filter, whose key is its own.
func tupleKey(keys []string) string {
	if len(keys) == 1 {
		return keys[0]
	}
	return strings.Join(keys, "\x00\x00")
}

func (sn *snapshot) text(r record) []byte {
	c := sn.chunks[r.chunk]
	return c[r.off : r.off+r.n : r.off+r.n]
}

// next returns a copy of the current snapshot for a write to change.
// Callers hold s.mu.
func (s *Store) nextSnapshot() *snapshot {
	cur := s.snap.Load()
	next := *cur
	next.version++
	return &next
}

// Add stores a new item under the next id and returns its entry. build
// makes the entry of the item for the id it is given; it runs under the
// store's lock, so it should be quick.
func (s *Store) Add(build func(id int64) (Entry, error)) (Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.snap.Load()
	if cur.all.n >= math.MaxInt32 {
		return Entry{}, ErrStoreFull
	}
	if cur.next == 0 {
		return Entry{}, ErrIDsExhausted
	}
	id := cur.next
	e, err := build(id)
	if err != nil {
		return Entry{}, err
	}
	if len(e.Keys) != s.filters {
		return Entry{}, fmt.Errorf("%d filter keys, want %d", len(e.Keys), s.filters)
	}
	if s.limits.full(cur.all.n+1, cur.bytes+int64(len(e.Text))) {
		return Entry{}, fmt.Errorf("%w: it holds %d %s in %d bytes, and may hold at most %d %s and %d bytes",
			ErrStoreFull, cur.all.n, s.name, cur.bytes, s.limits.MaxItems, s.name, s.limits.MaxBytes)
	}
	next := s.nextSnapshot()
	r := record{id: id}
	s.fill = next.appendText(&r, e.Text, s.fill)
	r.tuple = next.intern(s.interned, e.Keys)
	next.all = next.all.appended(r, s.gen)
	s.index(next, r, true)
	next.next = nextID(id)
	s.snap.Store(next)
	e.ID = id
	return e, nil
}

// index adds r to (add) or removes it from the sequences of its filter
// keys in next.
func (s *Store) index(next *snapshot, r record, add bool) {
	if s.filters == 0 {
		return
	}
	keys := next.tuples[r.tuple]
	byKey := make([][]keyed, len(next.byKey))
	copy(byKey, next.byKey)
	for f, k := range keys {
		list := byKey[f]
		i, found := slices.BinarySearchFunc(list, k, func(e keyed, k string) int { return strings.Compare(e.key, k) })
		var q seq
		if found {
			q = list[i].seq
		}
		if add {
			q = q.with(r, s.gen)
		} else {
			q, _ = q.without(r.id, s.gen)
		}
		list = append(make([]keyed, 0, len(list)+1), list...)
		switch {
		case found && q.n == 0:
			list = slices.Delete(list, i, i+1)
		case found:
			list[i].seq = q
		case add:
			list = slices.Insert(list, i, keyed{key: k, seq: q})
		}
		byKey[f] = list
	}
	next.byKey = byKey
}

// Put replaces the item of e's id with e. It returns false, changing
// nothing, if the store has no item of that id.
func (s *Store) Put(e Entry) (bool, error) {
	if len(e.Keys) != s.filters {
		return false, fmt.Errorf("%d filter keys, want %d", len(e.Keys), s.filters)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.snap.Load()
	old, ok := cur.all.find(e.ID)
	if !ok {
		return false, nil
	}
	if s.limits.full(cur.all.n, cur.bytes-int64(old.n)+int64(len(e.Text))) {
		return false, fmt.Errorf("%w: it holds %d bytes of %s, and may hold at most %d", ErrStoreFull, cur.bytes, s.name, s.limits.MaxBytes)
	}
	next := s.nextSnapshot()
	s.index(next, old, false)
	r := record{id: e.ID}
	s.fill = next.appendText(&r, e.Text, s.fill)
	r.tuple = next.intern(s.interned, e.Keys)
	next.all, _ = next.all.replaced(r, s.gen)
	s.index(next, r, true)
	next.bytes -= int64(old.n)
	next.dead += int64(old.n)
	s.snap.Store(s.compacted(next))
	return true, nil
}

// Delete removes the item of id, and reports whether there was one.
func (s *Store) Delete(id int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.snap.Load()
	old, ok := cur.all.find(id)
	if !ok {
		return false
	}
	next := s.nextSnapshot()
	s.index(next, old, false)
	next.all, _ = next.all.without(id, s.gen)
	next.bytes -= int64(old.n)
	next.dead += int64(old.n)
	s.snap.Store(s.compacted(next))
	return true
}

// compactAt is the amount of dead text past which a write compacts the
// store, when there is also more dead text than live.
const compactAt = 64 << 20

// compacted returns next, or a copy of it without the dead text when that
// has grown past compactAt and past the live text. Callers hold s.mu.
func (s *Store) compacted(next *snapshot) *snapshot {
	if next.dead < compactAt || next.dead < next.bytes {
		return next
	}
	entries := make([]Entry, 0, next.all.n)
	next.all.each(0, 0, func(r record) bool {
		entries = append(entries, Entry{ID: r.id, Text: next.text(r), Keys: next.tuples[r.tuple]})
		return true
	})
	compact := s.adopt(s.build(entries, s.gen+1))
	compact.version, compact.next = next.version, next.next
	return compact
}

// Mark is a state of the store to return to with Restore.
type Mark struct{ sn *snapshot }

// Mark returns the current state of the store. It costs nothing: states
// share their memory.
func (s *Store) Mark() Mark { return Mark{s.snap.Load()} }

// Restore returns the store to the state of m. Items added since are
// gone, items changed or removed since are back as they were, and ids
// are given from where they were given then.
func (s *Store) Restore(m Mark) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := m.sn
	cur := s.snap.Load()
	// Later snapshots wrote past the ends of old's slices, and readers
	// may still hold them. A new generation makes the next appends go to
	// new memory, and clipped capacities do the same for the tuples and
	// the chunks.
	s.gen++
	next := *old
	next.tuples = slices.Clip(old.tuples)
	next.chunks = slices.Clip(old.chunks)
	next.version = cur.version + 1
	s.fill = math.MaxInt32 // never fits: the next text starts a chunk
	s.interned = make(map[string]uint32, len(next.tuples))
	for i, t := range next.tuples {
		s.interned[tupleKey(t)] = uint32(i)
	}
	s.snap.Store(&next)
}

// Version returns a number that grows with every write to the store.
func (s *Store) Version() uint64 { return s.snap.Load().version }

// Bytes returns the length of the JSON text of all the items together.
func (s *Store) Bytes() int64 { return s.snap.Load().bytes }

// Len returns the number of items in the store.
func (s *Store) Len() int { return s.snap.Load().all.n }

// Lookup returns the JSON text and the filter keys of the item of id. The
// text and keys are the store's own: the caller must not change them.
func (s *Store) Lookup(id int64) (text []byte, keys []string, ok bool) {
	sn := s.snap.Load()
	r, ok := sn.all.find(id)
	if !ok {
		return nil, nil, false
	}
	return sn.text(r), sn.tuples[r.tuple], true
}

// Entries returns a copy of every item in the store, ordered by id.
func (s *Store) Entries() []Entry {
	sn := s.snap.Load()
	out := make([]Entry, 0, sn.all.n)
	sn.all.each(0, 0, func(r record) bool {
		out = append(out, Entry{ID: r.id, Text: slices.Clone(sn.text(r)), Keys: slices.Clone(sn.tuples[r.tuple])})
		return true
	})
	return out
}

// Export writes every item in the store as a fixture, a JSON array of one
// item a line, from one consistent state, and returns the version of that
// state.
func (s *Store) Export(w io.Writer) (version uint64, err error) {
	sn := s.snap.Load()
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("[")
	first := true
	sn.all.each(0, 0, func(r record) bool {
		if !first {
			bw.WriteString(",")
		}
		first = false
		bw.WriteString("\n  ")
		bw.Write(sn.text(r))
		return true
	})
	bw.WriteString("\n]\n")
	return sn.version, bw.Flush()
}
