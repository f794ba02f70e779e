package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

var statuses = []string{"available", "pending", "sold"}

// noStatus is the filter key these tests give a pet without a status. The
// store does not interpret keys; this one is no status's.
const noStatus = "(none)"

// testPet is a pet as the store tests write them: the store keeps any
// resource's items, and these tests use the Petstore's, with the status as
// their one filter.
type testPet struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	CategoryID int64  `json:"categoryId"`
	Status     string `json:"status,omitempty"`
}

// entry returns the store entry of p: encoding/json's text, which is the
// text petmock answers with, and its status as its filter key.
func (p testPet) entry() Entry {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(p)
	key := p.Status
	if key == "" {
		key = noStatus
	}
	return Entry{ID: p.ID, Text: bytes.TrimSuffix(buf.Bytes(), []byte("\n")), Keys: []string{key}}
}

func newTestStore(tb testing.TB, pets []testPet) *Store {
	tb.Helper()
	s := New("pets", 1)
	entries := make([]Entry, len(pets))
	for i, p := range pets {
		entries[i] = p.entry()
	}
	if err := s.Replace(entries); err != nil {
		tb.Fatal(err)
	}
	return s
}

// addPet adds a pet of the given name, category and status.
func addPet(s *Store, name string, category int64, status string) (testPet, error) {
	var p testPet
	_, err := s.Add(func(id int64) (Entry, error) {
		p = testPet{ID: id, Name: name, CategoryID: category, Status: status}
		return p.entry(), nil
	})
	return p, err
}

// statusPage selects a page of one status.
func statusPage(after int64, limit int, status string) Page {
	return Page{After: after, Limit: limit, Where: []Match{{Filter: 0, Key: status}}}
}

// anyPage selects a page of any of the statuses.
func anyPage(after int64, limit int, statuses ...string) Page {
	return Page{After: after, Limit: limit, Where: []Match{{Filter: 0, Any: statuses}}}
}

// page returns the pets of one page, decoded.
func page(tb testing.TB, s *Store, pg Page) ([]testPet, int64, bool) {
	tb.Helper()
	out, last, more := s.AppendPage(nil, pg)
	var pets []testPet
	if err := json.Unmarshal(out, &pets); err != nil {
		tb.Fatalf("page %+v: %v: %s", pg, err, out)
	}
	return pets, last, more
}

