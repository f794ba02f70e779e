package mockserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// Pet is an animal as the store keeps it and the API returns it.
type Pet struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	CategoryID int64  `json:"categoryId"`
	Status     string `json:"status,omitempty"`
}

// NewPet is what a client sends to create a pet.
type NewPet struct {
	Name       string
	CategoryID int64
	Status     string
}

// ErrIDsExhausted is returned by Store.Add when the largest id is
// math.MaxInt64, so no further id can be assigned.
var ErrIDsExhausted = errors.New("no pet id left to assign")

// ErrStoreFull is returned when a write would take the store past its
// limits.
var ErrStoreFull = errors.New("the store is full")

// Limits bound what a store may hold, so that no client can make it use
// unbounded memory. A zero field does not bound.
type Limits struct {
	MaxPets  int   // pets in the store
	MaxBytes int64 // bytes of JSON text of all the pets together
}

// SetLimits sets the limits of the store. Writes that would pass them fail
// with ErrStoreFull; what the store holds already stays.
func (s *Store) SetLimits(l Limits) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limits = l
}

// full reports whether a store of n pets and b bytes passes the limits.
func (l Limits) full(n int, b int64) bool {
	return (l.MaxPets > 0 && n > l.MaxPets) || (l.MaxBytes > 0 && b > l.MaxBytes)
}

// Store keeps pets in memory, ordered by id, and is safe for concurrent
// use. Reads never wait for writers: they work on an immutable snapshot,
// and every write publishes a new one before it returns, so a read sees
// every write that has already been answered.
//
// Pets never change once stored, so the store keeps each one as the JSON
// text the API sends, and a page of the list is a concatenation of those
// texts. An index per status keeps a filtered page as cheap as an
// unfiltered one, whatever the size of the store.
type Store struct {
	statuses []string // the PetStatus values; a pet's status code is its index + 1

	mu sync.Mutex // serialises writers; guards fill and limits
	// limits bound what the store may hold; zero fields do not bound.
	limits Limits
	// fill is how many bytes of the last chunk of the current snapshot
	// are taken.
	fill int

	snap atomic.Pointer[snapshot]
}

// snapshot is one immutable state of the store. Writers build the next
// snapshot by appending to the slices of the current one: elements past a
// snapshot's length are never read through it, so sharing the backing
// arrays is safe.
type snapshot struct {
	recs []record // ordered by id
	// chunks hold the JSON text of the pets. A chunk is allocated with its
	// full capacity and its length stays 0: records slice into it up to
	// its capacity, so appending text never rewrites a slice header that
	// an older snapshot shares.
	chunks [][]byte
	// byStatus[code] lists the positions in recs of the pets with that
	// status code, in ascending order; byStatus[0] is unused.
	byStatus [][]int32
	// version counts the writes that led to this snapshot.
	version uint64
	// bytes is the length of the JSON text of all the pets.
	bytes int64
}

// record locates one pet. It holds no pointers, so a store of a million
// pets costs the garbage collector nothing to scan.
type record struct {
	id     int64
	off    uint32 // offset of the JSON text in its chunk
	n      uint32 // length of the JSON text
	chunk  uint32
	status uint8 // status code: 0 for none, else index in Store.statuses + 1
}

const chunkSize = 1 << 20

// NewStore returns a store that accepts the given statuses and holds pets.
// It fails if two pets share an id or a pet has a status not in statuses.
func NewStore(statuses []string, pets []Pet) (*Store, error) {
	if len(statuses) > math.MaxUint8 {
		return nil, fmt.Errorf("%d statuses: at most %d are supported", len(statuses), math.MaxUint8)
	}
	s := &Store{statuses: slices.Clone(statuses)}
	if err := s.Replace(pets); err != nil {
		return nil, err
	}
	return s, nil
}

