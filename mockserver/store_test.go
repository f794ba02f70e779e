package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"sync"
	"testing"
)

var statuses = []string{"available", "pending", "sold"}

func newTestStore(tb testing.TB, pets []Pet) *Store {
	tb.Helper()
	s, err := NewStore(statuses, pets)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// page returns the pets of one page, decoded.
func page(tb testing.TB, s *Store, pg Page) ([]Pet, int64, bool) {
	tb.Helper()
	out, last, more, err := s.AppendPage(nil, pg)
	if err != nil {
		tb.Fatal(err)
	}
	var pets []Pet
	if err := json.Unmarshal(out, &pets); err != nil {
		tb.Fatalf("page %+v: %v: %s", pg, err, out)
	}
	return pets, last, more
}

func TestStoreOrdersAndFilters(t *testing.T) {
	s := newTestStore(t, []Pet{
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
		{Page{After: math.MinInt64, Limit: 10, Status: "sold"}, []int64{20, 30}, false},
		{Page{After: math.MinInt64, Limit: 1, Status: "sold"}, []int64{20}, true},
		{Page{After: 20, Limit: 1, Status: "sold"}, []int64{30}, false},
		{Page{After: math.MinInt64, Limit: 10, Status: "pending"}, nil, false},
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
	p, text, err := s.Add(NewPet{Name: "e", CategoryID: 1, Status: "sold"})
	if err != nil || p.ID != 41 {
		t.Fatalf("Add = %+v, %v; want id 41", p, err)
	}
	if want := `{"id":41,"name":"e","categoryId":1,"status":"sold"}`; string(text) != want {
		t.Errorf("Add text = %s, want %s", text, want)
	}
	if pets, _, _ := page(t, s, Page{After: 30, Limit: 5, Status: "sold"}); len(pets) != 1 || pets[0] != p {
		t.Errorf("after Add, sold after 30 = %+v, want [%+v]", pets, p)
	}
}

func TestStoreGetReturnsCopies(t *testing.T) {
	s := newTestStore(t, []Pet{{ID: 1, Name: "Rex", CategoryID: 2, Status: "sold"}})
	_, text, _ := s.Add(NewPet{Name: "Bo", CategoryID: 1})
	copy(text, "XXXXXXXX")
	got, ok, err := s.Get(2)
	if err != nil || !ok || got.Name != "Bo" {
		t.Errorf("after changing the text Add returned, Get(2) = %+v, %v, %v; want Bo unchanged", got, ok, err)
	}
	out, _, _, _ := s.AppendPage(nil, Page{After: math.MinInt64, Limit: 5})
	copy(out, strings.Repeat("Z", len(out)))
	if got, _, _ := s.Get(1); got.Name != "Rex" {
		t.Errorf("after changing a page, Get(1) = %+v, want Rex unchanged", got)
	}
	if _, ok, _ := s.Get(3); ok {
		t.Errorf("Get(3) found a pet that does not exist")
	}
}

func TestStoreIDs(t *testing.T) {
	s := newTestStore(t, nil)
	if p, _, _ := s.Add(NewPet{Name: "first"}); p.ID != 1 {
		t.Errorf("first id in an empty store = %d, want 1", p.ID)
	}
	s = newTestStore(t, []Pet{{ID: -5, Name: "negative"}})
	if p, _, _ := s.Add(NewPet{Name: "next"}); p.ID != 1 {
		t.Errorf("id after -5 = %d, want 1", p.ID)
	}
	s = newTestStore(t, []Pet{{ID: math.MaxInt64, Name: "last"}})
	if _, _, err := s.Add(NewPet{Name: "none"}); err != ErrIDsExhausted {
		t.Errorf("Add after id MaxInt64: err = %v, want ErrIDsExhausted", err)
	}
	if s.Len() != 1 {
		t.Errorf("a failed Add changed the store: %d pets", s.Len())
	}
}

func TestStoreReplaceIsAtomic(t *testing.T) {
	s := newTestStore(t, []Pet{{ID: 1, Name: "a"}})
	if err := s.Replace([]Pet{{ID: 2, Name: "b"}, {ID: 2, Name: "c"}}); err == nil {
		t.Fatal("Replace accepted two pets with one id")
	}
	if err := s.Replace([]Pet{{ID: 2, Name: "b", Status: "lost"}}); err == nil {
		t.Fatal("Replace accepted an unknown status")
	}
	if pets, _ := s.Pets(); len(pets) != 1 || pets[0].Name != "a" {
		t.Errorf("after failed replaces, pets = %+v, want [a]", pets)
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
				if _, _, err := s.Add(NewPet{Name: fmt.Sprintf("w%d-%d", w, i), CategoryID: int64(w), Status: statuses[i%3]}); err != nil {
					t.Error(err)
					return
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
				pets, _, _ := page(t, s, Page{After: math.MinInt64, Limit: 100, Status: "pending"})
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
	pets, err := s.Pets()
	if err != nil {
		t.Fatal(err)
	}
	if len(pets) != writers*perWriter {
		t.Fatalf("%d pets, want %d", len(pets), writers*perWriter)
	}
	for i, p := range pets {
		if p.ID != int64(i+1) {
			t.Fatalf("pet %d has id %d, want %d: ids must be unique and dense", i, p.ID, i+1)
		}
	}
}

func TestStoreSpansChunks(t *testing.T) {
	s := newTestStore(t, nil)
	long := strings.Repeat("n", chunkSize/3)
	for range 7 {
		if _, _, err := s.Add(NewPet{Name: long}); err != nil {
			t.Fatal(err)
		}
	}
	huge := strings.Repeat("h", chunkSize+10)
	if _, _, err := s.Add(NewPet{Name: huge}); err != nil {
		t.Fatal(err)
	}
	pets, err := s.Pets()
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pets[:7] {
		if p.Name != long {
			t.Errorf("pet %d: name of %d bytes, want %d", i, len(p.Name), len(long))
		}
	}
	if pets[7].Name != huge {
		t.Errorf("pet 8: name of %d bytes, want %d", len(pets[7].Name), len(huge))
	}
}

func TestPetJSONMatchesEncodingJSON(t *testing.T) {
	names := []string{"", "Rex", `quo"te`, `back\slash`, "<b>&amp;</b>", "tab\there", "\x00\x01\x1f\x7f",
		"Zoë 🐶", "\u2028\u2029", "bad \xff utf8", "\xed\xa0\x80", "new\nline\r"}
	for _, name := range names {
		p := Pet{ID: -42, Name: name, CategoryID: math.MaxInt64, Status: "sold"}
		checkPetJSON(t, p)
		p.Status = ""
		checkPetJSON(t, p)
	}
}

func checkPetJSON(t *testing.T, p Pet) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		t.Fatal(err)
	}
	want := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if got := appendPetJSON(nil, p); !bytes.Equal(got, want) {
		t.Errorf("appendPetJSON(%+q) = %s, want %s", p.Name, got, want)
	}
}

func FuzzPetJSON(f *testing.F) {
	f.Add("Rex", int64(1), int64(2))
	f.Add("<\u2028\xff>", int64(-1), int64(math.MinInt64))
	f.Fuzz(func(t *testing.T, name string, id, category int64) {
		checkPetJSON(t, Pet{ID: id, Name: name, CategoryID: category, Status: "pending"})
	})
}

func TestExactInt64(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true},
		{"-0", 0, true},
		{"12", 12, true},
		{"1.0", 1, true},
		{"1.50e1", 15, true},
		{"1e2", 100, true},
		{"1E+2", 100, true},
		{"100e-2", 1, true},
		{"0.0e5", 0, true},
		{"0e99999999999999999999", 0, true},
		{"9223372036854775807", math.MaxInt64, true},
		{"-9223372036854775808", math.MinInt64, true},
		{"9.223372036854775807e18", math.MaxInt64, true},
		{"-9.223372036854775808e18", math.MinInt64, true},
		{"9223372036854775808", 0, false},
		{"-9223372036854775809", 0, false},
		{"1.5", 0, false},
		{"1e-1", 0, false},
		{"1.00000000000000000000000000001", 0, false},
		{"1e19", 0, false},
		{"1e400", 0, false},
		{"1e99999999999999999999", 0, false},
		{"1e-99999999999999999999", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := exactInt64(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("exactInt64(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzExactInt64 holds exactInt64 to big.Rat on JSON numbers with small
// exponents, where big.Rat is cheap.
func FuzzExactInt64(f *testing.F) {
	for _, s := range []string{"1", "-1.0", "1e3", "9223372036854775807", "1.5", "12.000e-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var n json.Number
		if json.Unmarshal([]byte(s), &n) != nil || string(n) != s {
			return
		}
		if i := strings.IndexAny(s, "eE"); i >= 0 && len(s)-i > 4 {
			return
		}
		r, ok := new(big.Rat).SetString(s)
		if !ok {
			t.Fatalf("big.Rat cannot parse %q", s)
		}
		wantOK := r.IsInt() && r.Num().IsInt64()
		got, gotOK := exactInt64(s)
		if gotOK != wantOK || (wantOK && got != r.Num().Int64()) {
			t.Errorf("exactInt64(%q) = %d, %v; big.Rat says %s", s, got, gotOK, r.RatString())
		}
	})
}

// TestStoreRestoreKeepsOldSnapshots holds a snapshot from before a
// Restore and reads it while new pets are added after the Restore. The
// new pets must not be written over what the old snapshot shows; under
// -race, the reads and writes must not even touch the same memory.
func TestStoreRestoreKeepsOldSnapshots(t *testing.T) {
	pets := make([]Pet, 10)
	for i := range pets {
		pets[i] = Pet{ID: int64(i + 1), Name: fmt.Sprintf("start-%d", i+1), Status: statuses[i%3]}
	}
	s := newTestStore(t, pets)
	// One Add first, so that the marked state's slices have room to spare
	// that later Adds fill.
	s.Add(NewPet{Name: "marked", Status: "sold"})
	mark := s.Mark()
	// Just one, so that it fits in the room to spare of every slice.
	for i := range 1 {
		s.Add(NewPet{Name: fmt.Sprintf("before-reset-%d", i), Status: "pending"})
	}
	old := s.snap.Load()
	want, _, _, _ := s.AppendPage(nil, Page{After: math.MinInt64, Limit: 100})
	wantPending, _, _, _ := s.AppendPage(nil, Page{After: math.MinInt64, Limit: 100, Status: "pending"})

	s.Restore(mark)
	if s.Len() != 11 {
		t.Fatalf("after Restore: %d pets, want 11", s.Len())
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 50 {
			oldStore := &Store{statuses: s.statuses}
			oldStore.snap.Store(old)
			got, _, _, _ := oldStore.AppendPage(nil, Page{After: math.MinInt64, Limit: 100})
			gotPending, _, _, _ := oldStore.AppendPage(nil, Page{After: math.MinInt64, Limit: 100, Status: "pending"})
			if !bytes.Equal(got, want) || !bytes.Equal(gotPending, wantPending) {
				t.Errorf("a snapshot from before Restore changed")
				return
			}
		}
	}()
	for i := range 10 {
		if p, _, _ := s.Add(NewPet{Name: fmt.Sprintf("after-reset-%d", i), Status: "pending"}); p.ID != int64(12+i) {
			t.Errorf("after Restore, new id = %d, want %d", p.ID, 12+i)
		}
	}
	<-done
	if got, _, _ := s.Get(12); got.Name != "after-reset-0" {
		t.Errorf("after Restore, pet 12 = %+v", got)
	}
}
