package persist

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/mockserver/journal"
	"github.com/petstore/contract/mockserver/store"
)

// probeInterval is how often a saver checks, even when nothing changes,
// that a save could be made: a full disk or a directory made read-only is
// noticed within it, and health fails at once.
const probeInterval = 250 * time.Millisecond

// spaceSlack is the room a save needs, beyond what the log was made
// longer ahead by: a file system with less is full for the log.
const spaceSlack = 16 << 10

// Config says how a Saver keeps the items. Its zero value is petmock's
// default: every write is saved before it is answered, writes are refused
// while saves fail, and every saved setting is restored.
type Config struct {
	// Interval, when not zero, is how often the writes are saved, and
	// writes are acknowledged at once, before they are saved: a crash
	// loses those since the last save (petmock --save-interval). Zero
	// answers each write once a save holds it (see Saver.Commit).
	Interval time.Duration
	// KeepServing goes on acknowledging writes while saves fail, in
	// memory only, and logs each failed save (petmock --on-save-error
	// serve). False, the default, refuses writes, and fails health, until
	// a save succeeds: no write is acknowledged that would be lost, and a
	// write whose save fails is undone.
	KeepServing bool
	// Given names the flags given at start, such as "latency" or
	// "fail-rate", whose settings the saved ones do not replace; nil
	// restores every saved setting.
	Given map[string]bool
}

// Saver keeps the items of a server in a log beside its state file, and
// its settings, forced answers and expectations in the log too; the state
// file and the settings file are an export of them, for people and for
// the tools that read fixtures.
type Saver struct {
	cfg     Config
	files   exportFiles // the state file: the path opened, or where its links lead
	logPath string
	source  Source
	// items are those the state was opened for, which a server that
	// takes over shares what it is told with (SetPersistError).
	items *catalogue.Resources
	log   *slog.Logger
	// changes tells when the settings, the forced answers or the
	// expectations changed; changesMu guards Take.
	changes   Subscription
	changesMu sync.Mutex
	ledger    ledger
	kick      chan struct{} // holds a token while writes wait for a save
	// compactSoon asks for the log to be written anew, as after a
	// server took over.
	compactSoon atomic.Bool
	compactDone chan *compaction
	exportMu    sync.Mutex     // one export at a time
	exporting   sync.WaitGroup // the exports in the background

	// fileMu serialises what writes the log: saves, cuts, and its
	// replacement by a log written anew; it guards the fields below.
	fileMu sync.Mutex
	file   *logFile
	// fileGen counts the cuts and replacements of the log, so that a
	// log written anew from before one is not put in its place.
	fileGen uint64
	// stateSize is the size of the log when it was last written anew,
	// which it may grow to twice of before it is again.
	stateSize  int64
	compacting *compaction // a log written anew in the background, or nil
	// compactFailed is when writing the log anew last failed.
	compactFailed time.Time
	// mustCut is set while the tail a failed save left is still in the
	// log: no save is made until it is cut.
	mustCut bool
	// exportDirty is set while the items changed since the export.
	exportVersion uint64
	// exportedAt is when a log written anew last had its export written.
	exportedAt time.Time
	lastWrite  time.Time

	// mu is the lock of the records that wait for a save, taken under
	// the stores' locks (see Wrote); it guards the fields below.
	mu sync.Mutex
	// refusing, while saves fail, is why every write is refused.
	refusing error
	// recording is unset while the log lacks writes that were made, or
	// is not the file at its path any more: the whole state is written
	// anew at the next save that can be made, and writes are not
	// recorded one by one till then.
	recording bool
	// next is the batch of the writes since the last save began, and
	// inflight the batch of the save under way, or nil.
	next, inflight *batch
	// last is the number of the last write, and durable that of the last
	// write a save holds.
	last, durable uint64
	// forms are the forms the log names, by their numbers, and the
	// number of the form of each resource.
	forms         map[logForm]int
	formList      []logForm
	resourceForms map[*catalogue.Resource]int
	// known are the resources whose items the log holds: a write to
	// another writes its whole state first.
	known map[string]bool
	// settings is the last record of the settings in the log.
	settings []byte
	// exported are the last two fingerprints of each file of the export,
	// by name, the latest first.
	exported map[string][]fingerprint

	reportMu sync.Mutex // orders the reports; guards failing
	failing  error      // why the last save or check failed; nil if it did not
}