// all returns every pet of the store, decoded.
func all(tb testing.TB, s *Store) []testPet {
	tb.Helper()
	var out []testPet
	for _, e := range s.Entries() {
		var p testPet
		if err := json.Unmarshal(e.Text, &p); err != nil {
			tb.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func TestStoreOrdersAndFilters(t *testing.T) {
	s := newTestStore(t, []testPet{
		{ID: 30, Name: "c", Status: "sold"},
		{ID: 10, Name: "a", Status: "available"},
		{ID: 20, Name: "b", Status: "sold"},
		{ID: 40, Name: "d"},
	})
	tests := []struct {
		pg       Page
		wantIDs  []int64
		wantMore bool
	}{
		{Page{After: math.MinInt64, Limit: 10}, []int64{10, 20, 30, 40}, false},
		{Page{After: math.MinInt64, Limit: 2}, []int64{10, 20}, true},
		{Page{After: 20, Limit: 2}, []int64{30, 40}, false},
		{Page{After: 15, Limit: 1}, []int64{20}, true},
		{Page{After: 40, Limit: 5}, nil, false},
		{Page{After: math.MaxInt64, Limit: 5}, nil, false},
		{statusPage(math.MinInt64, 10, "sold"), []int64{20, 30}, false},
		{statusPage(math.MinInt64, 1, "sold"), []int64{20}, true},
		{statusPage(20, 1, "sold"), []int64{30}, false},
		{statusPage(math.MinInt64, 10, "pending"), nil, false},
		{anyPage(math.MinInt64, 10, "available", noStatus), []int64{10, 40}, false},
		{anyPage(math.MinInt64, 1, "available", noStatus), []int64{10}, true},
		{anyPage(10, 5, "available", noStatus), []int64{40}, false},
		{anyPage(math.MinInt64, 5, "pending"), nil, false},
	}
	if n := s.Count(&Match{Filter: 0, Any: []string{"sold", noStatus}}); n != 3 {
		t.Errorf("Count of sold or none = %d, want 3", n)
	}
	for _, tt := range tests {
		pets, last, more := page(t, s, tt.pg)
		var ids []int64
		for _, p := range pets {
			ids = append(ids, p.ID)
		}
		if !slices.Equal(ids, tt.wantIDs) || more != tt.wantMore {
			t.Errorf("page %+v = %v (more %v), want %v (more %v)", tt.pg, ids, more, tt.wantIDs, tt.wantMore)
		}
		if len(ids) > 0 && last != ids[len(ids)-1] {
			t.Errorf("page %+v: last = %d, want %d", tt.pg, last, ids[len(ids)-1])
		}
	}
	p, err := addPet(s, "e", 1, "sold")
	if err != nil || p.ID != 41 {
		t.Fatalf("Add = %+v, %v; want id 41", p, err)
	}
	if pets, _, _ := page(t, s, statusPage(30, 5, "sold")); len(pets) != 1 || pets[0] != p {
		t.Errorf("after Add, sold after 30 = %+v, want [%+v]", pets, p)
	}
}

func TestStoreLookupReturnsCopies(t *testing.T) {
	s := newTestStore(t, []testPet{{ID: 1, Name: "Rex", CategoryID: 2, Status: "sold"}})
	e, _ := s.Add(func(id int64) (Entry, error) { return testPet{ID: id, Name: "Bo", CategoryID: 1}.entry(), nil })
	copy(e.Text, "XXXXXXXX")
	if text, _, ok := s.Lookup(2); !ok || !strings.Contains(string(text), `"Bo"`) {
		t.Errorf("after changing the text Add returned, Lookup(2) = %s, %v; want Bo unchanged", text, ok)
	}
	out, _, _ := s.AppendPage(nil, Page{After: math.MinInt64, Limit: 5})
	copy(out, strings.Repeat("Z", len(out)))
	if text, _, _ := s.Lookup(1); !strings.Contains(string(text), `"Rex"`) {
		t.Errorf("after changing a page, Lookup(1) = %s, want Rex unchanged", text)
	}
	if _, _, ok := s.Lookup(3); ok {
		t.Errorf("Lookup(3) found a pet that does not exist")
	}
}

func TestStoreIDs(t *testing.T) {
	s := newTestStore(t, nil)
	if p, _ := addPet(s, "first", 1, ""); p.ID != 1 {
		t.Errorf("first id in an empty store = %d, want 1", p.ID)
	}
	s = newTestStore(t, []testPet{{ID: -5, Name: "negative"}})
	if p, _ := addPet(s, "next", 1, ""); p.ID != 1 {
		t.Errorf("id after -5 = %d, want 1", p.ID)
	}
	s = newTestStore(t, []testPet{{ID: math.MaxInt64, Name: "last"}})
	if _, err := addPet(s, "none", 1, ""); err != ErrIDsExhausted {
		t.Errorf("Add after id MaxInt64: err = %v, want ErrIDsExhausted", err)
	}
	if s.Len() != 1 {
		t.Errorf("a failed Add changed the store: %d pets", s.Len())
	}
	// A removed pet's id is not given again: a client that held it must
	// not find another pet there.
	s = newTestStore(t, []testPet{{ID: 1, Name: "a"}, {ID: 2, Name: "b"}})
	s.Delete(2)
	if p, _ := addPet(s, "c", 1, ""); p.ID != 3 {
		t.Errorf("id after deleting the last pet = %d, want 3, not the deleted 2", p.ID)
	}
}

func TestStoreReplaceIsAtomic(t *testing.T) {
	s := newTestStore(t, []testPet{{ID: 1, Name: "a"}})
	if err := s.Replace([]Entry{testPet{ID: 2, Name: "b"}.entry(), testPet{ID: 2, Name: "c"}.entry()}); err == nil {
		t.Fatal("Replace accepted two pets with one id")
	}
	if err := s.Replace([]Entry{{ID: 2, Text: []byte(`{}`)}}); err == nil {
		t.Fatal("Replace accepted an entry without its filter key")
	}
	if pets := all(t, s); len(pets) != 1 || pets[0].Name != "a" {
		t.Errorf("after failed replaces, pets = %+v, want [a]", pets)
	}
}

// TestStoreRefusedReplaceChangesNothing replaces the items with more than
// the limits allow, which is refused, and then writes: the writes must go
// on from the store as it was, with its texts and its filters whole.
func TestStoreRefusedReplaceChangesNothing(t *testing.T) {
	long := strings.Repeat("x", 500)
	s := newTestStore(t, []testPet{{ID: 1, Name: long, Status: "sold"}, {ID: 2, Name: long, Status: "sold"}})
	s.SetLimits(Limits{MaxItems: 5})
	// Six short pets of another status: fewer bytes than the store
	// holds, more items than it may.
	var six []Entry
	for i := range 6 {
		six = append(six, testPet{ID: int64(10 + i), Name: "s", Status: "pending"}.entry())
	}
	if err := s.Replace(six); err == nil {
		t.Fatal("Replace accepted more items than the limits allow")
	}
	added, err := addPet(s, "new", 1, "available")
	if err != nil {
		t.Fatal(err)
	}
	want := []testPet{{ID: 1, Name: long, Status: "sold"}, {ID: 2, Name: long, Status: "sold"}, added}
	if got := all(t, s); !slices.Equal(got, want) {
		t.Errorf("after a refused Replace and an Add, pets = %.80v, want %.80v", got, want)
	}
	for _, status := range statuses {
		page, _, _ := s.AppendPage(nil, Page{After: math.MinInt64, Limit: 10, Where: []Match{{Filter: 0, Key: status}}})
		var got []testPet
		if err := json.Unmarshal(page, &got); err != nil {
			t.Fatal(err)
		}
		for _, p := range got {
			if p.Status != status {
				t.Errorf("status=%s lists pet %d of status %q", status, p.ID, p.Status)
			}
		}
	}
}

// TestStoreMatchesAModel applies random adds, replaces and deletes to the
// store and to a plain map, and compares every page of every filter after
// each, across the boundaries of runs. Old states, kept along the way,
// must read as they did when they were current.
func TestStoreMatchesAModel(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rnd := rand.New(rand.NewPCG(seed, 7))
			s := New("pets", 1)
			model := map[int64]testPet{}
			type kept struct {
				sn   *snapshot
				page []byte
			}
			var old []kept
			for step := range 3000 {
				var ids []int64
				for id := range model {
					ids = append(ids, id)
				}
				slices.Sort(ids)
				switch op := rnd.IntN(10); {
				case op < 5 || len(ids) == 0:
					p, err := addPet(s, fmt.Sprintf("p%d", step), int64(step), statuses[rnd.IntN(3)])
					if err != nil {
						t.Fatal(err)
					}
					model[p.ID] = p
				case op < 8:
					id := ids[rnd.IntN(len(ids))]
					p := testPet{ID: id, Name: fmt.Sprintf("r%d", step), Status: statuses[rnd.IntN(3)]}
					if found, err := s.Put(p.entry()); !found || err != nil {
						t.Fatalf("Put(%d) = %v, %v", id, found, err)
					}
					model[id] = p
				default:
					id := ids[rnd.IntN(len(ids))]
					if found, err := s.Delete(id); !found || err != nil {
						t.Fatalf("Delete(%d) = %v, %v", id, found, err)
					}
					delete(model, id)
				}
				if step%97 == 0 {
					sn := s.snap.Load()
					out, _, _ := s.AppendPage(nil, Page{After: math.MinInt64, Limit: 1 << 20})
					old = append(old, kept{sn, out})
				}
				if step%211 == 0 || step == 2999 {
					checkModel(t, s, model, rnd)
				}
			}
			for _, k := range old {
				view := &Store{filters: 1}
				view.snap.Store(k.sn)
				if out, _, _ := view.AppendPage(nil, Page{After: math.MinInt64, Limit: 1 << 20}); !bytes.Equal(out, k.page) {
					t.Fatalf("a state kept from before changed")
				}
			}
		})
	}
}

