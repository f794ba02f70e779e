package store

import (
	"bufio"
	"io"
	"slices"
)

// Version returns a number that grows with every write to the store.
func (s *Store) Version() uint64 { return s.snap.Load().version }

// Bytes returns the length of the JSON text of all the items together.
func (s *Store) Bytes() int64 { return s.snap.Load().bytes }

// Len returns the number of items in the store.
func (s *Store) Len() int { return s.snap.Load().all.n }

// Lookup returns the JSON text and the filter keys of the item of id. The
// text and keys are the store's own: the caller must not change them.
func (s *Store) Lookup(id int64) (text []byte, keys []string, ok bool) {
	sn := s.snap.Load()
	r, ok := sn.all.find(id)
	if !ok {
		return nil, nil, false
	}
	return sn.text(r), sn.tuples[r.tuple], true
}

// Entries returns a copy of every item in the store, ordered by id, with
// its name.
func (s *Store) Entries() []Entry {
	sn := s.snap.Load()
	out := make([]Entry, 0, sn.all.n)
	named := sn.names.byID()
	sn.all.each(0, 0, func(r record) bool {
		out = append(out, Entry{ID: r.id, Text: slices.Clone(sn.text(r)), Keys: slices.Clone(sn.tuples[r.tuple]), Name: named[r.id]})
		return true
	})
	return out
}

// Export writes every item in the store as a fixture, a JSON array of one
// item a line, from one consistent state, and returns the version of that
// state.
func (s *Store) Export(w io.Writer) (version uint64, err error) {
	sn := s.snap.Load()
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("[")
	first := true
	sn.all.each(0, 0, func(r record) bool {
		if !first {
			bw.WriteString(",")
		}
		first = false
		bw.WriteString("\n  ")
		bw.Write(sn.text(r))
		return true
	})
	bw.WriteString("\n]\n")
	return sn.version, bw.Flush()
}
