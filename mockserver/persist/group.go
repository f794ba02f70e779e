package persist

import "context"

// Without an interval (Config.Interval, petmock --save-interval), a write
// is answered only once it is saved (Commit): it waits for the next save,
// which starts at once when none is under way, and a save holds every
// write that waited for it. Writes that come while a save is under way
// wait together for the one after it, so that under load a save keeps many
// writes for the cost of one (a group commit).

// batch is the writes that wait for one save.
type batch struct {
	first, last uint64        // their tickets
	done        chan struct{} // closed once the save is made, or failed
	err         error         // why the save failed; set before done is closed
}

// Commit waits until a save holds the writes made before the call, as
// catalogue.Resources.SetCommit asks, or returns why none could: the
// save's error, or ctx's when the client goes away first. With
// Config.KeepServing, a failed save acknowledges the writes all the same,
// and counts them as not saved.
func (s *Saver) Commit(ctx context.Context) error {
	s.groupMu.Lock()
	// The ticket is taken with the batch held, so that the tickets of a
	// batch follow each other, and batches follow each other too.
	t := s.ledger.ticket()
	b := s.pending
	if b == nil {
		b = &batch{first: t, done: make(chan struct{})}
		s.pending = b
		select {
		case s.kick <- struct{}{}:
		default:
		}
	}
	b.last = t
	s.groupMu.Unlock()
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
	s.ledger.acknowledge()
	return nil
}

// commitPending saves for the writes that wait, if any, and answers them.
func (s *Saver) commitPending() {
	s.groupMu.Lock()
	b := s.pending
	s.pending = nil
	s.groupMu.Unlock()
	if b == nil {
		return
	}
	err := s.saveChanges()
	s.report(err)
	if err != nil && s.cfg.KeepServing {
		s.ledger.acknowledged(b.first, b.last)
		err = nil
	}
	b.err = err
	close(b.done)
}
