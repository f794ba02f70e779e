package store

import (
	"io"
	"weak"
)

// PageView is a page of one state of the store, selected but not copied.
// Its items are read from the store's own memory, which no write changes,
// so every method of a PageView reads the same items whatever is written
// after View returns. A page of a hundred items of a mebibyte each can so
// be written to a slow client an item at a time, consistent to the end,
// and cost no more memory than a page of small items.
type PageView struct {
	sn *snapshot
	pg Page
}

var _ io.WriterTo = PageView{}

// View returns the page pg of the store's current state. Nothing is read
// until a method of the view is called.
func (s *Store) View(pg Page) PageView { return PageView{sn: s.snap.Load(), pg: pg} }

// State names the state of a store a view reads, so that what was made
// of one view can be told to hold for a later one: see PageView.Reads. It
// does not keep the state from being collected once the store has moved
// on, and then names no state at all.
type State struct{ sn weak.Pointer[snapshot] }

// State returns the state the view reads.
func (v PageView) State() State { return State{weak.Make(v.sn)} }

// Reads reports whether the view reads the state st names: the very same,
// which no write changes, as every write makes a new one.
func (v PageView) Reads(st State) bool { return st.sn.Value() == v.sn }

// MayExceed reports whether the page may be longer than size bytes of
// JSON. It judges from the longest item the state has held, without
// reading the page, so that asking costs a page of small items nothing. A
// page of which it reports false is at most size bytes long.
func (v PageView) MayExceed(size int) bool {
	return int64(v.pg.Limit)*int64(v.sn.longest+len(",")) > int64(size-len("[]"))
}

// AppendTo appends the page, a JSON array, to dst. It returns the id of
// the last item on the page, and whether more items follow. Its cost
// depends on the size of the page, not of the store.
func (v PageView) AppendTo(dst []byte) (out []byte, last int64, more bool) {
	return v.sn.appendPage(dst, v.pg)
}

// Measure returns the length of the page as a JSON array, the id of its
// last item and whether more items follow, without copying the page.
func (v PageView) Measure() (size int, last int64, more bool) {
	size = len("[]")
	n := 0
	more = v.sn.eachOnPage(v.pg, func(r record) bool {
		if n > 0 {
			size += len(",")
		}
		size += int(r.n)
		last = r.id
		n++
		return true
	})
	return size, last, more
}

// WriteTo writes the page to w as a JSON array of the length Measure
// returns, an item at a time, from the store's own memory. It stops at
// the first error of w.
func (v PageView) WriteTo(w io.Writer) (n int64, err error) {
	write := func(b []byte) bool {
		var m int
		m, err = w.Write(b)
		n += int64(m)
		return err == nil
	}
	writeString := func(s string) bool {
		var m int
		m, err = io.WriteString(w, s)
		n += int64(m)
		return err == nil
	}
	if !writeString("[") {
		return n, err
	}
	first := true
	v.sn.eachOnPage(v.pg, func(r record) bool {
		if !first && !writeString(",") {
			return false
		}
		first = false
		return write(v.sn.text(r))
	})
	if err != nil {
		return n, err
	}
	writeString("]")
	return n, err
}