// checkModel compares the store with the model: lookups, the whole list,
// and walks of every filter in pages of a random size.
func checkModel(t *testing.T, s *Store, model map[int64]testPet, rnd *rand.Rand) {
	t.Helper()
	if s.Len() != len(model) {
		t.Fatalf("Len = %d, model %d", s.Len(), len(model))
	}
	var ids []int64
	for id := range model {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		text, keys, ok := s.Lookup(id)
		want := model[id].entry()
		if !ok || !bytes.Equal(text, want.Text) || keys[0] != want.Keys[0] {
			t.Fatalf("Lookup(%d) = %s %v %v, want %s", id, text, keys, ok, want.Text)
		}
	}
	for _, status := range append(slices.Clone(statuses), "") {
		var want []int64
		for _, id := range ids {
			if status == "" || model[id].Status == status {
				want = append(want, id)
			}
		}
		limit := 1 + rnd.IntN(40)
		var got []int64
		after := int64(math.MinInt64)
		for {
			pg := Page{After: after, Limit: limit}
			if status != "" {
				pg = statusPage(after, limit, status)
			}
			pets, last, more := page(t, s, pg)
			for _, p := range pets {
				got = append(got, p.ID)
				if p != model[p.ID] {
					t.Fatalf("page of %q holds %+v, model %+v", status, p, model[p.ID])
				}
			}
			if !more {
				break
			}
			after = last
		}
		if !slices.Equal(got, want) {
			t.Fatalf("walk of %q: %d ids, want %d\n got %v\nwant %v", status, len(got), len(want), got, want)
		}
	}
}

