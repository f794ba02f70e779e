package persist

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/mockserver/store"
)

// The log grows with every write, and is written anew once it is twice
// the size of the state it holds, so that what a start reads, and the
// disk holds, stays in proportion to the store: a log written anew holds
// the whole state, then the writes made while it was written. The state is
// taken at one instant with every store's writes held (catalogue.Hold), a
// few microseconds; the writes up to that instant are saved to the log as
// it is, and the new log is written in the background from the states
// taken, which no write changes, while saves go on. Then the writes saved
// since are copied over, and the new log renamed over the old: a crash at
// any moment leaves one or the other, whole.

// compactMin is how much a log may grow past twice its state before it is
// written anew: a small store is not written anew at every few writes.
const compactMin = 256 << 10

// compactRetry is how long a log that could not be written anew waits
// before it is tried again.
const compactRetry = 30 * time.Second

// idleExport is how long petmock must have saved nothing before it writes
// the export of a store smaller than idleExportMax; a larger one is
// written when the log is written anew, at most every exportEvery, and at
// shutdown.
const (
	idleExport    = 2 * time.Second
	idleExportMax = 16 << 20
	exportEvery   = time.Minute
)

// cutMark is the state of one resource's items at a cut.
type cutMark struct {
	resource string
	form     int
	mark     store.Mark
}

// cut is the state of everything the log keeps at one instant: every
// write up to lsn, and none after.
type cut struct {
	lsn      uint64
	marks    []cutMark
	held     map[string][]catalogue.Held
	heldNext map[string]int64
	settings []byte
	forms    []logForm
	exported map[string][]fingerprint
	// pending are the records of the writes up to lsn not saved yet.
	pending *batch
	// version is the stores' version at the cut.
	version uint64
}

// takeCut takes the state of the items at one instant, and the records of
// the writes not saved yet up to it. With rewrite, those records are
// dropped, as the state holds their writes, and writes are recorded from
// the cut on. s.fileMu must be held.
func (s *Saver) takeCut(rewrite bool) *cut {
	items, steering := s.source.Serving()
	c := &cut{settings: settingsJSON(steering)}
	items.Hold(func(set *catalogue.Resources) {
		s.mu.Lock()
		defer s.mu.Unlock()
		known := map[string]bool{}
		for _, rs := range set.List() {
			name := rs.Spec().Name
			c.marks = append(c.marks, cutMark{resource: name, form: s.formOf(rs), mark: rs.Store().Mark()})
			known[name] = true
		}
		c.held, c.heldNext = set.Held(), set.HeldNext()
		for _, name := range slices.Sorted(maps.Keys(c.held)) {
			for _, h := range c.held[name] {
				s.formNumber(name, *h.Form)
			}
		}
		c.version = set.Version()
		c.lsn = s.last
		c.forms = slices.Clone(s.formList)
		c.exported = maps.Clone(s.exported)
		c.pending = s.next
		s.next = newBatch()
		s.known = known
		if rewrite {
			s.recording = true
		}
	})
	s.mu.Lock()
	if !sameSettings(c.settings, s.settings) {
		s.settings = c.settings
	}
	s.mu.Unlock()
	return c
}

// writeLog writes a log anew at a temporary file beside the log, of the
// state of c, synced, and returns the file, open, for the writes after c
// to be copied to.
func (s *Saver) writeLog(c *cut) (*os.File, error) {
	dir, base := filepath.Split(s.logPath)
	f, err := os.CreateTemp(filepath.Clean(dir), base+tmpSuffix+"*")
	if err != nil {
		return nil, fmt.Errorf("cannot persist to %s: %w", s.logPath, reason(err))
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	var buf []byte
	out := func(write func([]byte) []byte) {
		buf = frame(buf[:0], write)
		bw.Write(buf)
	}
	out(headerRecord)
	for n, lf := range c.forms {
		out(func(p []byte) []byte { return appendForm(p, n, lf) })
	}
	number := map[logForm]int{}
	for n, lf := range c.forms {
		number[lf] = n
	}
	for _, m := range c.marks {
		emitState(out, m.form, m.mark)
	}
	for _, name := range slices.Sorted(maps.Keys(c.held)) {
		emitHeld(out, name, c.held[name], c.heldNext[name], func(f catalogue.Form) int { return number[logForm{name, f}] })
	}
	out(settingsRecord(c.settings))
	for _, name := range slices.Sorted(maps.Keys(c.exported)) {
		fps := c.exported[name]
		for i := len(fps) - 1; i >= 0; i-- {
			out(exportedRecord(name, fps[i]))
		}
	}
	err = bw.Flush()
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("cannot persist to %s: %w", s.logPath, reason(err))
	}
	return f, nil
}

