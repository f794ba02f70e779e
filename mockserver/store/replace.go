package store

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Replace replaces every item in the store with entries, atomically. It
// fails, changing nothing, if two entries share an id or a name, an entry
// has the wrong number of filter keys, or they pass the limits, and with
// ErrRetired once the store has been handed over (see HandOver).
func (s *Store) Replace(entries []Entry) error {
	return ReplaceAll([]*Store{s}, [][]Entry{entries})
}

// ReplaceAll replaces the items of each store, all distinct, with its
// entries, as Replace does, all of them or none: if one store refuses its
// entries, or its tap the write (see SetTap), no store changes, though a
// tap told before the refusal is not told again. Readers see each store change at once,
// though not every store at the same instant.
func ReplaceAll(stores []*Store, entries [][]Entry) error {
	return ReplaceAllFrom(stores, entries, nil)
}

// ReplaceAllFrom is ReplaceAll, for a caller that restores items kept
// elsewhere: Add then gives each store ids from nexts[i] on, when that is
// past the largest id of its entries, so that an id given before, to an
// item since removed, is not given again; 0 gives none. nil nexts gives
// ids from the largest on.
func ReplaceAllFrom(stores []*Store, entries [][]Entry, nexts []int64) error {
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
		if s.heir != nil {
			return fmt.Errorf("%s: %w", s.name, ErrRetired)
		}
		b := s.build(sorted[i], s.gen+1)
		if s.limits.full(b.sn.all.n, b.sn.bytes) {
			return fmt.Errorf("%w: %d %s in %d bytes pass the limits of %d %s and %d bytes",
				ErrStoreFull, b.sn.all.n, s.name, b.sn.bytes, s.limits.MaxItems, s.name, s.limits.MaxBytes)
		}
		if nexts != nil {
			if from := nexts[i]; from == 0 || b.sn.next != 0 && from > b.sn.next {
				b.sn.next = from
			}
		}
		next[i] = b
	}
	for i, s := range stores {
		b := next[i].sn
		if err := s.tell(Write{Kind: WriteReplace, Next: b.next, Before: Mark{s.snap.Load()}, State: Mark{b}}); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
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
	var named map[string]bool
	for i, e := range sorted {
		if i > 0 && sorted[i-1].ID == e.ID {
			return nil, fmt.Errorf("id %d: used by two items", e.ID)
		}
		if len(e.Keys) != s.filters {
			return nil, fmt.Errorf("id %d: %d filter keys, want %d", e.ID, len(e.Keys), s.filters)
		}
		if e.Name == "" {
			continue
		}
		if named == nil {
			named = map[string]bool{}
		}
		if named[e.Name] {
			return nil, fmt.Errorf("name %q: used by two items", e.Name)
		}
		named[e.Name] = true
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
	left := 0 // bytes of text still to append
	for _, e := range sorted {
		left += len(e.Text)
	}
	for _, e := range sorted {
		var r record
		fill = next.appendText(&r, e.Text, fill, left)
		left -= len(e.Text)
		r.id = e.ID
		r.tuple = next.intern(interned, e.Keys)
		recs = append(recs, r)
		if e.Name != "" {
			if next.names == nil {
				next.names = &names{base: map[string]int64{}}
			}
			next.names.base[e.Name] = e.ID
		}
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
		next.byKey[f] = make([]keyed, 0, len(index))
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
