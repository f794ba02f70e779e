package store

import "errors"

// ErrStoreFull is returned when a write would take a store past its
// limits, or Add past math.MaxInt32 items, the most a store holds.
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

// SetLimits sets the limits of the store. Writes that would pass them fail
// with ErrStoreFull; what the store holds already stays.
func (s *Store) SetLimits(l Limits) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limits = l
}
