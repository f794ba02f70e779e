package store

import (
	"bytes"
	"cmp"
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
// handed over to keeps. Nothing is changed. A store that retired (a Move
// with no To) refuses its writes with ErrRetired.
var ErrUnfit = errors.New("the item does not fit the store its writes go to now")

// Move is the handover of one store to another: see HandOver.
type Move struct {
	// From is the store handed over, or nil for a To that takes Also
	// alone; To is the store it is handed to, or nil for a From that
	// retires, its items all left out (see Handed).
	From, To *Store
	// Convert returns the entry that To keeps in place of an entry of
	// From, or, for an item To cannot keep, which is left out, why. It
	// must not change the text it is given, which is From's own, and
	// should be quick: a write to From waits for it. The id of the entry
	// it returns is set to that of the entry it was given.
	Convert func(Entry) (Entry, string)
	// Also are entries To takes besides From's, such as items kept
	// elsewhere that fit it again; one whose id or name a converted item
	// has is left out.
	Also []Entry
	// Next, when not 0 and past the id From gives next, is the id To
	// gives next.
	Next int64
}

// Refusal is an entry a handover left out, and why.
type Refusal struct {
	Entry Entry
	Why   string
}

// Handed is what a move of HandOver left out: the items of From that
// Convert refused, or all of them for a To of nil; the entries of Also To
// could not take; and the id From gave next.
type Handed struct {
	Left, Untaken []Refusal
	Next          int64
}

// heir is where the writes of a store go once it has been handed over; a
// store that retired has one whose to is nil.
type heir struct {
	to      *Store
	convert func(Entry) (Entry, string)
}

// HandOver moves the items of each From store to its To store, through
// Convert, names and all, with the entries of Also, and makes every later
// write to a From store a write to its To store: Add, Put, Set and
// Delete, their entries converted; Replace fails with ErrRetired, and
// Restore does nothing. A From with no To retires: its later writes fail
// with ErrRetired. The ids To gives go on from where From gave them, or
// from Next when that is later, so that no id of a removed item is given
// again.
//
// While it runs, writes to the From stores wait, for as long as it takes
// to compare their items with a snapshot converted before they waited, and
// to convert those written since; reads of them go on. Once every To
// store holds its items, and before any waiting write goes on, it calls
// publish with what each move left out, with which the caller makes the
// To stores the ones readers read. The To stores must not be written to
// by anything else until HandOver returns; the From stores and the To
// stores are all distinct.
//
// It returns what each move left out. It fails, changing nothing and
// calling nothing, if a From store was handed over already, or if a To
// store cannot hold its items within its limits.
func HandOver(moves []Move, publish func([]Handed)) ([]Handed, error) {
	// The items are converted first from a snapshot, without a lock, and
	// then, with writes held, only those written since: a large store
	// holds its writers for the time it takes to compare their items, not
	// to convert them.
	early := make([]conversion, len(moves))
	for i, m := range moves {
		if m.From != nil {
			early[i] = m.convert(m.From.snap.Load(), nil)
		}
	}
	// No other code holds two stores' locks, and a write to a store that
	// was handed over lets go of its lock before it writes to its heir,
	// so taking them in any order cannot deadlock.
	for _, m := range moves {
		if m.From != nil {
			m.From.mu.Lock()
			defer m.From.mu.Unlock()
		}
	}
	handed := make([]Handed, len(moves))
	converted := make([][]Entry, len(moves))
	for i, m := range moves {
		if m.From == nil {
			continue
		}
		if m.From.heir != nil {
			return nil, fmt.Errorf("%s: %w", m.From.name, ErrRetired)
		}
		c := early[i]
		if sn := m.From.snap.Load(); sn != c.sn {
			c = m.convert(sn, &early[i])
		}
		converted[i], handed[i].Left = c.kept()
		handed[i].Next = c.sn.next
	}
	for _, m := range moves {
		if m.To != nil {
			m.To.mu.Lock()
			defer m.To.mu.Unlock()
		}
	}
	next := make([]built, len(moves))
	for i, m := range moves {
		to := m.To
		if to == nil {
			continue
		}
		if to.heir != nil {
			return nil, fmt.Errorf("%s: %w", to.name, ErrRetired)
		}
		entries, untaken := with(converted[i], m.Also)
		handed[i].Untaken = untaken
		if _, err := to.sortEntries(entries); err != nil {
			return nil, fmt.Errorf("%s: %w", to.name, err)
		}
		b := to.build(entries, to.gen+1)
		if to.limits.full(b.sn.all.n, b.sn.bytes) {
			return nil, fmt.Errorf("%w: %d %s in %d bytes pass the limits of %d %s and %d bytes",
				ErrStoreFull, b.sn.all.n, to.name, b.sn.bytes, to.limits.MaxItems, to.name, to.limits.MaxBytes)
		}
		raise := func(from int64) {
			if from == 0 || b.sn.next != 0 && from > b.sn.next {
				b.sn.next = from
			}
		}
		if m.From != nil {
			raise(handed[i].Next)
		}
		if m.Next != 0 {
			raise(m.Next)
		}
		next[i] = b
	}
	for i, m := range moves {
		if m.To != nil {
			m.To.snap.Store(m.To.adopt(next[i]))
		}
		if m.From != nil {
			m.From.heir = &heir{to: m.To, convert: m.Convert}
		}
	}
	if publish != nil {
		publish(handed)
	}
	return handed, nil
}

// with returns converted with the entries of also whose ids and names no
// converted entry has, in order of id, and those of also it left out.
func with(converted, also []Entry) ([]Entry, []Refusal) {
	if len(also) == 0 {
		return converted, nil
	}
	ids := make(map[int64]bool, len(converted))
	names := map[string]bool{}
	for _, e := range converted {
		ids[e.ID] = true
		if e.Name != "" {
			names[e.Name] = true
		}
	}
	out := slices.Clone(converted)
	var left []Refusal
	for _, e := range also {
		switch {
		case ids[e.ID]:
			left = append(left, Refusal{Entry: e, Why: fmt.Sprintf("id %d is another item's", e.ID)})
		case e.Name != "" && names[e.Name]:
			left = append(left, Refusal{Entry: e, Why: fmt.Sprintf("%s is another item's id", e.Name)})
		default:
			out = append(out, e)
			ids[e.ID] = true
			if e.Name != "" {
				names[e.Name] = true
			}
		}
	}
	slices.SortFunc(out, func(a, b Entry) int { return cmp.Compare(a.ID, b.ID) })
	return out, left
}

// conversion is the items of one snapshot of a From store, converted.
type conversion struct {
	sn   *snapshot
	from []Entry  // the snapshot's entries, in order of id, its own text
	to   []Entry  // what Convert made of each
	why  []string // why Convert refused each; "" for one it kept
}

// convert converts the items of sn. Those that an earlier conversion,
// when not nil, holds as they are in sn are not converted again. A move
// with no To converts nothing: every item is left out.
func (m Move) convert(sn *snapshot, earlier *conversion) conversion {
	c := conversion{sn: sn, from: make([]Entry, 0, sn.all.n), to: make([]Entry, 0, sn.all.n), why: make([]string, 0, sn.all.n)}
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
				c.from, c.to, c.why = append(c.from, e), append(c.to, earlier.to[j]), append(c.why, earlier.why[j])
				return true
			}
		}
		if m.To == nil {
			c.from, c.to, c.why = append(c.from, e), append(c.to, Entry{}), append(c.why, "its store was retired")
			return true
		}
		to, why := m.Convert(e)
		to.ID = r.id
		c.from, c.to, c.why = append(c.from, e), append(c.to, to), append(c.why, why)
		return true
	})
	return c
}

