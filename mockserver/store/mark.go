package store

import (
	"math"
	"slices"
)

// Mark is a state of the store to return to with Restore. The memory of
// that state is kept while the Mark is.
type Mark struct{ sn *snapshot }

// Mark returns the current state of the store. It costs nothing: states
// share their memory.
func (s *Store) Mark() Mark { return Mark{s.snap.Load()} }

// Restore returns the store to the state of m. Items added since are
// gone, items changed or removed since are back as they were, and ids
// are given from where they were given then. Reads begun before, and
// page views taken before, still read the state they began with. It fails
// with the tap's refusal (see SetTap), changing nothing.
func (s *Store) Restore(m Mark) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.heir != nil {
		return nil
	}
	next := s.restored(m, m.sn.next)
	if err := s.tell(Write{Kind: WriteReplace, Next: next.next, Before: Mark{s.snap.Load()}, State: Mark{next}}); err != nil {
		return err
	}
	s.adoptRestored(next)
	return nil
}

// restored returns the snapshot that returns the store to m, with next
// as the id Add gives next, for the caller, which holds s.mu, to adopt.
func (s *Store) restored(m Mark, nextID int64) *snapshot {
	next := *m.sn
	// Later snapshots wrote past the ends of old's slices, and readers
	// may still hold them. A new generation makes the next appends go to
	// new memory (see adoptRestored), and clipped capacities do the same
	// for the tuples and the chunks.
	next.tuples = slices.Clip(m.sn.tuples)
	next.chunks = slices.Clip(m.sn.chunks)
	next.version = s.snap.Load().version + 1
	next.next = nextID
	return &next
}

// adoptRestored makes the store's writes go on from next, a snapshot of
// restored, and publishes it. Callers hold s.mu.
func (s *Store) adoptRestored(next *snapshot) {
	s.gen++
	s.fill = math.MaxInt32 // never fits: the next text starts a chunk
	s.interned = make(map[string]uint32, len(next.tuples))
	for i, t := range next.tuples {
		s.interned[tupleKey(t)] = uint32(i)
	}
	s.snap.Store(next)
}