// Open recovers the items of the server source serves, and its settings,
// from the log beside the state file at path, or imports the state file,
// a fixture, when there is no log yet or the file was changed by hand, or
// creates both from the server when neither exists. A path that cannot be
// saved to is refused with a *PathError that says why; a log that is not
// one is refused, and left as it is. A torn or corrupt tail of the log is
// no error: every record before it is recovered, and the rest is set
// aside in a file of its own, and logged. Run the Saver, and Close it
// once the server answers no more requests.
func Open(path string, source Source, log *slog.Logger, cfg Config) (*Saver, error) {
	file, err := resolveState(path)
	if err != nil {
		return nil, &PathError{Path: path, Err: err}
	}
	if err := checkState(file); err != nil {
		return nil, &PathError{Path: path, Err: err}
	}
	lp := logPath(file)
	if err := statePathProblem(lp); err != nil {
		return nil, &PathError{Path: lp, Err: err}
	}
	if file != path {
		log.Info("state file is a symbolic link; saving beside where it leads", "path", path, "file", file)
	}
	items, steering := source.Serving()
	s := &Saver{
		cfg:           cfg,
		files:         exportFiles{state: file, settings: settingsPath(file), held: heldPath(file)},
		logPath:       lp,
		source:        source,
		items:         items,
		log:           log,
		kick:          make(chan struct{}, 1),
		compactDone:   make(chan *compaction, 1),
		next:          newBatch(),
		forms:         map[logForm]int{},
		resourceForms: map[*catalogue.Resource]int{},
		known:         map[string]bool{},
		exported:      map[string][]fingerprint{},
	}
	if err := removeStaleStateFiles(file); err != nil {
		return nil, err
	}
	how := "every write is saved before it is answered"
	if cfg.Interval > 0 {
		how = "saved every " + cfg.Interval.String()
	}
	content, err := readLog(lp)
	switch {
	case errors.Is(err, os.ErrNotExist):
		err = s.begin(file, how)
	case err != nil:
		return nil, fmt.Errorf("state log %s cannot be read, so petmock leaves it as it is; repair or remove it: %w", lp, reason(err))
	default:
		err = s.recover(content, how)
	}
	if err != nil {
		if s.file != nil {
			s.file.close()
		}
		return nil, err
	}
	s.changes = source.Subscribe()
	s.settings = settingsJSON(steering)
	s.mu.Lock()
	s.next.frame(settingsRecord(s.settings))
	s.mu.Unlock()
	items.SetKeeper(s)
	return s, nil
}

// begin starts a log where there is none: of the state file, a fixture,
// if there is one, as a petmock before the log wrote it, and the settings
// file beside it; else of the server as it starts.
func (s *Saver) begin(file, how string) error {
	items, steering := s.source.Serving()
	imported := true
	if err := loadState(file, items); errors.Is(err, os.ErrNotExist) {
		imported = false
	} else if err != nil {
		return err
	}
	data, err := readSettings(s.files.settings)
	if err != nil {
		return err
	}
	restored, err := restoreSettings(s.files.settings, data, steering, s.cfg.Given, s.log)
	if err != nil {
		return err
	}
	if err := s.rewrite(); err != nil {
		return err
	}
	if err := s.exportNow(); err != nil {
		return err
	}
	if imported {
		s.log.Info("loaded state file; its log is made beside it", append([]any{"path", file, "log", s.logPath, "durability", how}, restored...)...)
	} else {
		s.log.Info("created state file", "path", file, "log", s.logPath, "durability", how)
	}
	return nil
}

