package mockserver

import (
	"math"
	"slices"
	"strings"
)

// Scan calls visit with the items that have every key of where, in order
// of id from the one after after, or, when newestFirst, in reverse order
// from the one before after, until visit returns false. It reads one
// state of the store, and costs in proportion to the items it visits.
// Pass math.MinInt64 (math.MaxInt64 when newestFirst) to start at the
// first item. The text is the store's own: visit must not change it.
func (s *Store) Scan(after int64, newestFirst bool, where []Match, visit func(id int64, text []byte) bool) {
	sn := s.snap.Load()
	q := &sn.all
	rest := where
	if len(where) > 0 {
		list := sn.byKey[where[0].Filter]
		i, found := slices.BinarySearchFunc(list, where[0].Key, func(e keyed, k string) int { return strings.Compare(e.key, k) })
		if !found {
			return
		}
		q, rest = &list[i].seq, where[1:]
	}
	each := func(r record) bool {
		if len(rest) > 0 {
			keys := sn.tuples[r.tuple]
			for _, m := range rest {
				if keys[m.Filter] != m.Key {
					return true
				}
			}
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
// for none. It costs the same at any size of the store.
func (s *Store) Count(m *Match) int {
	sn := s.snap.Load()
	if m == nil {
		return sn.all.n
	}
	list := sn.byKey[m.Filter]
	i, found := slices.BinarySearchFunc(list, m.Key, func(e keyed, k string) int { return strings.Compare(e.key, k) })
	if !found {
		return 0
	}
	return list[i].seq.n
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