// TestStoreConcurrency runs writers and readers at once; under -race it
// also proves that readers and writers share no memory unsafely.
func TestStoreConcurrency(t *testing.T) {
	s := newTestStore(t, nil)
	const writers, perWriter = 4, 300
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for w := range writers {
		wg.Go(func() {
			for i := range perWriter {
				p, err := addPet(s, fmt.Sprintf("w%d-%d", w, i), int64(w), statuses[i%3])
				if err != nil {
					t.Error(err)
					return
				}
				if i%5 == 0 {
					p.Name += "-changed"
					s.Put(p.entry())
				}
				if i%7 == 0 {
					s.Delete(p.ID)
				}
			}
		})
	}
	var readers sync.WaitGroup
	for range 2 {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				pets, _, _ := page(t, s, statusPage(math.MinInt64, 100, "pending"))
				for i := 1; i < len(pets); i++ {
					if pets[i].ID <= pets[i-1].ID || pets[i].Status != "pending" {
						t.Errorf("page out of order or mixed: %+v", pets)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	readers.Wait()
	pets := all(t, s)
	deleted := 0
	for i := range perWriter {
		if i%7 == 0 {
			deleted++
		}
	}
	if want := writers * (perWriter - deleted); len(pets) != want {
		t.Fatalf("%d pets, want %d", len(pets), want)
	}
	for i := 1; i < len(pets); i++ {
		if pets[i].ID <= pets[i-1].ID {
			t.Fatalf("ids out of order: %d after %d", pets[i].ID, pets[i-1].ID)
		}
	}
}

func TestStoreSpansChunks(t *testing.T) {
	s := newTestStore(t, nil)
	long := strings.Repeat("n", chunkSize/3)
	for range 7 {
		if _, err := addPet(s, long, 1, ""); err != nil {
			t.Fatal(err)
		}
	}
	huge := strings.Repeat("h", chunkSize+10)
	if _, err := addPet(s, huge, 1, ""); err != nil {
		t.Fatal(err)
	}
	pets := all(t, s)
	for i, p := range pets[:7] {
		if p.Name != long {
			t.Errorf("pet %d: name of %d bytes, want %d", i, len(p.Name), len(long))
		}
	}
	if pets[7].Name != huge {
		t.Errorf("pet 8: name of %d bytes, want %d", len(pets[7].Name), len(huge))
	}
}

// TestStoreCompactsDeadText replaces pets until the text they left behind
// passes the compaction threshold: the store then holds its live text
// only, and still every pet.
func TestStoreCompactsDeadText(t *testing.T) {
	s := newTestStore(t, []testPet{{ID: 1, Name: "a", Status: "sold"}, {ID: 2, Name: "b", Status: "sold"}})
	long := strings.Repeat("x", 1<<20)
	for i := range compactAt>>20 + 2 {
		if _, err := s.Put(testPet{ID: 1, Name: long + fmt.Sprint(i), Status: statuses[i%3]}.entry()); err != nil {
			t.Fatal(err)
		}
	}
	sn := s.snap.Load()
	if sn.dead >= compactAt {
		t.Errorf("dead text %d bytes, want it compacted below %d", sn.dead, compactAt)
	}
	if pets := all(t, s); len(pets) != 2 || !strings.HasPrefix(pets[0].Name, long) || pets[1].Name != "b" {
		t.Errorf("after compaction: %d pets", len(pets))
	}
	if p, _ := addPet(s, "c", 1, "sold"); p.ID != 3 {
		t.Errorf("after compaction, the next id is %d, want 3", p.ID)
	}
}

// TestStoreRestoreKeepsOldSnapshots holds a snapshot from before a
// Restore and reads it while new pets are added after the Restore. The
// new pets must not be written over what the old snapshot shows; under
// -race, the reads and writes must not even touch the same memory.
func TestStoreRestoreKeepsOldSnapshots(t *testing.T) {
	pets := make([]testPet, 10)
	for i := range pets {
		pets[i] = testPet{ID: int64(i + 1), Name: fmt.Sprintf("start-%d", i+1), Status: statuses[i%3]}
	}
	s := newTestStore(t, pets)
	// One Add first, so that the marked state's slices have room to spare
	// that later Adds fill.
	addPet(s, "marked", 1, "sold")
	mark := s.Mark()
	// Just one, so that it fits in the room to spare of every slice.
	addPet(s, "before-reset-0", 1, "pending")
	s.Put(testPet{ID: 3, Name: "changed", Status: "pending"}.entry())
	old := s.snap.Load()
	want, _, _ := s.AppendPage(nil, Page{After: math.MinInt64, Limit: 100})
	wantPending, _, _ := s.AppendPage(nil, statusPage(math.MinInt64, 100, "pending"))

	s.Restore(mark)
	if s.Len() != 11 {
		t.Fatalf("after Restore: %d pets, want 11", s.Len())
	}
	if text, _, _ := s.Lookup(3); !strings.Contains(string(text), "start-3") {
		t.Errorf("after Restore, pet 3 = %s, want it as it was", text)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 50 {
			oldStore := &Store{filters: 1}
			oldStore.snap.Store(old)
			got, _, _ := oldStore.AppendPage(nil, Page{After: math.MinInt64, Limit: 100})
			gotPending, _, _ := oldStore.AppendPage(nil, statusPage(math.MinInt64, 100, "pending"))
			if !bytes.Equal(got, want) || !bytes.Equal(gotPending, wantPending) {
				t.Errorf("a snapshot from before Restore changed")
				return
			}
		}
	}()
	for i := range 10 {
		if p, _ := addPet(s, fmt.Sprintf("after-reset-%d", i), 1, "pending"); p.ID != int64(12+i) {
			t.Errorf("after Restore, new id = %d, want %d", p.ID, 12+i)
		}
	}
	<-done
	if text, _, _ := s.Lookup(12); !strings.Contains(string(text), "after-reset-0") {
		t.Errorf("after Restore, pet 12 = %s", text)
	}
}

// TestSmallStoresTakeLittleMemory: a store holds what its items take, not
// a megabyte of room: a document of thirty thousand resources of a few
// items each has as many stores, and they once took a megabyte each for
// text and 16 KiB for each index. Written to, a store grows its room with
// what it holds.
func TestSmallStoresTakeLittleMemory(t *testing.T) {
	const stores, items = 500, 10
	entries := make([]Entry, items)
	for i := range entries {
		entries[i] = testPet{ID: int64(i + 1), Name: "Rex", CategoryID: 1, Status: statuses[i%3]}.entry()
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := make([]*Store, stores)
	for i := range kept {
		kept[i] = New("pets", 1)
		if err := kept[i].Replace(entries); err != nil {
			t.Fatal(err)
		}
		if _, err := addPet(kept[i], "Toto", 2, "sold"); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 8<<20 {
		t.Errorf("%d stores of %d items and one added take %d MiB, want at most 8", stores, items, grown>>20)
	}
	if got := len(all(t, kept[0])); got != items+1 {
		t.Errorf("a store holds %d items, want %d", got, items+1)
	}
}
