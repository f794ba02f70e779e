package edge

import (
	"hash/maphash"
	"net/url"
	"sync/atomic"
)

// A list is asked the same few queries again and again, ?limit=20 or
// ?status=sold, and reading one, a map and a slice made, each value
// unescaped and checked, cost a GET of a kept page (catalogue/pages.go) as
// much as the rest of its work. An operation whose parameters are all
// simple (compiled.go) and all in the query judges a query by its text
// alone: each query of such an operation that passed is kept, with what
// was read of it, in a small table of its own, made on the first, and a
// request of the same text is given the very values it gave, which no
// handler changes. A query of a cursor, or long, is not kept: a walk
// through the pages asks each once. The table holds queriesKept queries,
// each in the slot its text's hash names, the newest in place of the one
// before.

// queriesKept is how many queries an operation keeps.
const queriesKept = 16

// maxQueryKept is the longest query kept, in bytes.
const maxQueryKept = 128

// keptQuery is a query that passed its operation's checks, read.
type keptQuery struct {
	raw   string
	query url.Values
	after int64 // Call.After
}

// queryTable holds the queries an operation kept.
type queryTable [queriesKept]atomic.Pointer[keptQuery]

// querySeed seeds the hashes that place queries in a table.
var querySeed = maphash.MakeSeed()

// keptQueryOf returns the query op kept of the text raw, or nil.
func (op *Operation) keptQueryOf(raw string) *keptQuery {
	t := op.queries.Load()
	if t == nil || len(raw) > maxQueryKept {
		return nil
	}
	if q := t[maphash.String(querySeed, raw)%queriesKept].Load(); q != nil && q.raw == raw {
		return q
	}
	return nil
}

// keepQuery keeps q, a query that passed op's checks.
func (op *Operation) keepQuery(q *keptQuery) {
	if len(q.raw) > maxQueryKept {
		return
	}
	t := op.queries.Load()
	if t == nil {
		op.queries.CompareAndSwap(nil, new(queryTable))
		t = op.queries.Load()
	}
	t[maphash.String(querySeed, q.raw)%queriesKept].Store(q)
}
