package mockserver

import (
	"io"
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
	return s.snap.Load().appendPage(dst, pg)
}

func (sn *snapshot) appendPage(dst []byte, pg Page) (out []byte, last int64, more bool) {
	q, rest, ok := sn.pageSeq(pg)
	if !ok {
		return append(dst, '[', ']'), 0, false
	}
	dst = append(dst, '[')
	n := 0
	k, i := q.after(pg.After)
	q.each(k, i, func(r record) bool {
		if len(rest) > 0 && !sn.matches(r, rest) {
			return true
		}
		if n == pg.Limit {
			more = true
			return false
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, sn.text(r)...)
		last = r.id
		n++
		return true
	})
	return append(dst, ']'), last, more
}

// mayPass reports whether a page of limit items may be longer than
// maxBytes, from the longest item the snapshot has: it takes no walk, so
// that a page of small items costs nothing more for the question.
func (sn *snapshot) mayPass(limit, maxBytes int) bool {
	return int64(limit)*int64(sn.longest+len(",")) > int64(maxBytes-len("[]"))
}

// pageSeq returns the sequence a page is taken from, by its first match,
// and the matches left to check item by item; ok is false when no item
// has the first match.
func (sn *snapshot) pageSeq(pg Page) (q *seq, rest []Match, ok bool) {
	if len(pg.Where) == 0 {
		return &sn.all, nil, true
	}
	m := pg.Where[0]
	list := sn.byKey[m.Filter]
	i, found := slices.BinarySearchFunc(list, m.Key, func(e keyed, k string) int { return strings.Compare(e.key, k) })
	if !found {
		return nil, nil, false
	}
	return &list[i].seq, pg.Where[1:], true
}

// matches reports whether the item of r has every match.
func (sn *snapshot) matches(r record, where []Match) bool {
	keys := sn.tuples[r.tuple]
	for _, m := range where {
		if keys[m.Filter] != m.Key {
			return false
		}
	}
	return true
}

// pageRecords returns the records of the items on the page pg, in order,
// and whether more items follow.
func (sn *snapshot) pageRecords(pg Page) ([]record, bool) {
	q, rest, ok := sn.pageSeq(pg)
	if !ok {
		return nil, false
	}
	var recs []record
	more := false
	k, i := q.after(pg.After)
	q.each(k, i, func(r record) bool {
		if len(rest) > 0 && !sn.matches(r, rest) {
			return true
		}
		if len(recs) == pg.Limit {
			more = true
			return false
		}
		recs = append(recs, r)
		return true
	})
	return recs, more
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

// view returns the page pg of the snapshot.
func (sn *snapshot) view(pg Page) *pageView {
	v := &pageView{sn: sn}
	v.recs, v.more = sn.pageRecords(pg)
	v.size = len("[]") + max(len(v.recs)-1, 0)
	for _, r := range v.recs {
		v.size += int(r.n)
	}
	if len(v.recs) > 0 {
		v.last = v.recs[len(v.recs)-1].id
	}
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
