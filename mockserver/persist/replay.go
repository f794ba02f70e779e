package persist

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"slices"
	"strings"

	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/mockserver/store"
)

// A start reads the log from its first record to its last whole one: a
// record is applied once read whole with its sum, and a state of several
// records once its last is. What follows the last whole record, a record
// torn by a crash or bytes that are not a record, was never acknowledged
// as saved (a save is acknowledged once the records up to its end are
// synced), and is reported and set aside.

// logForm is a form a log names by number: the resource whose items are
// written in it, and how.
type logForm struct {
	resource string
	form     catalogue.Form
}

// keptItem is an item as the log holds it. Its texts are the log's bytes.
type keptItem struct {
	id   int64
	form int
	name string
	keys []string
	text []byte
	gone bool // removed since
}

// keptItems are the items of a resource, in order of id, as a log of a
// million adds reads them fast: a state's items and later adds come in
// order of id, and are appended; an item a client gave a smaller id goes
// to extra, and a removed one is marked gone.
type keptItems struct {
	sorted []keptItem
	extra  map[int64]keptItem
	n      int // items not gone
}

// find returns the index in sorted of the item of id, or -1.
func (k *keptItems) find(id int64) int {
	lo, hi := 0, len(k.sorted)
	if n := len(k.sorted); n > 0 && k.sorted[n-1].id == id {
		return n - 1
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if k.sorted[m].id < id {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(k.sorted) && k.sorted[lo].id == id {
		return lo
	}
	return -1
}

// get returns the item of id.
func (k *keptItems) get(id int64) (keptItem, bool) {
	if i := k.find(id); i >= 0 && !k.sorted[i].gone {
		return k.sorted[i], true
	}
	it, ok := k.extra[id]
	return it, ok
}

// put adds or replaces the item of it.id.
func (k *keptItems) put(it keptItem) {
	if i := k.find(it.id); i >= 0 {
		if k.sorted[i].gone {
			k.n++
		}
		k.sorted[i] = it
		return
	}
	if _, ok := k.extra[it.id]; ok {
		k.extra[it.id] = it
		return
	}
	k.n++
	if n := len(k.sorted); n == 0 || k.sorted[n-1].id < it.id {
		k.sorted = append(k.sorted, it)
		return
	}
	if k.extra == nil {
		k.extra = map[int64]keptItem{}
	}
	k.extra[it.id] = it
}

// remove removes the item of id.
func (k *keptItems) remove(id int64) {
	if i := k.find(id); i >= 0 && !k.sorted[i].gone {
		k.sorted[i].gone = true
		k.n--
		return
	}
	if _, ok := k.extra[id]; ok {
		delete(k.extra, id)
		k.n--
	}
}

// keptResource is what the log holds of one resource.
type keptResource struct {
	// served is set once the log holds the resource's served items:
	// a state of them, or a write.
	served bool
	items  keptItems
	held   []catalogue.Held
	next   int64
	// partial is a state whose last record has not been read yet, and
	// partialHeld the held items of one, and partialNext its next id.
	partial     *keptItems
	partialHeld []catalogue.Held
	partialNext int64
}

// fingerprint tells a file petmock wrote from one changed since.
type fingerprint struct {
	size    int64
	modTime int64 // in nanoseconds since 1970
	sum     uint32
}

// logContent is what a log holds.
type logContent struct {
	forms     []logForm
	resources map[string]*keptResource
	order     []string // the resources, in the order the log first names them
	settings  []byte   // the JSON of the last recSettings, or nil
	// exported are the last two fingerprints of each file written for
	// people to read, by name, the latest first: a crash while one was
	// replaced leaves either.
	exported map[string][]fingerprint
	records  int
	// writes counts the records of single writes; stateEnd is where the
	// records before the first of them end, the state the log was
	// written anew with.
	writes   int
	stateEnd int64
	// end is where the last whole record ends, and size the size of the
	// file; tail says what is wrong with the bytes between them, or is
	// nil when they are zeros.
	end, size int64
	tail      error
}

// readLog reads the log at path. A missing log gives an error for which
// errors.Is(err, os.ErrNotExist) holds; a file that does not begin as a
// log does, an error that says so. A torn or corrupt tail is not an
// error: it is in logContent.tail.
func readLog(path string) (*logContent, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lc := &logContent{resources: map[string]*keptResource{}, exported: map[string][]fingerprint{}, size: int64(len(data))}
	tuples := map[string][]string{}
	off := 0
	for off+frameHeader <= len(data) {
		n := binary.LittleEndian.Uint32(data[off:])
		sum := binary.LittleEndian.Uint32(data[off+4:])
		if n == 0 && sum == 0 {
			break // the zeros past the last record
		}
		if n > maxPayload || off+frameHeader+int(n) > len(data) {
			lc.tail = fmt.Errorf("the record at byte %d is cut short", off)
			break
		}
		payload := data[off+frameHeader : off+frameHeader+int(n)]
		if crc32.Checksum(payload, castagnoli()) != sum {
			lc.tail = fmt.Errorf("the record at byte %d does not match its checksum", off)
			break
		}
		if lc.records == 0 && !isHeader(payload) {
			return nil, errors.New("it is not a petmock state log")
		}
		if err := lc.apply(payload, tuples); err != nil {
			lc.tail = fmt.Errorf("the record at byte %d: %v", off, err)
			break
		}
		lc.records++
		off += frameHeader + int(n)
		if lc.writes == 0 {
			lc.stateEnd = int64(off)
		}
	}
	lc.end = int64(off)
	if lc.tail == nil && off < len(data) && !allZero(data[off:]) {
		lc.tail = fmt.Errorf("the record at byte %d is cut short", off)
	}
	if lc.records == 0 && len(data) > 0 && lc.tail != nil {
		return nil, fmt.Errorf("it is not a petmock state log: %v", lc.tail)
	}
	return lc, nil
}

// isHeader reports whether payload is a log's first record.
func isHeader(payload []byte) bool {
	r := reader{p: payload}
	return r.byte() == recHeader && string(r.bytes()) == logMagic && r.err == nil
}

// allZero reports whether b is all zeros.
func allZero(b []byte) bool {
	for len(b) > 0 {
		n := min(len(b), 4096)
		if !bytes.Equal(b[:n], zeroPage[:n]) {
			return false
		}
		b = b[n:]
	}
	return true
}

var zeroPage [4096]byte

// resource returns what the log holds of the resource of name, adding it.
func (lc *logContent) resource(name string) *keptResource {
	kr := lc.resources[name]
	if kr == nil {
		kr = &keptResource{next: 1}
		lc.resources[name] = kr
		lc.order = append(lc.order, name)
	}
	return kr
}

// form returns the form numbered n.
func (lc *logContent) form(n uint64) (logForm, int, error) {
	if n >= uint64(len(lc.forms)) {
		return logForm{}, 0, fmt.Errorf("form %d was not named", n)
	}
	return lc.forms[n], int(n), nil
}

// apply applies one record. tuples interns the filter keys, which most
// items share.
func (lc *logContent) apply(payload []byte, tuples map[string][]string) error {
	r := &reader{p: payload}
	keys := func() []string {
		n := r.uvarint()
		if r.err != nil || n > uint64(len(r.p)) {
			r.fail()
			return nil
		}
		start := r.p
		for range n {
			r.bytes()
		}
		if r.err != nil {
			return nil
		}
		joined := start[:len(start)-len(r.p)]
		if t, ok := tuples[string(joined)]; ok {
			return t
		}
		out := make([]string, n)
		rr := reader{p: joined}
		for i := range out {
			out[i] = string(rr.bytes())
		}
		tuples[string(joined)] = out
		return out
	}
	switch kind := r.byte(); kind {
	case recHeader:
		r.bytes()
		if v := r.uvarint(); r.err == nil && v != logVersion {
			return fmt.Errorf("version %d of the log, this petmock reads version %d", v, logVersion)
		}
	case recForm:
		n := r.uvarint()
		resource := string(r.bytes())
		f := catalogue.Form{Document: string(r.bytes()), Seed: r.uvarint(), IDProperty: string(r.bytes()), ParentKey: int(r.varint())}
		lf := logForm{resource: resource, form: f}
		switch {
		case r.err != nil:
		case n < uint64(len(lc.forms)) && lc.forms[n] == lf:
			// Named again, as a log written anew names every form and the
			// writes copied after may name one again.
		case n != uint64(len(lc.forms)):
			return fmt.Errorf("form %d named where %d is next", n, len(lc.forms))
		default:
			lc.forms = append(lc.forms, lf)
		}
	case recAdd, recPut:
		lf, fn, err := lc.form(r.uvarint())
		if err != nil {
			return err
		}
		id, next := r.varint(), r.varint()
		var name string
		if kind == recAdd {
			name = string(r.bytes())
		}
		ks := keys()
		text := r.bytes()
		if r.err != nil {
			return r.err
		}
		kr := lc.resource(lf.resource)
		if kind == recPut {
			old, _ := kr.items.get(id)
			name = old.name // an item replaced keeps its name
		}
		kr.items.put(keptItem{id: id, form: fn, name: name, keys: ks, text: text})
		kr.next, kr.served = next, true
		lc.writes++
	case recDelete:
		lf, _, err := lc.form(r.uvarint())
		if err != nil {
			return err
		}
		id, next := r.varint(), r.varint()
		if r.err != nil {
			return r.err
		}
		kr := lc.resource(lf.resource)
		kr.items.remove(id)
		kr.next, kr.served = next, true
		lc.writes++
	case recState:
		lf, fn, err := lc.form(r.uvarint())
		if err != nil {
			return err
		}
		next, flags, count := r.varint(), r.byte(), r.uvarint()
		kr := lc.resource(lf.resource)
		if flags&stateFirst != 0 || kr.partial == nil {
			kr.partial, kr.partialNext = &keptItems{sorted: make([]keptItem, 0, min(count, uint64(len(r.p))))}, next
		}
		for r.err == nil && len(r.p) > 0 {
			id := r.varint()
			var name string
			if b := r.bytes(); len(b) > 0 {
				name = string(b)
			}
			ks := keys()
			kr.partial.put(keptItem{id: id, form: fn, name: name, keys: ks, text: r.bytes()})
		}
		if r.err != nil {
			return r.err
		}
		if flags&stateLast != 0 {
			kr.items, kr.next, kr.held, kr.served = *kr.partial, kr.partialNext, nil, true
			kr.partial = nil
		}
	case recHeld:
		resource := string(r.bytes())
		flags, next := r.byte(), r.varint()
		kr := lc.resource(resource)
		if next != 0 && !kr.served && (kr.next == 1 || next > kr.next) {
			kr.next = next
		}
		if flags&stateFirst != 0 {
			kr.partialHeld = kr.partialHeld[:0]
		}
		for r.err == nil && len(r.p) > 0 {
			_, lf, err := lc.form(r.uvarint())
			if err != nil {
				return err
			}
			e := store.Entry{ID: r.varint(), Name: string(r.bytes()), Keys: keys(), Text: r.bytes()}
			why := string(r.bytes())
			kr.partialHeld = append(kr.partialHeld, catalogue.Held{KeptItem: catalogue.KeptItem{Entry: e, Form: &lc.forms[lf].form}, Reason: why})
		}
		if r.err != nil {
			return r.err
		}
		if flags&stateLast != 0 {
			kr.held, kr.partialHeld = kr.partialHeld, nil
		}
	case recSettings:
		lc.settings = r.bytes()
	case recExported:
		name := string(r.bytes())
		fp := fingerprint{size: r.varint(), modTime: r.varint(), sum: uint32(r.uvarint())}
		if r.err == nil {
			lc.exported[name] = append([]fingerprint{fp}, lc.exported[name]...)[:min(2, len(lc.exported[name])+1)]
		}
	default:
		return fmt.Errorf("a record of unknown kind %d", kind)
	}
	return r.err
}

// kept returns what the log holds, for catalogue.Resources.Recover: each
// resource's items in order of id.
func (lc *logContent) kept() []catalogue.KeptResource {
	out := make([]catalogue.KeptResource, 0, len(lc.order))
	for _, name := range lc.order {
		kr := lc.resources[name]
		items := make([]catalogue.KeptItem, 0, kr.items.n)
		add := func(it keptItem) {
			items = append(items, catalogue.KeptItem{Entry: store.Entry{ID: it.id, Name: it.name, Keys: it.keys, Text: it.text}, Form: &lc.forms[it.form].form})
		}
		for _, it := range kr.items.sorted {
			if !it.gone {
				add(it)
			}
		}
		if len(kr.items.extra) > 0 {
			for _, it := range kr.items.extra {
				add(it)
			}
			slices.SortFunc(items, func(a, b catalogue.KeptItem) int { return cmp.Compare(a.Entry.ID, b.Entry.ID) })
		}
		out = append(out, catalogue.KeptResource{Name: name, Items: items, Held: kr.held, Next: kr.next})
	}
	return out
}

// describe says, for the log, how much the log held.
func (lc *logContent) describe() string {
	var parts []string
	for _, name := range lc.order {
		kr := lc.resources[name]
		parts = append(parts, fmt.Sprintf("%s=%d", name, kr.items.n))
	}
	return strings.Join(parts, " ")
}
