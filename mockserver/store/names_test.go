package store

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// namedEntry is an entry of a user known by its name, as a resource whose
// ids are strings keeps them.
func namedEntry(id int64, name string) Entry {
	return Entry{ID: id, Name: name, Text: []byte(fmt.Sprintf(`{"username":%q}`, name))}
}

// addNamed adds an item named name, and returns its id.
func addNamed(s *Store, name string) (int64, error) {
	e, err := s.Add(func(id int64) (Entry, error) { return namedEntry(id, name), nil })
	return e.ID, err
}

// wantNamed fails unless the store finds name as the item of id, or
// finds no item of it when id is 0.
func wantNamed(tb testing.TB, s *Store, name string, id int64) {
	tb.Helper()
	got, ok := s.ID(name)
	switch {
	case id == 0 && ok:
		tb.Errorf("ID(%q) = %d, want no item", name, got)
	case id != 0 && (!ok || got != id):
		tb.Errorf("ID(%q) = %d, %v, want %d", name, got, ok, id)
	}
}

func TestStoreFindsItemsByName(t *testing.T) {
	s := New("users", 0)
	if err := s.Replace([]Entry{namedEntry(1, "alice"), namedEntry(2, "bob")}); err != nil {
		t.Fatal(err)
	}
	wantNamed(t, s, "alice", 1)
	wantNamed(t, s, "bob", 2)
	wantNamed(t, s, "carol", 0)

	start := s.Mark()
	id, err := addNamed(s, "carol")
	if err != nil || id != 3 {
		t.Fatalf("Add carol = %d, %v, want 3", id, err)
	}
	wantNamed(t, s, "carol", 3)
	if _, err := addNamed(s, "alice"); !errors.Is(err, ErrNameTaken) {
		t.Errorf("Add of a second alice: err = %v, want ErrNameTaken", err)
	}
	if s.Len() != 3 {
		t.Errorf("a refused Add changed the store: %d items", s.Len())
	}

	// A name is free again once its item is removed, and goes to the
	// item that takes it next, never back to the removed one.
	s.Delete(1)
	wantNamed(t, s, "alice", 0)
	id, err = addNamed(s, "alice")
	if err != nil || id != 4 {
		t.Fatalf("Add alice after her removal = %d, %v, want 4", id, err)
	}
	wantNamed(t, s, "alice", 4)

	// Put keeps the name; the entry's own is not read.
	if found, err := s.Put(Entry{ID: 4, Text: []byte(`{"username":"alice","age":3}`), Name: "ignored"}); !found || err != nil {
		t.Fatalf("Put = %v, %v", found, err)
	}
	wantNamed(t, s, "alice", 4)
	wantNamed(t, s, "ignored", 0)

	got := map[int64]string{}
	for _, e := range s.Entries() {
		got[e.ID] = e.Name
	}
	if want := map[int64]string{2: "bob", 3: "carol", 4: "alice"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Entries' names = %v, want %v", got, want)
	}

	// Restore returns the names of its state: alice is item 1 again, and
	// carol, added since, is gone.
	s.Restore(start)
	wantNamed(t, s, "alice", 1)
	wantNamed(t, s, "carol", 0)
	if id, _ := addNamed(s, "dave"); id != 3 {
		t.Errorf("Add after Restore = %d, want 3", id)
	}
	wantNamed(t, s, "dave", 3)
}

func TestStoreRefusesANameTwice(t *testing.T) {
	s := New("users", 0)
	if err := s.Replace([]Entry{namedEntry(1, "alice")}); err != nil {
		t.Fatal(err)
	}
	err := s.Replace([]Entry{namedEntry(1, "bob"), namedEntry(2, "bob")})
	if err == nil || !strings.Contains(err.Error(), `name "bob": used by two items`) {
		t.Errorf("Replace of two bobs: err = %v, want one naming bob", err)
	}
	wantNamed(t, s, "alice", 1)
	wantNamed(t, s, "bob", 0)
}

// TestStoreNamesManyItems adds past the merges of the index of names, and
// removes some along the way: every name held must still be found, and
// no removed one.
func TestStoreNamesManyItems(t *testing.T) {
	s := New("users", 0)
	if err := s.Replace(nil); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{}
	for i := range 3000 {
		name := fmt.Sprintf("user-%d", i)
		id, err := addNamed(s, name)
		if err != nil {
			t.Fatal(err)
		}
		want[name] = id
		if i%7 == 3 {
			s.Delete(id)
			want[name] = 0
		}
	}
	for name, id := range want {
		wantNamed(t, s, name, id)
	}
}

// TestStoreCompactionKeepsNames replaces named items until their dead
// text is compacted away: the names must survive the new memory.
func TestStoreCompactionKeepsNames(t *testing.T) {
	s := New("users", 0)
	long := strings.Repeat("x", 1<<20)
	if err := s.Replace([]Entry{namedEntry(1, "alice"), namedEntry(2, "bob")}); err != nil {
		t.Fatal(err)
	}
	for range 70 {
		if _, err := s.Put(Entry{ID: 1, Text: []byte(`{"username":"alice","bio":"` + long + `"}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if s.snap.Load().dead >= compactAt {
		t.Fatal("the store did not compact: the test proves nothing")
	}
	wantNamed(t, s, "alice", 1)
	wantNamed(t, s, "bob", 2)
}
