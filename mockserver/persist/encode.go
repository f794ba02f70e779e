package persist

import (
	"encoding/binary"

	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/mockserver/store"
)

// headerRecord appends the payload of the first record of a log.
func headerRecord(p []byte) []byte {
	p = append(p, recHeader)
	p = appendText(p, logMagic)
	return binary.AppendUvarint(p, logVersion)
}

// appendForm appends the payload of the record that names form n.
func appendForm(p []byte, n int, lf logForm) []byte {
	p = append(p, recForm)
	p = binary.AppendUvarint(p, uint64(n))
	p = appendText(p, lf.resource)
	p = appendText(p, lf.form.Document)
	p = binary.AppendUvarint(p, lf.form.Seed)
	p = appendText(p, lf.form.IDProperty)
	return binary.AppendVarint(p, int64(lf.form.ParentKey))
}

// emit writes one record whose payload write appends: to a batch in
// memory, or to a log written anew.
type emit func(write func([]byte) []byte)

// emitState emits the records of the whole state of a resource: its
// served items, of form, from the state m, in records of about stateChunk
// each.
func emitState(out emit, form int, m store.Mark) {
	head := func(p []byte, flags byte) []byte {
		p = append(p, recState)
		p = binary.AppendUvarint(p, uint64(form))
		p = binary.AppendVarint(p, m.Next())
		p = append(p, flags)
		return binary.AppendUvarint(p, uint64(m.Len()))
	}
	var body []byte
	flags := byte(stateFirst)
	flush := func(last bool) {
		if last {
			flags |= stateLast
		}
		out(func(p []byte) []byte { return append(head(p, flags), body...) })
		body, flags = body[:0], 0
	}
	m.Each(func(e store.Entry) bool {
		body = binary.AppendVarint(body, e.ID)
		body = appendText(body, e.Name)
		body = appendKeys(body, e.Keys)
		body = appendText(body, e.Text)
		if len(body) >= stateChunk {
			flush(false)
		}
		return true
	})
	flush(true)
}

// emitHeld emits the records of the items held back of resource, each
// form named by its number, which forms gives, and the id it gave next,
// when the document lacks it.
func emitHeld(out emit, resource string, held []catalogue.Held, next int64, forms func(catalogue.Form) int) {
	head := func(p []byte, flags byte) []byte {
		p = append(p, recHeld)
		p = appendText(p, resource)
		p = append(p, flags)
		return binary.AppendVarint(p, next)
	}
	var body []byte
	flags := byte(stateFirst)
	flush := func(last bool) {
		if last {
			flags |= stateLast
		}
		out(func(p []byte) []byte { return append(head(p, flags), body...) })
		body, flags = body[:0], 0
	}
	for _, h := range held {
		body = binary.AppendUvarint(body, uint64(forms(*h.Form)))
		body = binary.AppendVarint(body, h.Entry.ID)
		body = appendText(body, h.Entry.Name)
		body = appendKeys(body, h.Entry.Keys)
		body = appendText(body, h.Entry.Text)
		body = appendText(body, h.Reason)
		if len(body) >= stateChunk {
			flush(false)
		}
	}
	flush(true)
}

// settingsRecord appends the payload of the record of the settings, the
// JSON of savedSettings.
func settingsRecord(settings []byte) func([]byte) []byte {
	return func(p []byte) []byte { return appendText(append(p, recSettings), settings) }
}

// exportedRecord appends the payload of the record of a file written for
// people to read: its name and fingerprint.
func exportedRecord(name string, fp fingerprint) func([]byte) []byte {
	return func(p []byte) []byte {
		p = appendText(append(p, recExported), name)
		p = binary.AppendVarint(p, fp.size)
		p = binary.AppendVarint(p, fp.modTime)
		return binary.AppendUvarint(p, uint64(fp.sum))
	}
}

// encode returns the records of a batch, its states written out.
func (s *Saver) encode(b *batch) []byte {
	if len(b.segs) == 1 && b.segs[0].state == nil {
		return b.segs[0].data
	}
	var out []byte
	emitted := func(write func([]byte) []byte) { out = frame(out, write) }
	for _, seg := range b.segs {
		if seg.state == nil {
			out = append(out, seg.data...)
			continue
		}
		emitState(emitted, seg.state.form, seg.state.mark)
	}
	return out
}
