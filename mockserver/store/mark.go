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
// page views taken before, still read the state they began with.
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
