package store

import (
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

// AppendPage appends the page pg of the store's current state, a JSON
// array, to dst, as View(pg).AppendTo(dst) does.
func (s *Store) AppendPage(dst []byte, pg Page) (out []byte, last int64, more bool) {
	return s.snap.Load().appendPage(dst, pg)
}

// appendPage appends the JSON array of the items on the page pg to dst.
// It walks the page itself, as eachOnPage does, to spare the list, the
// path of most requests, a call of a function value for each item.
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

// eachOnPage calls visit with the records of the items on the page pg, in
// order, until it returns false, and reports whether more items follow
// the page.
func (sn *snapshot) eachOnPage(pg Page, visit func(record) bool) (more bool) {
	q, rest, ok := sn.pageSeq(pg)
	if !ok {
		return false
	}
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
		n++
		return visit(r)
	})
	return more
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
