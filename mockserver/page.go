package mockserver

import (
	"io"
	"math"
	"slices"
	"strings"
)

// Match selects the items whose filter Filter has the key Key.
type Match struct {
	Filter int
	Key    string
}

// Page selects a page of the list: at most Limit items with an id greater
// than After, and every Match.
type Page struct {
	After int64 // math.MinInt64 for the first page
	Limit int
	Where []Match
}

// AppendPage appends the JSON array of the items on the page to dst. It
// returns the id of the last item on it, and whether more items follow.
// Its cost depends on the size of the page, not of the store.
func (s *Store) AppendPage(dst []byte, pg Page) (out []byte, last int64, more bool) {
	out, last, more, _ = s.appendPage(dst, pg, math.MaxInt)
	return out, last, more
}

// appendPage is AppendPage for a page of at most max bytes: a longer one
// is not appended whole, and whole is false.
func (s *Store) appendPage(dst []byte, pg Page, max int) (out []byte, last int64, more, whole bool) {
	sn := s.snap.Load()
	start := len(dst)
	dst = append(dst, '[')
	whole = true
	last, more = sn.eachOnPage(pg, func(r record) bool {
		if len(dst)-start+int(r.n)+2 > max {
			whole = false
			return false
		}
		if len(dst)-start > 1 {
			dst = append(dst, ',')
		}
		dst = append(dst, sn.text(r)...)
		return true
	})
	return append(dst, ']'), last, more, whole
}

// eachOnPage calls visit with the record of every item on the page pg, in
// order, until visit returns false. It returns the id of the last item on
// the page, and whether more items follow it.
func (sn *snapshot) eachOnPage(pg Page, visit func(record) bool) (last int64, more bool) {
	q := &sn.all
	var rest []Match
	if len(pg.Where) > 0 {
		m := pg.Where[0]
		list := sn.byKey[m.Filter]
		i, found := slices.BinarySearchFunc(list, m.Key, func(e keyed, k string) int { return strings.Compare(e.key, k) })
		if !found {
			return 0, false
		}
		q, rest = &list[i].seq, pg.Where[1:]
	}
	n := 0
	k, i := q.after(pg.After)
	q.each(k, i, func(r record) bool {
		if len(rest) > 0 {
			keys := sn.tuples[r.tuple]
			for _, m := range rest {
				if keys[m.Filter] != m.Key {
					return true
				}
			}
		}
		if n == pg.Limit {
			more = true
			return false
		}
		if !visit(r) {
			return false
		}
		last = r.id
		n++
		return true
	})
	return last, more
}

// pageView is a page of one snapshot, measured but not copied: its items
// are written from the store's own memory, which no write changes, so a
// page of a hundred items of a mebibyte each costs no more memory to send
// than a page of a hundred small ones, and it is consistent however long
// the client takes to read it.
type pageView struct {
	sn   *snapshot
	recs []record
	size int // of the JSON array
	last int64
	more bool
}

// viewPage returns the page pg of the current state of the store.
func (s *Store) viewPage(pg Page) *pageView {
	v := &pageView{sn: s.snap.Load(), size: len("[]")}
	v.last, v.more = v.sn.eachOnPage(pg, func(r record) bool {
		if len(v.recs) > 0 {
			v.size += len(",")
		}
		v.size += int(r.n)
		v.recs = append(v.recs, r)
		return true
	})
	return v
}

// writeTo writes the page as a JSON array of v.size bytes.
func (v *pageView) writeTo(w io.Writer) error {
	if _, err := io.WriteString(w, "["); err != nil {
		return err
	}
	for i, r := range v.recs {
		if i > 0 {
			if _, err := io.WriteString(w, ","); err != nil {
				return err
			}
		}
		if _, err := w.Write(v.sn.text(r)); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "]")
	return err
}
