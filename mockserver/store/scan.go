package store

import "math"

// Scan calls visit with the items that have every key of where, in order
// of id from the one after after, or, when newestFirst, in reverse order
// from the one before after, until visit returns false. It reads one
// state of the store, and costs in proportion to the items it visits.
// Pass math.MinInt64 (math.MaxInt64 when newestFirst) to start at the
// first item. The text is the store's own: visit must not change it.
func (s *Store) Scan(after int64, newestFirst bool, where []Match, visit func(id int64, text []byte) bool) {
	sn := s.snap.Load()
	q, rest, ok := sn.pageSeq(Page{Where: where})
	if !ok {
		return
	}
	each := func(r record) bool {
		if len(rest) > 0 && !sn.matches(r, rest) {
			return true
		}
		return visit(r.id, sn.text(r))
	}
	if !newestFirst {
		k, i := q.after(after)
		q.each(k, i, each)
		return
	}
	q.eachBefore(after, each)
}

// Count returns how many items have the key of a match, or every item
// for none. It costs the same at any size of the store, but for a match
// of Any keys, counted item by item.
func (s *Store) Count(m *Match) int {
	var where []Match
	if m != nil {
		where = []Match{*m}
	}
	sn := s.snap.Load()
	q, rest, ok := sn.pageSeq(Page{Where: where})
	if !ok {
		return 0
	}
	if len(rest) == 0 {
		return q.n
	}
	n := 0
	q.each(0, 0, func(r record) bool {
		if sn.matches(r, rest) {
			n++
		}
		return true
	})
	return n
}

// eachBefore calls visit with the records whose id is less than before,
// in descending order, until it returns false; with before math.MaxInt64,
// from the last record on.
func (q *seq) eachBefore(before int64, visit func(record) bool) {
	k, i := q.nruns()-1, len(q.tail)
	if before != math.MaxInt64 {
		k, i = q.locate(before)
	}
	for ; k >= 0; k-- {
		r := q.run(k)
		for i = min(i, len(r)) - 1; i >= 0; i-- {
			if !visit(r[i]) {
				return
			}
		}
		if k > 0 {
			i = len(q.run(k - 1))
		}
	}
}