// replaceLog puts the log written anew in f in place of the log, and makes
// it the one saves append to. s.fileMu must be held.
func (s *Saver) replaceLog(f *os.File) error {
	fail := func(err error) error {
		f.Close()
		os.Remove(f.Name())
		return fmt.Errorf("cannot persist to %s: %w", s.logPath, reason(err))
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return fail(err)
	}
	if err := os.Rename(f.Name(), s.logPath); err != nil {
		return fail(err)
	}
	syncDir(filepath.Dir(s.logPath))
	next, err := adoptLogFile(f, s.logPath, size, size)
	if err != nil {
		f.Close()
		return fmt.Errorf("cannot persist to %s: %w", s.logPath, reason(err))
	}
	if s.file != nil {
		s.file.close()
	}
	s.file = next
	s.fileGen++
	s.stateSize = size
	return nil
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// rewrite writes the log anew from the state of the items now, and makes
// it the log: at start, and once saves work again after the log lost
// writes.
func (s *Saver) rewrite() error {
	s.fileMu.Lock()
	defer s.fileMu.Unlock()
	return s.rewriteLocked()
}

// rewriteLocked is rewrite, with s.fileMu held. The writes waiting for a
// save are held by the state written, and answered.
func (s *Saver) rewriteLocked() error {
	c := s.takeCut(true)
	f, err := s.writeLog(c)
	if err == nil {
		err = s.replaceLog(f)
	}
	if err != nil {
		s.mu.Lock()
		s.recording = false
		s.mu.Unlock()
		c.pending.err = err
		close(c.pending.done)
		return err
	}
	s.mu.Lock()
	s.durable = max(s.durable, c.lsn)
	s.mu.Unlock()
	s.ledger.saved(c.lsn)
	close(c.pending.done)
	return nil
}

// compaction is a log written anew in the background.
type compaction struct {
	cut *cut
	gen uint64 // of the log it was cut from
	// off is where the writes after the cut begin in that log, and
	// copied how far they were copied to f.
	off, copied int64
	f           *os.File
	err         error
}

// compactDue reports whether the log is to be written anew: it has grown
// to twice its state and compactMin more, or a server took over.
func (s *Saver) compactDue() bool {
	s.fileMu.Lock()
	defer s.fileMu.Unlock()
	if s.compacting != nil || s.file == nil || time.Since(s.compactFailed) < compactRetry {
		return false
	}
	return s.compactSoon.Load() || s.file.off > 2*s.stateSize+compactMin
}

// startCompaction cuts the log, saves the writes up to the cut, and writes
// the log anew in the background.
func (s *Saver) startCompaction() {
	s.fileMu.Lock()
	defer s.fileMu.Unlock()
	s.mu.Lock()
	ok := s.recording && !s.mustCut && s.refusing == nil
	s.mu.Unlock()
	if !ok {
		return
	}
	s.compactSoon.Store(false)
	c := s.takeCut(false)
	s.mu.Lock()
	s.inflight = c.pending
	s.mu.Unlock()
	if err := s.writeBatch(c.pending); err != nil {
		return
	}
	comp := &compaction{cut: c, gen: s.fileGen, off: s.file.off}
	comp.copied = comp.off
	s.compacting = comp
	go func() {
		comp.f, comp.err = s.writeLog(c)
		if comp.err == nil {
			comp.err = s.copyTail(comp)
		}
		s.compactDone <- comp
	}()
}

// copyTail copies the records saved to the log since the cut of comp,
// from comp.copied on, to the log written anew. It reads what saves wrote
// already, without holding them up.
func (s *Saver) copyTail(comp *compaction) error {
	s.fileMu.Lock()
	err := s.file.open()
	end, gen, old := s.file.off, s.fileGen, s.file.f
	s.fileMu.Unlock()
	if err != nil {
		return err
	}
	if gen != comp.gen {
		return errCompactionStale
	}
	return s.copyRange(comp, old, end)
}

// copyRange copies old's bytes from comp.copied to end to comp.f.
func (s *Saver) copyRange(comp *compaction, old *os.File, end int64) error {
	if end <= comp.copied {
		return nil
	}
	if _, err := comp.f.Seek(0, io.SeekEnd); err != nil {
		return err
	}
	if _, err := io.Copy(comp.f, io.NewSectionReader(old, comp.copied, end-comp.copied)); err != nil {
		return err
	}
	comp.copied = end
	return nil
}

// errCompactionStale is a log written anew from a log that was cut since.
var errCompactionStale = errors.New("the log changed while it was written anew")

// finishCompaction copies the last records saved since comp's cut, and
// puts the log written anew in place of the log; then it writes the export
// of the cut. A compaction that failed is dropped, and tried again later.
func (s *Saver) finishCompaction(comp *compaction) {
	s.fileMu.Lock()
	s.compacting = nil
	err := comp.err
	if err == nil && comp.gen != s.fileGen {
		err = errCompactionStale
	}
	if err == nil {
		err = s.file.open()
	}
	if err == nil {
		err = s.copyRange(comp, s.file.f, s.file.off)
	}
	if err == nil {
		err = s.replaceLog(comp.f)
		comp.f = nil
	}
	if err != nil {
		if comp.f != nil {
			comp.f.Close()
			os.Remove(comp.f.Name())
		}
		s.compactFailed = time.Now()
		s.fileMu.Unlock()
		if !errors.Is(err, errCompactionStale) {
			s.log.Warn("the state log could not be written anew; it goes on growing, and is tried again later", "log", s.logPath, "err", err)
		}
		return
	}
	due := time.Since(s.exportedAt) > exportEvery
	if due {
		s.exportedAt = time.Now()
	}
	s.fileMu.Unlock()
	if !due {
		return
	}
	s.exporting.Add(1)
	go func() {
		defer s.exporting.Done()
		s.exportMu.Lock()
		defer s.exportMu.Unlock()
		if err := s.writeExport(comp.cut); err != nil {
			s.log.Warn("the state file could not be written; the log beside it holds every write, and a start reads it", "path", s.files.state, "err", err)
			return
		}
		s.fileMu.Lock()
		s.exportVersion = comp.cut.version
		s.fileMu.Unlock()
	}()
}

// exportNow writes the export of the items as they are now.
func (s *Saver) exportNow() error {
	s.exportMu.Lock()
	defer s.exportMu.Unlock()
	c := s.exportCut()
	if err := s.writeExport(c); err != nil {
		return err
	}
	s.fileMu.Lock()
	s.exportVersion = c.version
	s.fileMu.Unlock()
	return nil
}

// exportCut takes the state of the items now, for an export alone.
func (s *Saver) exportCut() *cut {
	items, steering := s.source.Serving()
	c := &cut{settings: settingsJSON(steering)}
	items.Hold(func(set *catalogue.Resources) {
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, rs := range set.List() {
			c.marks = append(c.marks, cutMark{resource: rs.Spec().Name, mark: rs.Store().Mark()})
		}
		c.held = set.Held()
		c.version = set.Version()
	})
	return c
}

// exportWhenIdle writes the export of a small store that changed since
// the last, once nothing was saved for idleExport.
func (s *Saver) exportWhenIdle() {
	items, _ := s.source.Serving()
	s.fileMu.Lock()
	due := items.Version() != s.exportVersion && time.Since(s.lastWrite) > idleExport && s.stateSize < idleExportMax && s.compacting == nil
	s.fileMu.Unlock()
	if !due {
		return
	}
	if err := s.exportNow(); err != nil {
		s.log.Warn("the state file could not be written; the log beside it holds every write, and a start reads it", "path", s.files.state, "err", err)
	}
}

// describeCounts writes counts by name as name=n, in order of name.
func describeCounts(by map[string]int) string {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(by)) {
		parts = append(parts, fmt.Sprintf("%s=%d", name, by[name]))
	}
	return strings.Join(parts, " ")
}
