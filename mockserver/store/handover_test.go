package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"runtime"
	"slices"
	"sync"
	"testing"
)

// upper is a Convert that keeps the pets of every status but pending, with
// the status written in capitals, and a key of its own that the old store
// had no filter for: the name.
func upper(e Entry) (Entry, string) {
	if e.Keys[0] == "pending" {
		return Entry{}, "pending"
	}
	var p testPet
	if err := json.Unmarshal(e.Text, &p); err != nil {
		panic(err)
	}
	text := bytes.Replace(e.Text, []byte(`"status":"`+p.Status+`"`), []byte(`"status":"`+string(bytes.ToUpper([]byte(p.Status)))+`"`), 1)
	return Entry{ID: e.ID, Text: text, Keys: []string{e.Keys[0], p.Name}}, ""
}

func TestHandOverConvertsAndDrops(t *testing.T) {
	from := newTestStore(t, []testPet{
		{ID: 1, Name: "a", Status: "sold"},
		{ID: 2, Name: "b", Status: "pending"},
		{ID: 3, Name: "c", Status: "available"},
	})
	to := New("pets", 2)
	published := false
	handed, err := HandOver([]Move{{From: from, To: to, Convert: upper}}, func([]Handed) {
		published = true
		if to.Len() != 2 {
			t.Errorf("at publish, the new store holds %d items, want 2", to.Len())
		}
	})
	if err != nil || !published || len(handed[0].Left) != 1 || handed[0].Left[0].Entry.ID != 2 || handed[0].Left[0].Why != "pending" {
		t.Fatalf("HandOver = %+v, %v (published %v), want pet 2 left out, saying why (published)", handed, err, published)
	}
	got := all(t, to)
	want := []testPet{{ID: 1, Name: "a", Status: "SOLD"}, {ID: 3, Name: "c", Status: "AVAILABLE"}}
	if !slices.Equal(got, want) {
		t.Errorf("new store = %+v, want %+v", got, want)
	}
	if pets, _, _ := page(t, to, Page{After: math.MinInt64, Limit: 10, Where: []Match{{Filter: 1, Key: "c"}}}); len(pets) != 1 || pets[0].ID != 3 {
		t.Errorf("new store, name c = %+v, want pet 3: the new filter indexes the converted keys", pets)
	}
	// The old store keeps what it held, for reads begun before.
	if from.Len() != 3 {
		t.Errorf("old store holds %d items after the handover, want its 3", from.Len())
	}
}

func TestHandOverIDsGoOn(t *testing.T) {
	from := newTestStore(t, []testPet{{ID: 1, Name: "a", Status: "sold"}, {ID: 2, Name: "b", Status: "sold"}})
	// 3 is given and removed: the new store must not give it again.
	p, err := addPet(from, "c", 1, "sold")
	if err != nil || p.ID != 3 {
		t.Fatalf("Add = %+v, %v", p, err)
	}
	from.Delete(3)
	to := New("pets", 1)
	same := func(e Entry) (Entry, string) { return e, "" }
	if _, err := HandOver([]Move{{From: from, To: to, Convert: same}}, nil); err != nil {
		t.Fatal(err)
	}
	p, err = addPet(to, "d", 1, "sold")
	if err != nil || p.ID != 4 {
		t.Errorf("Add to the new store = %+v, %v; want id 4, after the 3 the old store gave", p, err)
	}
}