// recover recovers the server's items and settings from what the log
// holds, and imports the state file or the settings file if one was
// changed by hand since petmock wrote it.
func (s *Saver) recover(content *logContent, how string) error {
	items, steering := s.source.Serving()
	if content.tail != nil {
		where, err := s.setAside(content)
		if err != nil {
			return err
		}
		s.log.Warn("state log has a torn or corrupt tail, which was never acknowledged as saved; every record before it is recovered",
			"log", s.logPath, "tail", content.tail.Error(), "bytes", content.size-content.end, "setAside", where)
	}
	rec, err := items.Recover(content.kept())
	if err != nil {
		return fmt.Errorf("state log %s: %w", s.logPath, err)
	}
	for _, lf := range content.forms {
		s.forms[lf] = len(s.formList)
		s.formList = append(s.formList, lf)
	}
	for name, kr := range content.resources {
		s.known[name] = kr.served
	}
	s.exported = content.exported
	if s.file, err = openLogFile(s.logPath, content.end); err != nil {
		return fmt.Errorf("state log %s: %w", s.logPath, reason(err))
	}
	s.stateSize = content.end
	s.recording = true
	restored, err := restoreSettings(s.logPath, content.settings, steering, s.cfg.Given, s.log)
	if err != nil {
		return err
	}
	imported := false
	if changed, err := changedByHand(s.files.state, s.exported[filepath.Base(s.files.state)]); err != nil {
		return fmt.Errorf("state file %s cannot be read: %w", s.files.state, reason(err))
	} else if changed {
		if err := loadState(s.files.state, items); err != nil {
			return err
		}
		imported = true
		s.log.Info("state file was changed since petmock wrote it: its items are loaded in place of the log's", "path", s.files.state)
	}
	if changed, err := changedByHand(s.files.settings, s.exported[filepath.Base(s.files.settings)]); err != nil {
		return fmt.Errorf("settings file %s cannot be read: %w", s.files.settings, reason(err))
	} else if changed {
		data, err := readSettings(s.files.settings)
		if err != nil {
			return err
		}
		if restored, err = restoreSettings(s.files.settings, data, steering, s.cfg.Given, s.log); err != nil {
			return err
		}
		imported = true
		s.log.Info("settings file was changed since petmock wrote it: its settings are loaded in place of the log's", "path", s.files.settings)
	}
	if imported {
		if err := s.rewrite(); err != nil {
			return err
		}
		if err := s.exportNow(); err != nil {
			return err
		}
	} else if converted(rec) > 0 || content.end > 2*content.stateEnd+compactMin {
		s.compactSoon.Store(true)
	}
	attrs := []any{"path", s.files.state, "log", s.logPath, "durability", how, "items", counts(rec.Served)}
	if n := converted(rec); n > 0 {
		attrs = append(attrs, "converted", counts(rec.Converted))
	}
	if len(rec.Held) > 0 {
		attrs = append(attrs, "heldBack", counts(rec.Held))
	}
	s.log.Info("loaded state file", append(attrs, restored...)...)
	for name, n := range rec.Held {
		s.log.Warn("items held back: the document does not take them, and they are kept until a version of it does",
			"resource", name, "count", n, "listed", s.files.held)
	}
	return nil
}

// converted counts the items recovered that were made to fit.
func converted(rec catalogue.Recovered) int {
	n := 0
	for _, c := range rec.Converted {
		n += c
	}
	return n
}

// setAside copies the tail of the log past its last whole record to a
// file of its own beside it, for whoever wants to look, and returns that
// file.
func (s *Saver) setAside(content *logContent) (string, error) {
	f, err := os.Open(s.logPath)
	if err != nil {
		return "", err
	}
	defer f.Close()
	tail := make([]byte, content.size-content.end)
	if _, err := f.ReadAt(tail, content.end); err != nil {
		return "", err
	}
	where := s.logPath + ".torn-" + time.Now().UTC().Format("20060102T150405.000000000Z")
	if err := os.WriteFile(where, tail, 0o644); err != nil {
		return "", fmt.Errorf("cannot set aside the torn tail of %s: %w", s.logPath, reason(err))
	}
	return where, nil
}

