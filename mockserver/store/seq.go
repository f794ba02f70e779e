package store

import (
	"slices"
	"sort"
)

// record locates one item. It holds no pointers, so a store of a million
// items costs the garbage collector nothing to scan.
type record struct {
	id    int64
	off   uint32 // offset of the JSON text in its chunk
	n     uint32 // length of the JSON text
	chunk uint32
	tuple uint32 // the item's filter keys: Store.tuples of the snapshot
}

// runCap is the number of records a run is given room for. Appends fill
// the last run in place; a change elsewhere copies one run, and the list of
// runs, so that it costs in proportion to runCap plus the number of runs,
// whatever the size of the sequence.
const runCap = 512

// seq is an immutable sequence of records in ascending order of id. Writers
// make the next sequence from the current one; the two share every run the
// write did not touch.
//
// Appends go to the tail in place while it has room: a sequence never
// reads past its own length, so the records a later sequence appends are
// invisible to it. Only the writer of the newest state may append in place,
// which gen tells: a state restored from an earlier one has an older gen,
// and its first append copies.
type seq struct {
	runs   [][]record // sealed runs, each non-empty
	firsts []int64    // firsts[i] is runs[i][0].id
	tail   []record   // the run appends go to; may be empty
	n      int
	gen    uint64
}

// nruns is the number of runs, the tail counted as the last.
func (q *seq) nruns() int { return len(q.runs) + 1 }

// run returns run k, the tail for k == len(q.runs).
func (q *seq) run(k int) []record {
	if k == len(q.runs) {
		return q.tail
	}
	return q.runs[k]
}

// last returns the last record, if any.
func (q *seq) last() (record, bool) {
	if len(q.tail) > 0 {
		return q.tail[len(q.tail)-1], true
	}
	if n := len(q.runs); n > 0 {
		r := q.runs[n-1]
		return r[len(r)-1], true
	}
	return record{}, false
}

// locate returns the run that holds id, or would hold it, and the position
// of the first record in it whose id is at least id.
func (q *seq) locate(id int64) (k, i int) {
	k = len(q.runs)
	if len(q.tail) == 0 || id < q.tail[0].id {
		// The last run whose first id is at most id; the first run if
		// none is.
		k = sort.Search(len(q.firsts), func(j int) bool { return q.firsts[j] > id }) - 1
		if k < 0 {
			k = 0
		}
		if len(q.runs) == 0 {
			k = 0 // the tail
		}
	}
	r := q.run(k)
	i = sort.Search(len(r), func(j int) bool { return r[j].id >= id })
	return k, i
}

// find returns the record of id.
func (q *seq) find(id int64) (record, bool) {
	// Ids are mostly dense and runs full: try where id would be if they
	// were, before searching.
	if len(q.runs) > 0 {
		if off := id - q.firsts[0]; off >= 0 {
			if k := off / runCap; k < int64(len(q.runs)) {
				run := q.runs[k]
				if i := id - run[0].id; i >= 0 && i < int64(len(run)) && run[i].id == id {
					return run[i], true
				}
			}
		}
	} else if len(q.tail) > 0 {
		if i := id - q.tail[0].id; i >= 0 && i < int64(len(q.tail)) && q.tail[i].id == id {
			return q.tail[i], true
		}
	}
	k, i := q.locate(id)
	r := q.run(k)
	if i < len(r) && r[i].id == id {
		return r[i], true
	}
	return record{}, false
}

// after returns the position of the first record whose id is greater than
// id: a run and an index in it, which may be the end of the run.
func (q *seq) after(id int64) (k, i int) {
	if id == maxID {
		return q.nruns() - 1, len(q.tail)
	}
	return q.locate(id + 1)
}

// each calls visit with the records from position (k, i) on, in order,
// until it returns false.
func (q *seq) each(k, i int, visit func(record) bool) {
	for ; k < q.nruns(); k, i = k+1, 0 {
		r := q.run(k)
		for ; i < len(r); i++ {
			if !visit(r[i]) {
				return
			}
		}
	}
}