// Replace replaces every pet in the store with pets, atomically.
// It fails, changing nothing, if two pets share an id or a pet has a status
// the store does not accept.
func (s *Store) Replace(pets []Pet) error {
	byID := func(a, b Pet) int {
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	}
	sorted := pets
	if !slices.IsSortedFunc(pets, byID) {
		// A generated catalogue is sorted already; sparing it a copy
		// matters at a million pets.
		sorted = slices.Clone(pets)
		slices.SortFunc(sorted, byID)
	}
	next := &snapshot{
		recs:     make([]record, 0, len(sorted)),
		byStatus: make([][]int32, len(s.statuses)+1),
	}
	if len(sorted) > math.MaxInt32 {
		return fmt.Errorf("%d pets: at most %d are supported", len(sorted), math.MaxInt32)
	}
	fill := 0
	var buf []byte
	for i, p := range sorted {
		if i > 0 && sorted[i-1].ID == p.ID {
			return fmt.Errorf("id %d: used by two pets", p.ID)
		}
		code, ok := s.statusCode(p.Status)
		if !ok {
			return fmt.Errorf("id %d: status %q is not one of %v", p.ID, p.Status, s.statuses)
		}
		buf = appendPetJSON(buf[:0], p)
		fill = next.appendRecord(p.ID, code, buf, fill)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limits.full(len(next.recs), next.bytes) {
		return fmt.Errorf("%w: %d pets in %d bytes pass the limits of %d pets and %d bytes",
			ErrStoreFull, len(next.recs), next.bytes, s.limits.MaxPets, s.limits.MaxBytes)
	}
	if cur := s.snap.Load(); cur != nil {
		next.version = cur.version + 1
	}
	s.fill = fill
	s.snap.Store(next)
	return nil
}

// appendRecord adds a pet whose JSON text is text to the snapshot, which
// must not be published yet, and returns the new fill of the last chunk.
func (sn *snapshot) appendRecord(id int64, code uint8, text []byte, fill int) int {
	if len(sn.chunks) == 0 || fill+len(text) > cap(sn.chunks[len(sn.chunks)-1]) {
		sn.chunks = append(sn.chunks, make([]byte, 0, max(chunkSize, len(text))))
		fill = 0
	}
	last := len(sn.chunks) - 1
	copy(sn.chunks[last][fill:fill+len(text)], text)
	sn.recs = append(sn.recs, record{
		id:     id,
		off:    uint32(fill),
		n:      uint32(len(text)),
		chunk:  uint32(last),
		status: code,
	})
	if code != 0 {
		sn.byStatus[code] = append(sn.byStatus[code], int32(len(sn.recs)-1))
	}
	sn.bytes += int64(len(text))
	return fill + len(text)
}

func (s *Store) statusCode(status string) (uint8, bool) {
	if status == "" {
		return 0, true
	}
	i := slices.Index(s.statuses, status)
	if i < 0 {
		return 0, false
	}
	return uint8(i + 1), true
}

// Add stores a new pet under the next free id, one more than the largest,
// and returns it with its JSON text, which the caller may keep.
func (s *Store) Add(np NewPet) (Pet, []byte, error) {
	code, ok := s.statusCode(np.Status)
	if !ok {
		return Pet{}, nil, fmt.Errorf("status %q is not one of %v", np.Status, s.statuses)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.snap.Load()
	if len(cur.recs) >= math.MaxInt32 {
		return Pet{}, nil, ErrStoreFull
	}
	p := Pet{ID: 1, Name: np.Name, CategoryID: np.CategoryID, Status: np.Status}
	if n := len(cur.recs); n > 0 {
		last := cur.recs[n-1].id
		if last == math.MaxInt64 {
			return Pet{}, nil, ErrIDsExhausted
		}
		p.ID = max(last+1, 1)
	}
	text := appendPetJSON(nil, p)
	if s.limits.full(len(cur.recs)+1, cur.bytes+int64(len(text))) {
		return Pet{}, nil, fmt.Errorf("%w: it holds %d pets in %d bytes, and may hold at most %d pets and %d bytes",
			ErrStoreFull, len(cur.recs), cur.bytes, s.limits.MaxPets, s.limits.MaxBytes)
	}
	next := &snapshot{
		recs:     cur.recs,
		chunks:   cur.chunks,
		byStatus: slices.Clone(cur.byStatus),
		version:  cur.version + 1,
		bytes:    cur.bytes,
	}
	s.fill = next.appendRecord(p.ID, code, text, s.fill)
	s.snap.Store(next)
	return p, text, nil
}

// Mark is a state of the store to return to with Restore.
type Mark struct{ sn *snapshot }

// Mark returns the current state of the store. It costs nothing: states
// share their memory.
func (s *Store) Mark() Mark { return Mark{s.snap.Load()} }

// Restore returns the store to the state of m. Pets added since are gone.
func (s *Store) Restore(m Mark) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := m.sn
	// Later snapshots wrote past the ends of old's slices and chunks, and
	// readers may still hold them. Clipping the capacities makes the next
	// writes go to new memory instead of over theirs.
	next := &snapshot{
		recs:     slices.Clip(old.recs),
		chunks:   slices.Clip(old.chunks),
		byStatus: make([][]int32, len(old.byStatus)),
		version:  s.snap.Load().version + 1,
		bytes:    old.bytes,
	}
	for i, idx := range old.byStatus {
		next.byStatus[i] = slices.Clip(idx)
	}
	s.fill = math.MaxInt32 // never fits: the next text starts a chunk
	s.snap.Store(next)
}

// Version returns a number that grows with every write to the store.
func (s *Store) Version() uint64 { return s.snap.Load().version }

// Bytes returns the length of the JSON text of all the pets together.
func (s *Store) Bytes() int64 { return s.snap.Load().bytes }

// Len returns the number of pets in the store.
func (s *Store) Len() int { return len(s.snap.Load().recs) }

// lookup returns the JSON text and the status of the pet with the given id.
// The text is the store's own: the caller must not change it.
func (s *Store) lookup(id int64) (text []byte, status string, ok bool) {
	sn := s.snap.Load()
	i, ok := sn.find(id)
	if !ok {
		return nil, "", false
	}
	r := sn.recs[i]
	return sn.text(r), s.status(r.status), true
}

// Get returns the pet with the given id.
func (s *Store) Get(id int64) (Pet, bool, error) {
	text, _, ok := s.lookup(id)
	if !ok {
		return Pet{}, false, nil
	}
	p, err := decodeStoredPet(text)
	return p, err == nil, err
}

func (s *Store) status(code uint8) string {
	if code == 0 {
		return ""
	}
	return s.statuses[code-1]
}

// find returns the position of id in recs. Ids are usually dense, so it
// tries the position id would have if they were, before searching.
func (sn *snapshot) find(id int64) (int, bool) {
	recs := sn.recs
	if len(recs) == 0 {
		return 0, false
	}
	if guess := id - recs[0].id; guess >= 0 && guess < int64(len(recs)) && recs[guess].id == id {
		return int(guess), true
	}
	i := sort.Search(len(recs), func(i int) bool { return recs[i].id >= id })
	return i, i < len(recs) && recs[i].id == id
}

func (sn *snapshot) text(r record) []byte {
	c := sn.chunks[r.chunk]
	return c[r.off : r.off+r.n : r.off+r.n]
}

// Page selects a page of the list: at most Limit pets with an id greater
// than After, with the given status if Status is not empty.
type Page struct {
	Status string
	After  int64 // math.MinInt64 for the first page
	Limit  int
}

// AppendPage appends the JSON array of the pets on the page to dst. It
// returns the id of the last pet on it, and whether more pets follow.
// Its cost depends on the size of the page, not of the store.
func (s *Store) AppendPage(dst []byte, pg Page) (out []byte, last int64, more bool, err error) {
	sn := s.snap.Load()
	code, ok := s.statusCode(pg.Status)
	if !ok {
		return dst, 0, false, fmt.Errorf("status %q is not one of %v", pg.Status, s.statuses)
	}
	dst = append(dst, '[')
	if code == 0 {
		i := sort.Search(len(sn.recs), func(i int) bool { return sn.recs[i].id > pg.After })
		end := min(len(sn.recs), i+pg.Limit)
		for j := i; j < end; j++ {
			if j > i {
				dst = append(dst, ',')
			}
			dst = append(dst, sn.text(sn.recs[j])...)
			last = sn.recs[j].id
		}
		more = end < len(sn.recs)
	} else {
		idx := sn.byStatus[code]
		i := sort.Search(len(idx), func(i int) bool { return sn.recs[idx[i]].id > pg.After })
		end := min(len(idx), i+pg.Limit)
		for j := i; j < end; j++ {
			if j > i {
				dst = append(dst, ',')
			}
			r := sn.recs[idx[j]]
			dst = append(dst, sn.text(r)...)
			last = r.id
		}
		more = end < len(idx)
	}
	return append(dst, ']'), last, more, nil
}

// Pets returns a copy of every pet in the store, ordered by id.
func (s *Store) Pets() ([]Pet, error) {
	sn := s.snap.Load()
	out := make([]Pet, 0, len(sn.recs))
	for _, r := range sn.recs {
		p, err := decodeStoredPet(sn.text(r))
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func decodeStoredPet(text []byte) (Pet, error) {
	var p Pet
	if err := json.Unmarshal(text, &p); err != nil {
		return Pet{}, fmt.Errorf("stored pet %s does not decode: %w", text, err)
	}
	return p, nil
}
