package store

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
)

// A store is handed over when the items it keeps move to another store,
// such as when a server is rebuilt for a new version of its document: the
// new store takes the items, converted to what it keeps, and from then on
// every write made to the old store, by a writer that took it before the
// handover, is made to the new one instead. A write in flight then lands
// where readers will look for it, and no write is acknowledged that the
// new store lacks.

// ErrRetired is returned by Replace and ReplaceAll of a store that has
// been handed over (see HandOver): its items are another store's now.
var ErrRetired = errors.New("the store was handed over to another")

// ErrUnfit is returned by Add and Put of a store that has been handed
// over, when the entry cannot be converted to what the store it was
// handed over to keeps. Nothing is changed.
var ErrUnfit = errors.New("the item does not fit the store its writes go to now")

// Move is the handover of one store to another: see HandOver.
type Move struct {
	From, To *Store
	// Convert returns the entry that To keeps in place of an entry of
	// From, and false for an item To cannot keep, which is dropped. It
	// must not change the text it is given, which is From's own, and
	// should be quick: a write to From waits for it. The id of the entry
	// it returns is set to that of the entry it was given.
	Convert func(Entry) (Entry, bool)
}

// heir is where the writes of a store go once it has been handed over.
type heir struct {
	to      *Store
	convert func(Entry) (Entry, bool)
}

// HandOver moves the items of each From store to its To store, through
// Convert, names and all, and makes every later write to a From store a
// write to its To store: Add, Put, Set and Delete, their entries
// converted; Replace fails with
// ErrRetired, and Restore does nothing. The ids To gives go on from where
// From gave them, so that no id of a removed item is given again.
//
// While it runs, writes to the From stores wait, for as long as it takes
// to compare their items with a snapshot converted before they waited, and
// to convert those written since; reads of them go on.
// Once every To store holds its items, and before any waiting write goes
// on, it calls publish, with which the caller makes the To stores the ones
// readers read. The To stores must not be written to by anything else
// until HandOver returns; the From stores and the To stores are all
// distinct.
//
// It returns how many items of each move Convert dropped. It fails,
// changing nothing and calling nothing, if a From store was handed over
// already, or if a To store cannot hold its items within its limits.
func HandOver(moves []Move, publish func()) (dropped []int, err error) {
	// The items are converted first from a snapshot, without a lock, and
	// then, with writes held, only those written since: a large store
	// holds its writers for the time it takes to compare its items, not
	// to convert them.
	early := make([]conversion, len(moves))
	for i, m := range moves {
		early[i] = m.convert(m.From.snap.Load(), nil)
	}
	// No other code holds two stores' locks, and a write to a store that
	// was handed over lets go of its lock before it writes to its heir,
	// so taking them in any order cannot deadlock.
	for _, m := range moves {
		m.From.mu.Lock()
		defer m.From.mu.Unlock()
	}
	dropped = make([]int, len(moves))
	converted := make([][]Entry, len(moves))
	for i, m := range moves {
		if m.From.heir != nil {
			return nil, fmt.Errorf("%s: %w", m.From.name, ErrRetired)
		}
		c := early[i]
		if sn := m.From.snap.Load(); sn != c.sn {
			c = m.convert(sn, &early[i])
		}
		converted[i], dropped[i] = c.kept()
	}
	for _, m := range moves {
		m.To.mu.Lock()
		defer m.To.mu.Unlock()
	}
	next := make([]built, len(moves))
	for i, m := range moves {
		to := m.To
		if to.heir != nil {
			return nil, fmt.Errorf("%s: %w", to.name, ErrRetired)
		}
		// The entries are in order of id, as From keeps them.
		if _, err := to.sortEntries(converted[i]); err != nil {
			return nil, fmt.Errorf("%s: %w", to.name, err)
		}
		b := to.build(converted[i], to.gen+1)
		if to.limits.full(b.sn.all.n, b.sn.bytes) {
			return nil, fmt.Errorf("%w: %d %s in %d bytes pass the limits of %d %s and %d bytes",
				ErrStoreFull, b.sn.all.n, to.name, b.sn.bytes, to.limits.MaxItems, to.name, to.limits.MaxBytes)
		}
		if from := m.From.snap.Load().next; from == 0 || b.sn.next != 0 && from > b.sn.next {
			b.sn.next = from
		}
		next[i] = b
	}
	for i, m := range moves {
		m.To.snap.Store(m.To.adopt(next[i]))
		m.From.heir = &heir{to: m.To, convert: m.Convert}
	}
	if publish != nil {
		publish()
	}
	return dropped, nil
}

// conversion is the items of one snapshot of a From store, converted.
type conversion struct {
	sn   *snapshot
	from []Entry // the snapshot's entries, in order of id, its own text
	to   []Entry // what Convert made of each
	ok   []bool  // whether Convert kept each
}

// convert converts the items of sn. Those that an earlier conversion,
// when not nil, holds as they are in sn are not converted again.
func (m Move) convert(sn *snapshot, earlier *conversion) conversion {
	c := conversion{sn: sn, from: make([]Entry, 0, sn.all.n), to: make([]Entry, 0, sn.all.n), ok: make([]bool, 0, sn.all.n)}
	j := 0 // in earlier, whose ids ascend too
	named := sn.names.byID()
	sn.all.each(0, 0, func(r record) bool {
		e := Entry{ID: r.id, Text: sn.text(r), Keys: sn.tuples[r.tuple], Name: named[r.id]}
		if earlier != nil {
			for j < len(earlier.from) && earlier.from[j].ID < r.id {
				j++
			}
			if j < len(earlier.from) && earlier.from[j].ID == r.id && earlier.from[j].Name == e.Name &&
				bytes.Equal(earlier.from[j].Text, e.Text) && slices.Equal(earlier.from[j].Keys, e.Keys) {
				c.from, c.to, c.ok = append(c.from, e), append(c.to, earlier.to[j]), append(c.ok, earlier.ok[j])
				return true
			}
		}
		to, ok := m.Convert(e)
		to.ID = r.id
		c.from, c.to, c.ok = append(c.from, e), append(c.to, to), append(c.ok, ok)
		return true
	})
	return c
}

// kept returns the entries Convert kept, and how many it dropped.
func (c conversion) kept() (out []Entry, dropped int) {
	out = make([]Entry, 0, len(c.to))
	for i, e := range c.to {
		if !c.ok[i] {
			dropped++
			continue
		}
		out = append(out, e)
	}
	return out, dropped
}

// add is Add of a store handed over to h.to: the entry build makes is
// converted and added there. It returns the entry as build made it, with
// the id it was given.
func (h *heir) add(build func(id int64) (Entry, error)) (Entry, error) {
	var made Entry
	e, err := h.to.Add(func(id int64) (Entry, error) {
		e, err := build(id)
		if err != nil {
			return Entry{}, err
		}
		e.ID = id
		made = e
		c, ok := h.convert(e)
		if !ok {
			return Entry{}, ErrUnfit
		}
		c.ID = id
		return c, nil
	})
	if err != nil {
		return Entry{}, err
	}
	made.ID = e.ID
	return made, nil
}

// put is Put of a store handed over to h.to, or Set with set.
func (h *heir) put(e Entry, set bool) (bool, error) {
	c, ok := h.convert(e)
	if !ok {
		return false, ErrUnfit
	}
	c.ID = e.ID
	if set {
		return h.to.Set(c)
	}
	return h.to.Put(c)
}
