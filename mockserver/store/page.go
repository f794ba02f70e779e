package store

import (
	"slices"
	"strings"
)

// Match selects the items whose filter Filter has the key Key, or, where
// Any holds keys, any one of them (a query that repeats a filter, such as
// id=1&id=2): those are checked item by item, as the store indexes one
// key of a filter.
type Match struct {
	Filter int
	Key    string
	Any    []string
}

// has reports whether keys have the key, or one of the keys, of m.
func (m Match) has(keys []string) bool {
	if m.Any != nil {
		return slices.Contains(m.Any, keys[m.Filter])
	}
	return keys[m.Filter] == m.Key
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
	first := slices.IndexFunc(pg.Where, func(m Match) bool { return m.Any == nil })
	if first < 0 {
		return &sn.all, pg.Where, true
	}
	m := pg.Where[first]
	list := sn.byKey[m.Filter]
	i, found := slices.BinarySearchFunc(list, m.Key, func(e keyed, k string) int { return strings.Compare(e.key, k) })
	if !found {
		return nil, nil, false
	}
	if first == 0 {
		return &list[i].seq, pg.Where[1:], true
	}
	return &list[i].seq, slices.Delete(slices.Clone(pg.Where), first, first+1), true
}

// matches reports whether the item of r has every match.
func (sn *snapshot) matches(r record, where []Match) bool {
	keys := sn.tuples[r.tuple]
	for _, m := range where {
		if !m.has(keys) {
			return false
		}
	}
	return true
}
