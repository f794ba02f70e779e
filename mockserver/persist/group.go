package persist

import (
	"context"
	"encoding/binary"
	"errors"

	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/mockserver/store"
)

// Every write of the items is told to the saver as it is made (Wrote,
// under the lock of its store), which encodes it as a record of the log,
// in memory, in the order of the writes of each store. Without an
// interval (Config.Interval, petmock --save-interval), a write is answered
// only once a save holds it (Commit): it waits for the next save, which
// starts at once when none is under way, and writes that come while a save
// is under way wait together for the one after it (a group commit). A save
// appends their records to the log and syncs it: it costs in proportion
// to the writes it holds, not to the store.
//
// A save that fails undoes the writes it held, and those made since:
// each store returns to the state the log holds (store.Revert), and each
// write is answered 503 saying that nothing was changed, so that a client
// that sends it again creates no duplicate. Until a save can be made
// again, every write is refused before it changes anything. Only a write
// made before a server took over for a new version of the document, whose
// stores have gone, cannot be undone: the saver then writes the whole
// state anew once it can, and the write is answered 503 saying that the
// change was made in memory only.

// ErrUndone is the error of a write that could not be saved and was
// undone: it changed nothing, and catalogue's answer says so.
var ErrUndone = catalogue.ErrUndone

// segment is a stretch of records waiting for a save: records encoded
// already, or a state to encode when it is saved.
type segment struct {
	data  []byte
	state *lazyState
}

// lazyState is the whole state of a resource's served items, written from
// an immutable state of its store when it is saved: a reset of a million
// items costs its writer nothing under the store's lock.
type lazyState struct {
	form     int
	resource string
	mark     store.Mark
}

// batch is the records of the writes that wait for one save.
type batch struct {
	segs []segment
	// first and upTo are the numbers of its first and last writes; upTo
	// is 0 while it holds none.
	first, upTo uint64
	// before is the state of each store before the batch's first write
	// to it, to return to if the save fails.
	before map[*store.Store]store.Mark
	// tookOver is set when a server took over among its writes: then
	// they cannot be undone.
	tookOver bool
	done     chan struct{} // closed once the save is made, or failed
	err      error         // why it failed; set before done is closed
}

func newBatch() *batch {
	return &batch{before: map[*store.Store]store.Mark{}, done: make(chan struct{})}
}

// bytes appends rec, an encoded record, to the batch.
func (b *batch) bytes(rec []byte) {
	if n := len(b.segs); n > 0 && b.segs[n-1].state == nil {
		b.segs[n-1].data = append(b.segs[n-1].data, rec...)
		return
	}
	b.segs = append(b.segs, segment{data: rec})
}

// frame appends a record whose payload write appends.
func (b *batch) frame(write func([]byte) []byte) {
	if n := len(b.segs); n > 0 && b.segs[n-1].state == nil {
		b.segs[n-1].data = frame(b.segs[n-1].data, write)
		return
	}
	b.segs = append(b.segs, segment{data: frame(nil, write)})
}

// empty reports whether the batch holds no record.
func (b *batch) empty() bool { return len(b.segs) == 0 }

// Wrote encodes a write of the items as a record of the log, for the next
// save, as catalogue.Keeper asks. It refuses every write while saves fail
// (see Config.KeepServing), so that a write that could not be kept changes
// nothing.
func (s *Saver) Wrote(rs *catalogue.Resource, w store.Write) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refusing != nil {
		return s.refusing
	}
	s.last++
	if !s.recording {
		// The whole state is written anew at the next save, this write
		// with it.
		return nil
	}
	b := s.next
	if b.upTo == 0 {
		b.first = s.last
	}
	b.upTo = s.last
	st := rs.Store()
	if _, ok := b.before[st]; !ok {
		b.before[st] = w.Before
	}
	name := rs.Spec().Name
	form := s.formOf(rs)
	if w.Kind == store.WriteReplace {
		b.segs = append(b.segs, segment{state: &lazyState{form: form, resource: name, mark: w.State}})
		s.known[name] = true
		return nil
	}
	if !s.known[name] {
		// The log holds nothing of the resource's items yet, which are
		// its starting items: they go first, as the write found them.
		b.segs = append(b.segs, segment{state: &lazyState{form: form, resource: name, mark: w.Before}})
		s.known[name] = true
	}
	e := w.Entry
	b.frame(func(p []byte) []byte {
		switch w.Kind {
		case store.WriteAdd:
			p = append(p, recAdd)
		case store.WritePut:
			p = append(p, recPut)
		default:
			p = append(p, recDelete)
		}
		p = binary.AppendUvarint(p, uint64(form))
		p = binary.AppendVarint(p, e.ID)
		p = binary.AppendVarint(p, w.Next)
		if w.Kind == store.WriteDelete {
			return p
		}
		if w.Kind == store.WriteAdd {
			p = appendText(p, e.Name)
		}
		p = appendKeys(p, e.Keys)
		return appendText(p, e.Text)
	})
	return nil
}

// TookOver notes that set took over, for catalogue.Keeper: the writes
// before it cannot be undone, as their stores are gone, and the log is
// written anew soon, in the form of set's document.
func (s *Saver) TookOver(set *catalogue.Resources) {
	s.mu.Lock()
	s.next.tookOver = true
	s.mu.Unlock()
	s.compactSoon.Store(true)
}

// formOf returns the number of the form rs's items are written in, naming
// it in the log first when it is new. s.mu must be held.
func (s *Saver) formOf(rs *catalogue.Resource) int {
	if n, ok := s.resourceForms[rs]; ok {
		return n
	}
	n := s.formNumber(rs.Spec().Name, rs.Form())
	s.resourceForms[rs] = n
	return n
}

// formNumber returns the number of the form f of resource, naming it in
// the log first when it is new. s.mu must be held.
func (s *Saver) formNumber(resource string, f catalogue.Form) int {
	lf := logForm{resource: resource, form: f}
	if n, ok := s.forms[lf]; ok {
		return n
	}
	n := len(s.formList)
	s.forms[lf] = n
	s.formList = append(s.formList, lf)
	s.next.frame(func(p []byte) []byte { return appendForm(p, n, lf) })
	return n
}

// Commit waits until a save holds the writes made before the call, as
// catalogue.Resources.SetCommit asks, or returns why none could: an error
// for which errors.Is(err, ErrUndone) holds when the writes were undone,
// the save's error when they could not be, or ctx's when the client goes
// away first. With Config.KeepServing, a failed save acknowledges the
// writes all the same, and counts them as not saved.
func (s *Saver) Commit(ctx context.Context) error {
	s.mu.Lock()
	if s.durable >= s.last {
		s.mu.Unlock()
		return nil
	}
	if !s.recording && s.cfg.KeepServing {
		s.ledger.acknowledged(s.last, s.last)
		s.mu.Unlock()
		return nil
	}
	b := s.next
	if f := s.inflight; f != nil && s.last <= f.upTo {
		b = f
	}
	s.mu.Unlock()
	select {
	case s.kick <- struct{}{}:
	default:
	}
	select {
	case <-b.done:
		return b.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Acknowledge is the commit of Config.Interval, to give
// catalogue.Resources.SetCommit in place of Commit: the write is answered
// at once, counted as not saved, and saved at the next interval.
func (s *Saver) Acknowledge(context.Context) error {
	s.mu.Lock()
	last := s.last
	s.mu.Unlock()
	s.ledger.acknowledged(last, last)
	return nil
}

// errNotKept is the error of writes that a failed save could not undo.
var errNotKept = errors.New("not kept")