// Run keeps the items until ctx is done: it saves for the writes that
// wait, or every interval, writes the log anew once it has grown to
// twice the size of its state, and checks every quarter of a second that
// a save could be made, telling the server (SetPersistError, unless
// Config.KeepServing) and the log when saves begin to fail and when they
// work again.
func (s *Saver) Run(ctx context.Context) {
	probes := time.NewTicker(probeInterval)
	defer probes.Stop()
	var saves <-chan time.Time
	if s.cfg.Interval > 0 {
		t := time.NewTicker(s.cfg.Interval)
		defer t.Stop()
		saves = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.kick:
			s.save()
		case <-probes.C:
			s.probe()
		case <-saves:
			s.report(s.save())
		case c := <-s.compactDone:
			s.finishCompaction(c)
		}
		if s.compactDue() {
			s.startCompaction()
		}
	}
}

// save appends the records of the writes that wait to the log, and
// answers the writes. A failed save is reported by its caller.
func (s *Saver) save() error {
	s.fileMu.Lock()
	defer s.fileMu.Unlock()
	return s.saveLocked()
}

// saveLocked is save, with s.fileMu held.
func (s *Saver) saveLocked() error {
	s.mu.Lock()
	if !s.recording || s.mustCut {
		err := s.refusingLocked()
		s.mu.Unlock()
		return err
	}
	b := s.next
	if b.empty() {
		s.mu.Unlock()
		return nil
	}
	s.next = newBatch()
	s.inflight = b
	s.mu.Unlock()
	return s.writeBatch(b)
}

// refusingLocked returns why no save can be made now. s.mu must be held.
func (s *Saver) refusingLocked() error {
	if s.refusing != nil {
		return s.refusing
	}
	return errRewrite
}

// errRewrite is why no record is saved while the log lacks writes: the
// whole state is written anew once a save can be made.
var errRewrite = errors.New("the log lacks writes, and is written anew once a save can be made")

// writeBatch writes the records of b, which is s.inflight, to the log,
// and answers its writes. s.fileMu must be held.
func (s *Saver) writeBatch(b *batch) error {
	err := s.file.write(s.encode(b))
	s.mu.Lock()
	s.inflight = nil
	if err == nil {
		s.durable = max(s.durable, b.upTo)
		s.mu.Unlock()
		s.ledger.saved(b.upTo)
		s.lastWrite = time.Now()
		close(b.done)
		return nil
	}
	s.mu.Unlock()
	return s.failed(b, s.explain(err))
}

// failed deals with a save of b that failed: the writes are undone, or,
// with an interval or Config.KeepServing, acknowledged all the same and
// written with the whole state once a save can be made. s.fileMu must be
// held. It returns err, which it reports.
func (s *Saver) failed(b *batch, err error) error {
	keep := s.cfg.KeepServing || s.cfg.Interval > 0
	s.mu.Lock()
	rest := s.next
	s.next = newBatch()
	undo := !keep && !b.tookOver && !rest.tookOver
	if !keep {
		s.refusing = err
	}
	if !undo {
		s.recording = false
	}
	s.mu.Unlock()
	// The failed write may have left part of its records: they go before
	// any other is written.
	s.fileGen++
	if s.file.cut() != nil {
		s.mustCut = true
	}
	switch {
	case undo:
		before := map[*store.Store]store.Mark{}
		for _, batch := range []*batch{rest, b} {
			for st, m := range batch.before {
				before[st] = m // b's, the earlier, win
			}
		}
		for st, m := range before {
			st.Revert(m)
		}
		b.err, rest.err = undone{err}, undone{err}
	case s.cfg.KeepServing:
		s.ledger.acknowledged(b.first, b.upTo)
		s.ledger.acknowledged(rest.first, rest.upTo)
	case !keep:
		b.err, rest.err = err, err
	}
	close(b.done)
	close(rest.done)
	s.report(err)
	return err
}

// undone is the error of writes a failed save undid.
type undone struct{ err error }

func (u undone) Error() string        { return u.err.Error() }
func (u undone) Unwrap() []error      { return []error{u.err, catalogue.ErrUndone} }
func (u undone) Is(target error) bool { return target == catalogue.ErrUndone }

// saveRecord appends one record, such as that of a file exported, and
// saves it.
func (s *Saver) saveRecord(write func([]byte) []byte) error {
	s.mu.Lock()
	s.next.frame(write)
	s.mu.Unlock()
	return s.save()
}