func TestHandOverSendsLaterWritesToTheNewStore(t *testing.T) {
	from := newTestStore(t, []testPet{{ID: 1, Name: "a", Status: "sold"}, {ID: 2, Name: "b", Status: "sold"}})
	to := New("pets", 2)
	if _, err := HandOver([]Move{{From: from, To: to, Convert: upper}}, nil); err != nil {
		t.Fatal(err)
	}
	p, err := addPet(from, "c", 1, "available")
	if err != nil || p.ID != 3 {
		t.Fatalf("Add to the old store = %+v, %v; want id 3", p, err)
	}
	if text, _, ok := to.Lookup(3); !ok || !bytes.Contains(text, []byte(`"AVAILABLE"`)) {
		t.Errorf("new store, id 3 = %s, %v; want the added pet, converted", text, ok)
	}
	if found, err := from.Put(testPet{ID: 1, Name: "z", Status: "sold"}.entry()); !found || err != nil {
		t.Errorf("Put to the old store = %v, %v; want true, nil", found, err)
	}
	if text, _, _ := to.Lookup(1); !bytes.Contains(text, []byte(`"z"`)) {
		t.Errorf("new store, id 1 = %s; want the put pet", text)
	}
	if found, err := from.Delete(2); !found || err != nil {
		t.Errorf("Delete of the old store's 2 = %v, %v; want true, nil", found, err)
	}
	if _, _, ok := to.Lookup(2); ok {
		t.Error("new store still has 2 after the old store's Delete")
	}
	// A write the new store cannot keep changes nothing.
	if _, err := addPet(from, "d", 1, "pending"); !errors.Is(err, ErrUnfit) {
		t.Errorf("Add of a pet the new store cannot keep: err = %v, want ErrUnfit", err)
	}
	if found, err := from.Put(testPet{ID: 1, Name: "z", Status: "pending"}.entry()); found || !errors.Is(err, ErrUnfit) {
		t.Errorf("Put of a pet the new store cannot keep = %v, %v; want false, ErrUnfit", found, err)
	}
	if to.Len() != 2 {
		t.Errorf("new store holds %d items, want 2", to.Len())
	}
	if err := from.Replace(nil); !errors.Is(err, ErrRetired) {
		t.Errorf("Replace of the old store: err = %v, want ErrRetired", err)
	}
	m := to.Mark()
	from.Restore(from.Mark())
	if to.Mark() != m || to.Len() != 2 {
		t.Error("Restore of the old store changed the new one")
	}
	if _, err := HandOver([]Move{{From: from, To: New("pets", 2), Convert: upper}}, nil); !errors.Is(err, ErrRetired) {
		t.Errorf("a second handover of the old store: err = %v, want ErrRetired", err)
	}
}

func TestHandOverPastTheLimitsChangesNothing(t *testing.T) {
	from := newTestStore(t, []testPet{{ID: 1, Name: "a", Status: "sold"}, {ID: 2, Name: "b", Status: "sold"}})
	ok := New("pets", 2)
	full := New("pets", 2)
	full.SetLimits(Limits{MaxItems: 1})
	from2 := newTestStore(t, []testPet{{ID: 1, Name: "a", Status: "sold"}})
	called := false
	_, err := HandOver([]Move{{From: from2, To: ok, Convert: upper}, {From: from, To: full, Convert: upper}}, func([]Handed) { called = true })
	if !errors.Is(err, ErrStoreFull) || called {
		t.Fatalf("HandOver past the limits = %v (published %v), want ErrStoreFull, unpublished", err, called)
	}
	if ok.Len() != 0 || full.Len() != 0 {
		t.Errorf("the new stores hold %d and %d items, want none", ok.Len(), full.Len())
	}
	if p, err := addPet(from2, "c", 1, "sold"); err != nil || p.ID != 2 {
		t.Errorf("Add to an old store after a failed handover = %+v, %v; want id 2 in it", p, err)
	}
	if from2.Len() != 2 || ok.Len() != 0 {
		t.Errorf("after a failed handover, the old store holds %d and the new %d, want 2 and 0", from2.Len(), ok.Len())
	}
}

// TestHandOverLosesNoWrite holds that a write acknowledged by the old
// store, before, during or after the handover, is in the new store.
func TestHandOverLosesNoWrite(t *testing.T) {
	from := New("pets", 1)
	to := New("pets", 2)
	var (
		mu   sync.Mutex
		made []int64
		wg   sync.WaitGroup
	)
	const writers, perWriter = 4, 2000
	start := make(chan struct{})
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for range perWriter {
				p, err := addPet(from, "w", int64(w), "sold")
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				made = append(made, p.ID)
				mu.Unlock()
			}
		}()
	}
	close(start)
	for from.Len() < 500 {
		// Let the writers get going, so that the handover comes among
		// their writes.
		runtime.Gosched()
	}
	var before int
	if _, err := HandOver([]Move{{From: from, To: to, Convert: upper}}, func([]Handed) { before = to.Len() }); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	t.Logf("the handover came after %d of %d writes", before, len(made))
	if len(made) != writers*perWriter || to.Len() != writers*perWriter {
		t.Fatalf("%d writes acknowledged, the new store holds %d, want %d and %d", len(made), to.Len(), writers*perWriter, writers*perWriter)
	}
	slices.Sort(made)
	for i, id := range made {
		if id != int64(i+1) {
			t.Fatalf("ids given = %v..., want 1 to %d once each", made[:i+1], writers*perWriter)
		}
		if _, _, ok := to.Lookup(id); !ok {
			t.Fatalf("acknowledged id %d is not in the new store", id)
		}
	}
}

