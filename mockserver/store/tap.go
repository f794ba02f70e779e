package store

// A store tells its tap of every write before readers see it, under the
// lock that orders the store's writes: a caller that keeps the items
// elsewhere too, such as a log on disk, is told the writes of a store in
// the order they are made, and may refuse one it cannot keep. A refused
// write fails with the tap's error and changes nothing.
//
// A write is told as what it leaves, not as what was asked: an Add with
// the id the store gave and the name the item has, a Put or a Set with
// the entry stored, a Replace, a Restore or a compaction of nothing but
// the store's own memory as the whole state that follows. What a caller
// keeps of the writes is then a description of the store's items that
// needs no store to replay.

// WriteKind says what a write did.
type WriteKind uint8

const (
	// WriteAdd added an item: Write.Entry, with the id it was given and
	// its name.
	WriteAdd WriteKind = iota + 1
	// WritePut replaced the item of Write.Entry's id with it; the item
	// keeps its name, which Entry leaves out.
	WritePut
	// WriteDelete removed the item of Write.Entry's id.
	WriteDelete
	// WriteReplace replaced every item: Write.State is the state that
	// follows, a Replace's or a Restore's.
	WriteReplace
)

// Write is one write of a store, as its tap is told of it.
type Write struct {
	Kind WriteKind
	// Entry is the item written, or, for WriteDelete, the id removed.
	// Its Text is the caller's or the store's: a tap that keeps it past
	// its return copies it.
	Entry Entry
	// Next is the id Add gives after the write.
	Next int64
	// Before is the state of the store before the write, to return to
	// with Revert if the write cannot be kept.
	Before Mark
	// State is, for WriteReplace, the state of the store after it; it
	// may be read at any time, as a Mark may.
	State Mark
}

// SetTap makes tap be told of every later write to the store, before
// readers see it, under the store's lock: it should be quick, and must not
// call the store. An error it returns fails the write, which changes
// nothing. nil, the default, tells nothing. A store handed over to
// another (see HandOver) tells nothing: its writes are the other store's,
// and are told to that store's tap.
func (s *Store) SetTap(tap func(Write) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tap = tap
}

// tell tells the tap of w, if there is one, and returns its refusal.
// Callers hold s.mu, and have changed nothing yet.
func (s *Store) tell(w Write) error {
	if s.tap == nil {
		return nil
	}
	return s.tap(w)
}

// Revert returns the store to the items of m, for a caller whose tap
// could not keep the writes made since m: items added since are gone, and
// items changed or removed since are back, as after Restore, but ids go on
// from where they are given now, so that an id a reader may have seen is
// not given to another item. The tap is not told.
func (s *Store) Revert(m Mark) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.heir != nil {
		return
	}
	next := s.snap.Load().next
	if then := m.sn.next; next != 0 && (then == 0 || then > next) {
		next = then
	}
	s.adoptRestored(s.restored(m, next))
}

// Len returns the number of items of the state.
func (m Mark) Len() int { return m.sn.all.n }

// Next returns the id Add gives next in the state.
func (m Mark) Next() int64 { return m.sn.next }

// Each calls visit with each item of the state, in order of id, with its
// name, until it returns false. The texts and keys are the store's own: a
// caller must not change them, and may keep them.
func (m Mark) Each(visit func(Entry) bool) {
	sn := m.sn
	named := sn.names.byID()
	sn.all.each(0, 0, func(r record) bool {
		return visit(Entry{ID: r.id, Text: sn.text(r), Keys: sn.tuples[r.tuple], Name: named[r.id]})
	})
}

// Hold calls f with every one of stores locked, in their order, so that no
// write to them is under way, and none is made until f returns, nor told
// to their taps. A caller that holds locks of stores of its own must take
// them in the same order. f must not write to the stores.
func Hold(stores []*Store, f func()) {
	for _, s := range stores {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	f()
}