// noteSettings writes a record of the settings, the forced answers and the
// expectations if they changed since the last.
func (s *Saver) noteSettings() {
	s.changesMu.Lock()
	c := s.changes.Take()
	s.changesMu.Unlock()
	if c&(journal.ChangeSettings|journal.ChangeForced|journal.ChangeExpectations) == 0 {
		return
	}
	_, steering := s.source.Serving()
	data := settingsJSON(steering)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !sameSettings(data, s.settings) {
		s.settings = data
		s.next.frame(settingsRecord(data))
	}
}

// explain returns the error of a failed save, or, when the path shows what
// is wrong, an error that says that instead.
func (s *Saver) explain(err error) error {
	if p := s.pathProblem(); p != nil {
		return p
	}
	return fmt.Errorf("cannot persist to %s: %w", s.files.state, reason(err))
}

// pathProblem says why the state file or the log could not be written
// now, from what can be seen without writing, or returns nil.
func (s *Saver) pathProblem() error {
	if p := statePathProblem(s.files.state); p != nil {
		return fmt.Errorf("cannot persist to %s: %w", s.files.state, p)
	}
	if p := statePathProblem(s.logPath); p != nil {
		return fmt.Errorf("cannot persist to %s: its log %s: %w", s.files.state, s.logPath, p)
	}
	return nil
}

// logProblem says why a save to the log would not be where a start reads
// it: its path, or a log removed or replaced. s.fileMu must be held.
func (s *Saver) logProblem() error {
	if p := statePathProblem(s.logPath); p != nil {
		if p2 := statePathProblem(s.files.state); p2 != nil && filepath.Dir(s.logPath) == filepath.Dir(s.files.state) {
			p = p2 // the same directory: say it of the path given
		}
		return fmt.Errorf("cannot persist to %s: %w", s.files.state, p)
	}
	if err := s.file.sameFile(); err != nil {
		return fmt.Errorf("cannot persist to %s: %w", s.files.state, err)
	}
	return nil
}

// failure returns why saves fail, as last found.
func (s *Saver) failure() error {
	s.reportMu.Lock()
	defer s.reportMu.Unlock()
	if s.failing != nil {
		return s.failing
	}
	return errRewrite
}

// problem says why a save could not be made now, from what can be seen
// without making one: the paths (see statePathProblem), a log removed or
// replaced, or too little free space. s.fileMu must be held.
func (s *Saver) problem() error {
	if p := s.pathProblem(); p != nil {
		return p
	}
	if err := s.file.sameFile(); err != nil {
		return fmt.Errorf("cannot persist to %s: %w", s.files.state, err)
	}
	if free, ok := freeSpace(filepath.Dir(s.logPath)); ok && free+s.file.headroom() < spaceSlack {
		return fmt.Errorf("cannot persist to %s: no space left on device: a save needs about %d KiB", s.files.state, (spaceSlack+1023)>>10)
	}
	return nil
}

// mend makes saves possible again once problem finds nothing wrong: the
// tail a failed save left is cut, a log removed or replaced, or lacking
// writes, is written anew, and writes are taken again. s.fileMu must be
// held.
func (s *Saver) mend() error {
	if s.mustCut {
		if err := s.file.cut(); err != nil {
			return s.explain(err)
		}
		s.mustCut = false
	}
	if s.file.sameFile() != nil {
		s.mu.Lock()
		s.recording = false
		s.mu.Unlock()
	}
	s.mu.Lock()
	rewrite := !s.recording
	s.mu.Unlock()
	if rewrite {
		if err := s.rewriteLocked(); err != nil {
			return err
		}
	}
	s.mu.Lock()
	s.refusing = nil
	s.mu.Unlock()
	return nil
}

// tick saves what waits, mends what it can, and writes the export, as a
// test asks: it is what petmock does over a few of its quarter-seconds,
// at once. A save that fails, or is refused while the log waits to be
// written anew, does not stop the mend, as it does not stop a probe's:
// once what broke the saves is repaired, one tick makes them possible
// again, whether or not the file was closed, idle, when it broke.
func (s *Saver) tick() {
	s.noteSettings()
	err := s.save()
	s.fileMu.Lock()
	if p := s.problem(); p != nil {
		err = p
	} else {
		err = s.mend()
	}
	s.fileMu.Unlock()
	if err == nil {
		err = s.save()
	}
	if err == nil {
		err = s.exportNow()
	}
	s.report(err)
}