// TestHandOverConvertsWhatChangedOnce holds that the items a conversion
// made before the writers were held are not converted again, and those
// written since are.
func TestHandOverConvertsWhatChangedOnce(t *testing.T) {
	s := newTestStore(t, []testPet{
		{ID: 1, Name: "a", Status: "sold"},
		{ID: 2, Name: "b", Status: "sold"},
		{ID: 3, Name: "c", Status: "sold"},
	})
	var calls []int64
	m := Move{From: s, To: New("pets", 2), Convert: func(e Entry) (Entry, string) {
		calls = append(calls, e.ID)
		return upper(e)
	}}
	early := m.convert(s.snap.Load(), nil)
	s.Put(testPet{ID: 2, Name: "b", Status: "pending"}.entry())
	s.Delete(3)
	addPet(s, "d", 1, "available")
	calls = nil
	late := m.convert(s.snap.Load(), &early)
	if !slices.Equal(calls, []int64{2, 4}) {
		t.Errorf("converted again: ids %v, want [2 4], those written since", calls)
	}
	kept, left := late.kept()
	var ids []int64
	for _, e := range kept {
		ids = append(ids, e.ID)
	}
	if !slices.Equal(ids, []int64{1, 4}) || len(left) != 1 || left[0].Entry.ID != 2 {
		t.Errorf("kept %v, left out %+v; want [1 4] and the pet now pending", ids, left)
	}
}

// TestHandOverKeepsNamesAndSets: the names of items go with them, and a
// Set of the store handed over is made to the new one.
func TestHandOverKeepsNamesAndSets(t *testing.T) {
	from := New("users", 1)
	if err := from.Replace([]Entry{{ID: 1, Name: "alice", Text: []byte(`{"id":"alice"}`), Keys: []string{"x"}}}); err != nil {
		t.Fatal(err)
	}
	to := New("users", 1)
	same := func(e Entry) (Entry, string) { return e, "" }
	if _, err := HandOver([]Move{{From: from, To: to, Convert: same}}, nil); err != nil {
		t.Fatal(err)
	}
	if id, ok := to.ID("alice"); !ok || id != 1 {
		t.Errorf("the new store's alice = %d, %v; want 1", id, ok)
	}
	if _, err := from.Set(Entry{ID: 7, Text: []byte(`{"id":7}`), Keys: []string{"y"}}); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := to.Lookup(7); !ok {
		t.Error("a Set of the old store is not in the new one")
	}
}

// TestHandOverRetiresAndTakesAlso hands one store over to none, which
// retires it, and gives another store entries besides its own: the
// retired store's items are all left out, with the id it gave next, and
// its writes are refused; the entries given are taken but for one whose
// id a converted item has, and ids go on from Next.
func TestHandOverRetiresAndTakesAlso(t *testing.T) {
	gone := newTestStore(t, []testPet{{ID: 1, Name: "a"}, {ID: 4, Name: "d"}})
	from := newTestStore(t, []testPet{{ID: 1, Name: "b", Status: "sold"}})
	to := New("pets", 2)
	also := []Entry{testPet{ID: 1, Name: "taken"}.entry(), testPet{ID: 9, Name: "back"}.entry()}
	for i := range also {
		also[i].Keys = append(also[i].Keys, "x")
	}
	handed, err := HandOver([]Move{
		{From: gone},
		{From: from, To: to, Convert: upper, Also: also, Next: 20},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(handed[0].Left) != 2 || handed[0].Next != 5 {
		t.Errorf("the retired store left %+v and gave %d next, want its 2 items and 5", handed[0].Left, handed[0].Next)
	}
	if _, err := addPet(gone, "late", 1, "sold"); !errors.Is(err, ErrRetired) {
		t.Errorf("Add to a retired store: %v, want ErrRetired", err)
	}
	if len(handed[1].Untaken) != 1 || handed[1].Untaken[0].Entry.ID != 1 {
		t.Errorf("untaken %+v, want the entry of id 1, a converted item's", handed[1].Untaken)
	}
	if got := all(t, to); len(got) != 2 || got[0].Name != "b" || got[1].Name != "back" {
		t.Errorf("the new store holds %+v, want pet 1 converted and pet 9 given", got)
	}
	if p, _ := addPet(to, "next", 1, "sold"); p.ID != 20 {
		t.Errorf("Add after the handover gave %d, want 20, from Next", p.ID)
	}
}
