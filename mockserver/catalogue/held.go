package catalogue

import (
	"maps"
	"slices"
	"sync"
)

// An item the document that serves cannot take, as a version of it
// dropped its resource or tightened its schema, is held back rather than
// dropped: kept, as it was written, but not served, and served again by
// the first version that takes it (see Recover and TakeOver). A scenario
// that replaces the items of a resource, such as a reset or a fixture,
// lets go of those held back of it.

// Held is an item held back.
type Held struct {
	KeptItem
	// Reason says why the document that serves does not take it, such
	// as "pet: status: must be one of available, pending, sold".
	Reason string
}

// heldItems are the items held back of every resource, by name, each in
// order of id, and, of each resource the document that serves lacks, the
// id it gave next, so that a version that brings it back gives none of
// its ids again. A catalogue and those that take over from it share them.
type heldItems struct {
	mu   sync.Mutex // guards by and next
	by   map[string][]Held
	next map[string]int64
}

// drop lets go of the items held back of resource.
func (h *heldItems) drop(resource string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.by, resource)
}

// set makes by the items held back, and next the ids the resources the
// document lacks gave next.
func (h *heldItems) set(by map[string][]Held, next map[string]int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.by, h.next = by, next
}

// all returns the items held back and the ids given next, copied.
func (h *heldItems) all() (map[string][]Held, map[string]int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	by := make(map[string][]Held, len(h.by))
	for name, items := range h.by {
		by[name] = slices.Clone(items)
	}
	return by, maps.Clone(h.next)
}

// HeldNext returns the id each resource the document lacks, whose items
// are held back, gave next.
func (set *Resources) HeldNext() map[string]int64 {
	set.held.mu.Lock()
	defer set.held.mu.Unlock()
	return maps.Clone(set.held.next)
}

// Held returns the items held back, by resource name, each in order of
// id; their entries are shared, and must not be changed.
func (set *Resources) Held() map[string][]Held {
	set.held.mu.Lock()
	defer set.held.mu.Unlock()
	out := make(map[string][]Held, len(set.held.by))
	for name, items := range set.held.by {
		if len(items) > 0 {
			out[name] = slices.Clone(items)
		}
	}
	return out
}

// HeldCounts returns how many items are held back of each resource that
// has any, by name.
func (set *Resources) HeldCounts() map[string]int {
	set.held.mu.Lock()
	defer set.held.mu.Unlock()
	out := map[string]int{}
	for _, name := range slices.Sorted(maps.Keys(set.held.by)) {
		if n := len(set.held.by[name]); n > 0 {
			out[name] = n
		}
	}
	return out
}