// with returns the sequence with r added: appended when its id is the
// largest, inserted in its place otherwise. gen is the generation of the
// writer.
func (q seq) with(r record, gen uint64) seq {
	if last, ok := q.last(); !ok || r.id > last.id {
		return q.appended(r, gen)
	}
	k, i := q.locate(r.id)
	run := slices.Insert(slices.Clone(q.run(k)), i, r)
	if k == len(q.runs) {
		q.tail = run
		q.n++
		q.gen = gen
		return q
	}
	q.runs, q.firsts = slices.Clone(q.runs), slices.Clone(q.firsts)
	if len(run) > 2*runCap {
		// Split a run that grew past twice its room.
		half := len(run) / 2
		q.runs = slices.Insert(q.runs, k+1, run[half:])
		q.firsts = slices.Insert(q.firsts, k+1, run[half].id)
		run = run[:half:half]
	}
	q.runs[k], q.firsts[k] = run, run[0].id
	q.n++
	return q
}

// appended returns the sequence with r, whose id is the largest, at its
// end.
func (q seq) appended(r record, gen uint64) seq {
	if len(q.tail) >= runCap {
		// Seal the tail. The list of runs grows in place too, under the
		// same rule as the tail.
		if q.gen != gen {
			q.runs, q.firsts = slices.Clip(q.runs), slices.Clip(q.firsts)
		}
		q.runs = append(q.runs, q.tail)
		q.firsts = append(q.firsts, q.tail[0].id)
		q.tail = nil
	}
	if q.gen != gen || cap(q.tail) == len(q.tail) {
		// The room grows with the tail, up to a run's, as a store of a
		// few items, written to, needs little.
		tail := make([]record, len(q.tail), min(runCap, max(2*len(q.tail), 16)))
		copy(tail, q.tail)
		q.tail = tail
	}
	q.tail = append(q.tail, r)
	q.n++
	q.gen = gen
	return q
}

// replaced returns the sequence with the record of r's id replaced by r,
// and whether there was one.
func (q seq) replaced(r record, gen uint64) (seq, bool) {
	k, i := q.locate(r.id)
	old := q.run(k)
	if i >= len(old) || old[i].id != r.id {
		return q, false
	}
	run := slices.Clone(old)
	run[i] = r
	q.setRun(k, run, gen)
	return q, true
}

// without returns the sequence without the record of id, and whether
// there was one.
func (q seq) without(id int64, gen uint64) (seq, bool) {
	k, i := q.locate(id)
	old := q.run(k)
	if i >= len(old) || old[i].id != id {
		return q, false
	}
	run := slices.Delete(slices.Clone(old), i, i+1)
	q.n--
	if len(run) == 0 && k < len(q.runs) {
		q.runs = slices.Delete(slices.Clone(q.runs), k, k+1)
		q.firsts = slices.Delete(slices.Clone(q.firsts), k, k+1)
		return q, true
	}
	q.setRun(k, run, gen)
	return q, true
}

// setRun puts a copied run in place of run k.
func (q *seq) setRun(k int, run []record, gen uint64) {
	if k == len(q.runs) {
		q.tail = run
		q.gen = gen
		return
	}
	q.runs, q.firsts = slices.Clone(q.runs), slices.Clone(q.firsts)
	q.runs[k], q.firsts[k] = run, run[0].id
}

// buildSeq returns the sequence of records, which are in ascending order
// of id, in full runs.
func buildSeq(recs []record, gen uint64) seq {
	q := seq{n: len(recs), gen: gen}
	for len(recs) > runCap {
		q.runs = append(q.runs, recs[:runCap:runCap])
		q.firsts = append(q.firsts, recs[0].id)
		recs = recs[runCap:]
	}
	// The tail has no room to spare: the first append copies it into a
	// run's room, and a store that is never written, as most of a large
	// document's are not, holds no more than its records.
	q.tail = slices.Clone(recs)
	return q
}
