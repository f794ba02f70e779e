package store

import (
	"errors"
	"maps"
	"math"
)

// Items are ordered and found by their int64 ids, which cost nothing to
// keep. A resource whose clients know its items by other ids, such as
// UUIDs a fixture gives or user names a client picks, names them: an
// entry's Name is the id clients know it by, and ID finds the item of a
// name. Only stores of named items keep the index of names, so a store of
// integer ids pays nothing for it.

// ErrNameTaken is returned by Store.Add for an entry whose name another
// item of the store has.
var ErrNameTaken = errors.New("name taken")

// names maps the names of items to their ids. A published names is never
// changed: a write that adds a name makes a new one, which shares with the
// old what it can. Names of items since removed may stay: a lookup checks
// that the item is still there, and ids are not given twice.
type names struct {
	// base holds most names; it is copied only when recent is merged
	// into it.
	base map[string]int64
	// recent holds the names added since base was made, copied by each
	// write that adds one: at most about the square root of len(base),
	// so that an add costs that, and the merges, spread over the adds
	// between them, as much.
	recent map[string]int64
}

// minRecent is the number of names recent may hold however small base is.
const minRecent = 32

// id returns the id of name, and whether it has one; the item may have
// been removed since.
func (n *names) id(name string) (int64, bool) {
	if n == nil {
		return 0, false
	}
	if id, ok := n.recent[name]; ok {
		return id, true
	}
	id, ok := n.base[name]
	return id, ok
}

// with returns n with name given to id. live tells the ids of items still
// held: a merge drops the names of the others.
func (n *names) with(name string, id int64, live func(int64) bool) *names {
	if n == nil {
		return &names{base: map[string]int64{name: id}}
	}
	if len(n.recent) < max(minRecent, int(math.Sqrt(float64(len(n.base))))) {
		recent := make(map[string]int64, len(n.recent)+1)
		maps.Copy(recent, n.recent)
		recent[name] = id
		return &names{base: n.base, recent: recent}
	}
	base := make(map[string]int64, len(n.base)+len(n.recent)+1)
	for _, m := range []map[string]int64{n.base, n.recent} {
		for k, v := range m {
			if live(v) {
				base[k] = v
			}
		}
	}
	base[name] = id
	return &names{base: base}
}

// byID returns the name of each id, for a listing of the entries.
func (n *names) byID() map[int64]string {
	if n == nil {
		return nil
	}
	out := make(map[int64]string, len(n.base)+len(n.recent))
	for _, m := range []map[string]int64{n.base, n.recent} {
		for k, v := range m {
			out[v] = k
		}
	}
	return out
}

// ID returns the id of the item whose Name is name, if the store holds
// one.
func (s *Store) ID(name string) (int64, bool) {
	sn := s.snap.Load()
	id, ok := sn.names.id(name)
	if !ok {
		return 0, false
	}
	if _, held := sn.all.find(id); !held {
		return 0, false
	}
	return id, true
}
