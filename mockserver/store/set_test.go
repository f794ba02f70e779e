package store

import (
	"slices"
	"testing"
)

// TestStoreSetsChosenIDs: Set stores an item under the id a client chose,
// in its place among the others, replaces the item of an id that is
// there, and Add then gives ids past the largest.
func TestStoreSetsChosenIDs(t *testing.T) {
	s := newTestStore(t, []testPet{{ID: 1, Name: "a", Status: "sold"}, {ID: 5, Name: "b", Status: "sold"}})
	for _, p := range []testPet{{ID: 3, Name: "c", Status: "sold"}, {ID: 10, Name: "d", Status: "pending"}} {
		if replaced, err := s.Set(p.entry()); replaced || err != nil {
			t.Fatalf("Set %d = %v, %v, want a new item", p.ID, replaced, err)
		}
	}
	if replaced, err := s.Set(testPet{ID: 5, Name: "b2", Status: "pending"}.entry()); !replaced || err != nil {
		t.Fatalf("Set 5 = %v, %v, want the item replaced", replaced, err)
	}
	added, err := addPet(s, "e", 1, "sold")
	if err != nil || added.ID != 11 {
		t.Fatalf("Add after Set 10 = %d, %v, want 11", added.ID, err)
	}
	var ids []int64
	var names []string
	for _, p := range all(t, s) {
		ids, names = append(ids, p.ID), append(names, p.Name)
	}
	if !slices.Equal(ids, []int64{1, 3, 5, 10, 11}) || !slices.Equal(names, []string{"a", "c", "b2", "d", "e"}) {
		t.Errorf("after the sets, pets %v %v, want ids 1 3 5 10 11, 5 replaced", ids, names)
	}
	sold, _, _ := page(t, s, statusPage(0, 10, "sold"))
	pending, _, _ := page(t, s, statusPage(0, 10, "pending"))
	if len(sold) != 3 || len(pending) != 2 || pending[0].ID != 5 || pending[1].ID != 10 {
		t.Errorf("sold %v, pending %v: want 1 3 11 and 5 10", sold, pending)
	}
}
