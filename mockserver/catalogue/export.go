package catalogue

import (
	"bufio"
	"encoding/json"
	"io"
)

// Version returns a number that grows with every write to any store, so
// that a saver can tell whether anything changed.
func (set *Resources) Version() uint64 {
	var v uint64
	for _, rs := range set.list {
		v += rs.store.Version()
	}
	return v
}

// Export writes the items of every resource as a fixture, each store from
// one consistent state, and returns the version it wrote.
func (set *Resources) Export(w io.Writer) (uint64, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	var version uint64
	if len(set.list) == 1 {
		v, err := set.list[0].store.Export(bw)
		if err != nil {
			return 0, err
		}
		return v, bw.Flush()
	}
	bw.WriteString("{")
	for i, rs := range set.list {
		if i > 0 {
			bw.WriteString(",")
		}
		name, _ := json.Marshal(rs.spec.Name)
		bw.WriteString("\n")
		bw.Write(name)
		bw.WriteString(": ")
		v, err := rs.store.Export(bw)
		if err != nil {
			return 0, err
		}
		version += v
	}
	bw.WriteString("}\n")
	return version, bw.Flush()
}

// Load replaces the items of the resources a fixture holds with its
// items, as petmock --state starts. A resource it does not name returns to
// its starting items, those of Config.Items or the generated catalogue, as
// LoadFixture does: a state file written with an earlier document, before
// a resource was added, leaves the new resource as petmock starts. Every
// item is checked first, and every store's limits: a fixture that is not
// valid, or that a store cannot hold, changes nothing, and the error says
// where it is wrong.
func (set *Resources) Load(r io.Reader) error {
	set, done := set.settled()
	defer done()
	loaded, err := readFixture(r, set.list, nil)
	if err != nil {
		return err
	}
	return set.load(loaded)
}