// kept returns the entries Convert kept, and those it left out.
func (c conversion) kept() (out []Entry, left []Refusal) {
	out = make([]Entry, 0, len(c.to))
	for i, e := range c.to {
		if c.why[i] != "" {
			left = append(left, Refusal{Entry: c.from[i], Why: c.why[i]})
			continue
		}
		out = append(out, e)
	}
	return out, left
}

// add is Add of a store handed over to h.to: the entry build makes is
// converted and added there. It returns the entry as build made it, with
// the id it was given.
func (h *heir) add(build func(id int64) (Entry, error)) (Entry, error) {
	if h.to == nil {
		return Entry{}, ErrRetired
	}
	var made Entry
	e, err := h.to.Add(func(id int64) (Entry, error) {
		e, err := build(id)
		if err != nil {
			return Entry{}, err
		}
		e.ID = id
		made = e
		c, why := h.convert(e)
		if why != "" {
			return Entry{}, fmt.Errorf("%w: %s", ErrUnfit, why)
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
	if h.to == nil {
		return false, ErrRetired
	}
	c, why := h.convert(e)
	if why != "" {
		return false, fmt.Errorf("%w: %s", ErrUnfit, why)
	}
	c.ID = e.ID
	if set {
		return h.to.Set(c)
	}
	return h.to.Put(c)
}
