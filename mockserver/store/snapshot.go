package store

import (
	"slices"
	"strings"
)

// snapshot is one immutable state of the store. Writers build the next
// snapshot from the current one; they share what the write did not touch.
type snapshot struct {
	all seq // every item
	// byKey[f] lists the values of filter f that items have, in order,
	// each with the sequence of the items that have it.
	byKey [][]keyed
	// tuples are the distinct lists of filter keys items have; a record
	// names its own by index. Writers append to it; no snapshot reads past
	// its length.
	tuples [][]string
	// chunks hold the JSON text of the items. A chunk is allocated with
	// its full capacity and its length stays 0: records slice into it up
	// to its capacity, so appending text never rewrites a slice header
	// that an older snapshot shares.
	chunks [][]byte
	// version counts the writes that led to this snapshot.
	version uint64
	// bytes is the length of the JSON text of all the items; dead is
	// that of texts no item has any more, replaced or removed.
	bytes, dead int64
	// longest is the length of the longest text written to the chunks,
	// removed ones included: no item on a page is longer.
	longest int
	// names are the names of the items, nil when none has one.
	names *names
	// next is the id the next Add gives, or 0 when none is left: one
	// more than the largest id the store has held since it was last
	// replaced or restored, so that a removed item's id is not given to
	// another.
	next int64
}

// keyed is one value of a filter and the items that have it.
type keyed struct {
	key string
	seq seq
}

// chunkSize is the most room a chunk of text is given; a longer text gets
// a chunk of its own.
const chunkSize = 1 << 20

// minChunk is the least room a chunk of text is given.
const minChunk = 4 << 10

// appendText copies text into the chunks of the snapshot, which must not
// be published yet, points r at it and returns the new fill of the last
// chunk. A new chunk has room for the bytes expected, text included, up
// to chunkSize: a document of thirty thousand resources of fifty items
// each would take 30 GB in chunks of a full megabyte each.
func (sn *snapshot) appendText(r *record, text []byte, fill, expected int) int {
	if len(sn.chunks) == 0 || fill+len(text) > cap(sn.chunks[len(sn.chunks)-1]) {
		sn.chunks = append(sn.chunks, make([]byte, 0, max(len(text), min(chunkSize, max(minChunk, expected)))))
		fill = 0
	}
	last := len(sn.chunks) - 1
	copy(sn.chunks[last][fill:fill+len(text)], text)
	r.off, r.n, r.chunk = uint32(fill), uint32(len(text)), uint32(last)
	sn.bytes += int64(len(text))
	sn.longest = max(sn.longest, len(text))
	return fill + len(text)
}

// intern returns the index of the tuple of keys, adding it to the
// snapshot, which must not be published yet, if it is new.
func (sn *snapshot) intern(interned map[string]uint32, keys []string) uint32 {
	joined := tupleKey(keys)
	if i, ok := interned[joined]; ok {
		return i
	}
	i := uint32(len(sn.tuples))
	sn.tuples = append(sn.tuples, slices.Clone(keys))
	interned[joined] = i
	return i
}

// tupleKey joins filter keys into one map key; most resources have one
// filter, whose key is its own.
func tupleKey(keys []string) string {
	if len(keys) == 1 {
		return keys[0]
	}
	return strings.Join(keys, "\x00\x00")
}

// text returns the JSON text of r. Its capacity ends with it, so that a
// caller's append copies it rather than write over the next text.
func (sn *snapshot) text(r record) []byte {
	c := sn.chunks[r.chunk]
	return c[r.off : r.off+r.n : r.off+r.n]
}
