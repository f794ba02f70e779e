package store

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// replay is what a tap keeps of a store's writes: the items they leave,
// by id, and the next id, as a log of them on disk would rebuild them.
type replay struct {
	items map[int64]Entry
	next  int64
}

// tell applies w to the replay.
func (r *replay) tell(w Write) error {
	switch w.Kind {
	case WriteAdd:
		r.items[w.Entry.ID] = Entry{ID: w.Entry.ID, Text: slices.Clone(w.Entry.Text), Keys: slices.Clone(w.Entry.Keys), Name: w.Entry.Name}
	case WritePut:
		e := Entry{ID: w.Entry.ID, Text: slices.Clone(w.Entry.Text), Keys: slices.Clone(w.Entry.Keys), Name: r.items[w.Entry.ID].Name}
		r.items[w.Entry.ID] = e
	case WriteDelete:
		delete(r.items, w.Entry.ID)
	case WriteReplace:
		r.items = map[int64]Entry{}
		w.State.Each(func(e Entry) bool { r.items[e.ID] = e; return true })
		if w.State.Next() != w.Next {
			return fmt.Errorf("a replace tells next %d, its state %d", w.Next, w.State.Next())
		}
	default:
		return fmt.Errorf("a write of kind %d", w.Kind)
	}
	r.next = w.Next
	return nil
}

// check fails the test unless the replay holds what s holds.
func (r *replay) check(tb testing.TB, s *Store, step int) {
	tb.Helper()
	held := s.Entries()
	if len(held) != len(r.items) {
		tb.Fatalf("step %d: the store holds %d items, the replay of its writes %d", step, len(held), len(r.items))
	}
	for _, e := range held {
		got, ok := r.items[e.ID]
		if !ok || !bytes.Equal(got.Text, e.Text) || !slices.Equal(got.Keys, e.Keys) || got.Name != e.Name {
			tb.Fatalf("step %d: item %d is %s %v %q, the replay has %s %v %q", step, e.ID, e.Text, e.Keys, e.Name, got.Text, got.Keys, got.Name)
		}
	}
	if next := s.snap.Load().next; next != r.next {
		tb.Fatalf("step %d: the store gives id %d next, the replay %d", step, next, r.next)
	}
}

// TestTapToldEveryWrite writes a store every way there is, at random, and
// replays what its tap was told: the replay must hold what the store
// holds, names and the next id included, after every step.
func TestTapToldEveryWrite(t *testing.T) {
	s := New("pets", 1)
	r := &replay{items: map[int64]Entry{}, next: 1}
	s.SetTap(r.tell)
	rnd := rand.New(rand.NewPCG(3, 4))
	start := s.Mark()
	for step := range 3000 {
		ids := make([]int64, 0, len(r.items))
		for id := range r.items {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		status := statuses[rnd.IntN(len(statuses))]
		switch op := rnd.IntN(20); {
		case op < 8:
			named := ""
			if rnd.IntN(3) == 0 {
				named = fmt.Sprintf("name-%d", step)
			}
			if _, err := s.Add(func(id int64) (Entry, error) {
				e := testPet{ID: id, Name: "p", Status: status}.entry()
				e.Name = named
				return e, nil
			}); err != nil {
				t.Fatal(err)
			}
		case op < 12 && len(ids) > 0:
			id := ids[rnd.IntN(len(ids))]
			if _, err := s.Put(testPet{ID: id, Name: fmt.Sprint("put ", step), Status: status}.entry()); err != nil {
				t.Fatal(err)
			}
		case op < 14:
			// An id held, or one never given: a removed item's id may
			// still name it (see names).
			id := r.next + int64(rnd.IntN(20))
			if len(ids) > 0 && rnd.IntN(2) == 0 {
				id = ids[rnd.IntN(len(ids))]
			}
			if _, err := s.Set(testPet{ID: id, Name: "set", Status: status}.entry()); err != nil {
				t.Fatal(err)
			}
		case op < 17 && len(ids) > 0:
			if _, err := s.Delete(ids[rnd.IntN(len(ids))]); err != nil {
				t.Fatal(err)
			}
		case op == 17:
			if err := s.Restore(start); err != nil {
				t.Fatal(err)
			}
		case op == 18:
			start = s.Mark()
		default:
			pets := []Entry{testPet{ID: 7, Name: "seven", Status: "sold"}.entry(), testPet{ID: 3, Name: "three"}.entry()}
			if err := s.Replace(pets); err != nil {
				t.Fatal(err)
			}
		}
		r.check(t, s, step)
	}
}

// TestTapRefusalChangesNothing refuses each kind of write: the write must
// fail with the tap's error, and the store hold what it held, and give the
// id it would have given.
func TestTapRefusalChangesNothing(t *testing.T) {
	refused := errors.New("cannot keep it")
	writes := []struct {
		name  string
		write func(s *Store, m Mark) error
	}{
		{"Add", func(s *Store, _ Mark) error { _, err := addPet(s, "Rex", 1, "sold"); return err }},
		{"Put", func(s *Store, _ Mark) error { _, err := s.Put(testPet{ID: 2, Name: "Max"}.entry()); return err }},
		{"Set of a new id", func(s *Store, _ Mark) error { _, err := s.Set(testPet{ID: 40, Name: "Max"}.entry()); return err }},
		{"Delete", func(s *Store, _ Mark) error { _, err := s.Delete(2); return err }},
		{"Replace", func(s *Store, _ Mark) error { return s.Replace(nil) }},
		{"Restore", func(s *Store, m Mark) error { return s.Restore(m) }},
	}
	for _, w := range writes {
		t.Run(w.name, func(t *testing.T) {
			s := newTestStore(t, []testPet{{ID: 1, Name: "a"}, {ID: 2, Name: "b"}})
			empty := Mark{&snapshot{byKey: make([][]keyed, 1), next: 1}}
			before := all(t, s)
			next := s.snap.Load().next
			s.SetTap(func(Write) error { return refused })
			if err := w.write(s, empty); !errors.Is(err, refused) {
				t.Fatalf("%s with a tap that refuses: %v, want its error", w.name, err)
			}
			if after := all(t, s); !slices.Equal(after, before) {
				t.Errorf("%s refused: the store holds %v, want %v", w.name, after, before)
			}
			s.SetTap(nil)
			p, err := addPet(s, "after", 1, "sold")
			if err != nil || p.ID != next {
				t.Errorf("Add after a refused %s: id %d, %v; want %d", w.name, p.ID, err, next)
			}
		})
	}
}

// TestRevertKeepsIDsGoing reverts a store to a mark: the items are those
// of the mark, but an id given since is not given again.
func TestRevertKeepsIDsGoing(t *testing.T) {
	s := newTestStore(t, []testPet{{ID: 1, Name: "a"}})
	m := s.Mark()
	told := 0
	s.SetTap(func(Write) error { told++; return nil })
	addPet(s, "b", 1, "sold")
	s.Put(testPet{ID: 1, Name: "changed"}.entry())
	told = 0
	s.Revert(m)
	if got := all(t, s); len(got) != 1 || got[0].Name != "a" {
		t.Errorf("after Revert the store holds %+v, want pet 1 as it was", got)
	}
	if told != 0 {
		t.Errorf("Revert told the tap %d writes, want none", told)
	}
	if p, _ := addPet(s, "c", 1, "sold"); p.ID != 3 {
		t.Errorf("Add after Revert gave id %d, want 3: id 2 was given before", p.ID)
	}
}