// probe checks that a save could be made, and tells the server and the
// log. Once it can be again, it mends the log and saves what waits; it
// saves changed settings too, and writes the export when petmock has been
// idle a moment with a small store.
func (s *Saver) probe() {
	s.noteSettings()
	s.fileMu.Lock()
	err := s.problem()
	if err == nil && s.isFailing() {
		err = s.mend()
	}
	if s.compacting == nil && time.Since(s.lastWrite) > idleClose {
		s.file.idle()
	}
	s.fileMu.Unlock()
	if err == nil && (s.cfg.Interval == 0 || s.isFailing()) {
		err = s.save()
	}
	s.report(err)
	if err == nil {
		s.exportWhenIdle()
	}
}

// isFailing reports whether the last save or check failed.
func (s *Saver) isFailing() bool {
	s.reportMu.Lock()
	defer s.reportMu.Unlock()
	return s.failing != nil
}

// report tells the server and the log the outcome of a save or a check.
func (s *Saver) report(err error) {
	s.reportMu.Lock()
	defer s.reportMu.Unlock()
	// Under the lock, so that the server is told the outcomes in the
	// order the log is.
	if !s.cfg.KeepServing {
		s.items.SetPersistError(err)
	}
	switch {
	case err != nil && (s.failing == nil || s.failing.Error() != err.Error()):
		if !s.cfg.KeepServing {
			s.log.Error("saving state failed; writes are refused with 503 until a save succeeds", "err", err)
		} else {
			s.log.Error("saving state failed; serving from memory only (--on-save-error serve), and writes are lost if petmock stops", "err", err)
		}
	case err == nil && s.failing != nil:
		s.log.Info("saving state works again", "path", s.files.state)
	}
	s.failing = err
}

// Close makes the last save, once the server answers no more requests and
// Run has returned, and writes the export. If the save fails, what petmock
// holds is written elsewhere, beside the state file or in the system's
// temporary directory, and the error, of one line, says how many
// acknowledged writes the log lacks and where they went.
func (s *Saver) Close() error {
	defer s.changes.Close()
	s.noteSettings()
	s.fileMu.Lock()
	c := s.compacting
	s.fileMu.Unlock()
	if c != nil {
		s.finishCompaction(<-s.compactDone)
	}
	s.exporting.Wait()
	s.fileMu.Lock()
	err := s.logProblem()
	s.fileMu.Unlock()
	if err == nil {
		err = s.save()
	}
	if err == nil {
		s.fileMu.Lock()
		s.mu.Lock()
		rewrite := !s.recording
		s.mu.Unlock()
		if rewrite {
			err = s.rewriteLocked()
		}
		s.fileMu.Unlock()
	}
	if err == nil {
		if e := s.exportNow(); e != nil {
			s.log.Warn("the state file could not be written; the log beside it holds every write, and a start reads it", "path", s.files.state, "err", e)
		}
	}
	s.fileMu.Lock()
	s.file.close()
	s.fileMu.Unlock()
	if err == nil {
		return nil
	}
	if errors.Is(err, errRewrite) {
		err = s.failure()
	}
	lost := "1 acknowledged write is"
	if n := s.ledger.count(); n != 1 {
		lost = fmt.Sprintf("%d acknowledged writes are", n)
	}
	items, _ := s.source.Serving()
	where, elsewhere := keepElsewhere(s.files.state, items)
	if elsewhere != nil {
		return fmt.Errorf("the last save failed: %v; %s not in it, and what petmock held could not be written elsewhere either: %v",
			err, lost, elsewhere)
	}
	return fmt.Errorf("the last save failed: %v; %s not in it; what petmock held is in %s (start with --fixtures %s, or move it over %s and remove %s)",
		err, lost, where, where, s.files.state, s.logPath)
}

// counts writes counts by resource as the log shows them.
func counts(by map[string]int) string {
	return describeCounts(by)
}
