package store

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// ErrIDsExhausted is returned by Store.Add when the largest id has been
// given, so no further id can be assigned.
var ErrIDsExhausted = errors.New("no id left to assign")

// nextSnapshot returns a copy of the current snapshot for a write to
// change.
// Callers hold s.mu.
func (s *Store) nextSnapshot() *snapshot {
	cur := s.snap.Load()
	next := *cur
	next.version++
	return &next
}

// Add stores a new item under the next id and returns its entry. build
// makes the entry of the item for the id it is given; it runs under the
// store's lock, so it should be quick. An entry whose Name another item
// has is refused with ErrNameTaken, and one the tap refuses (see SetTap)
// with its error.
func (s *Store) Add(build func(id int64) (Entry, error)) (Entry, error) {
	s.mu.Lock()
	if h := s.heir; h != nil {
		s.mu.Unlock()
		return h.add(build)
	}
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
	if e.Name != "" {
		if other, ok := cur.names.id(e.Name); ok {
			if _, held := cur.all.find(other); held {
				return Entry{}, fmt.Errorf("%w: %q is the name of item %d", ErrNameTaken, e.Name, other)
			}
		}
	}
	if s.limits.full(cur.all.n+1, cur.bytes+int64(len(e.Text))) {
		return Entry{}, fmt.Errorf("%w: it holds %d %s in %d bytes, and may hold at most %d %s and %d bytes",
			ErrStoreFull, cur.all.n, s.name, cur.bytes, s.limits.MaxItems, s.name, s.limits.MaxBytes)
	}
	e.ID = id
	if err := s.tell(Write{Kind: WriteAdd, Entry: e, Next: nextID(id), Before: Mark{cur}}); err != nil {
		return Entry{}, err
	}
	next := s.nextSnapshot()
	r := record{id: id}
	s.fill = next.appendText(&r, e.Text, s.fill, int(min(next.bytes, chunkSize)))
	r.tuple = next.intern(s.interned, e.Keys)
	next.all = next.all.appended(r, s.gen)
	s.index(next, r, true)
	if e.Name != "" {
		next.names = cur.names.with(e.Name, id, func(id int64) bool { _, held := next.all.find(id); return held })
	}
	next.next = nextID(id)
	s.snap.Store(next)
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

// Put replaces the item of e's id with e, which keeps the item's name. It
// returns false, changing nothing, if the store has no item of that id.
func (s *Store) Put(e Entry) (bool, error) {
	if len(e.Keys) != s.filters {
		return false, fmt.Errorf("%d filter keys, want %d", len(e.Keys), s.filters)
	}
	s.mu.Lock()
	if h := s.heir; h != nil {
		s.mu.Unlock()
		return h.put(e, false)
	}
	defer s.mu.Unlock()
	return s.put(e)
}

// put is Put, for a caller that holds s.mu.
func (s *Store) put(e Entry) (bool, error) {
	cur := s.snap.Load()
	old, ok := cur.all.find(e.ID)
	if !ok {
		return false, nil
	}
	if s.limits.full(cur.all.n, cur.bytes-int64(old.n)+int64(len(e.Text))) {
		return false, fmt.Errorf("%w: it holds %d bytes of %s, and may hold at most %d", ErrStoreFull, cur.bytes, s.name, s.limits.MaxBytes)
	}
	if err := s.tell(Write{Kind: WritePut, Entry: Entry{ID: e.ID, Text: e.Text, Keys: e.Keys}, Next: cur.next, Before: Mark{cur}}); err != nil {
		return false, err
	}
	next := s.nextSnapshot()
	s.index(next, old, false)
	r := record{id: e.ID}
	s.fill = next.appendText(&r, e.Text, s.fill, int(min(next.bytes, chunkSize)))
	r.tuple = next.intern(s.interned, e.Keys)
	next.all, _ = next.all.replaced(r, s.gen)
	s.index(next, r, true)
	next.bytes -= int64(old.n)
	next.dead += int64(old.n)
	s.snap.Store(s.compacted(next))
	return true, nil
}

// Set stores e under its own id, which a client chose: in place of the
// item of that id, which keeps its name, as Put does, or as a new item,
// past whose id Add then gives ids; e's Name is not read. It reports
// whether an item was replaced.
func (s *Store) Set(e Entry) (replaced bool, err error) {
	if len(e.Keys) != s.filters {
		return false, fmt.Errorf("%d filter keys, want %d", len(e.Keys), s.filters)
	}
	s.mu.Lock()
	if h := s.heir; h != nil {
		s.mu.Unlock()
		return h.put(e, true)
	}
	defer s.mu.Unlock()
	cur := s.snap.Load()
	if _, held := cur.all.find(e.ID); held {
		return s.put(e)
	}
	if cur.all.n >= math.MaxInt32 || s.limits.full(cur.all.n+1, cur.bytes+int64(len(e.Text))) {
		return false, fmt.Errorf("%w: it holds %d %s in %d bytes, and may hold at most %d %s and %d bytes",
			ErrStoreFull, cur.all.n, s.name, cur.bytes, s.limits.MaxItems, s.name, s.limits.MaxBytes)
	}
	after := cur.next
	if after != 0 && e.ID >= after {
		after = nextID(e.ID)
	}
	if err := s.tell(Write{Kind: WriteAdd, Entry: Entry{ID: e.ID, Text: e.Text, Keys: e.Keys}, Next: after, Before: Mark{cur}}); err != nil {
		return false, err
	}
	next := s.nextSnapshot()
	r := record{id: e.ID}
	s.fill = next.appendText(&r, e.Text, s.fill, int(min(next.bytes, chunkSize)))
	r.tuple = next.intern(s.interned, e.Keys)
	next.all = next.all.with(r, s.gen)
	s.index(next, r, true)
	next.next = after
	s.snap.Store(next)
	return false, nil
}

// Delete removes the item of id, and reports whether there was one. It
// fails with the tap's refusal (see SetTap), changing nothing.
func (s *Store) Delete(id int64) (bool, error) {
	s.mu.Lock()
	if h := s.heir; h != nil {
		s.mu.Unlock()
		if h.to == nil {
			return false, ErrRetired
		}
		return h.to.Delete(id)
	}
	defer s.mu.Unlock()
	cur := s.snap.Load()
	old, ok := cur.all.find(id)
	if !ok {
		return false, nil
	}
	if err := s.tell(Write{Kind: WriteDelete, Entry: Entry{ID: id}, Next: cur.next, Before: Mark{cur}}); err != nil {
		return false, err
	}
	next := s.nextSnapshot()
	s.index(next, old, false)
	next.all, _ = next.all.without(id, s.gen)
	next.bytes -= int64(old.n)
	next.dead += int64(old.n)
	s.snap.Store(s.compacted(next))
	return true, nil
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
	compact.version, compact.next, compact.names = next.version, next.next, next.names
	return compact
}
