package persist

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/mockserver/journal"
)

// probeInterval is how often a saver checks, even when nothing changes,
// that a save could be made: a full disk or a directory made read-only is
// noticed within it, and health fails at once.
const probeInterval = 250 * time.Millisecond

// spaceSlack is the free space a save needs beyond the size of the last
// one: the new file is written beside the old one before it replaces it,
// and may have grown, and the file system gives space in blocks.
const spaceSlack = 16 << 10

// Config says how a Saver keeps the items. Its zero value is petmock's
// default: every write is saved before it is answered, writes are refused
// while saves fail, and every saved setting is restored.
type Config struct {
	// Interval, when not zero, is how often the items are saved, and
	// writes are acknowledged at once, before they are saved: a crash
	// loses those since the last save (petmock --save-interval). Zero
	// answers each write once a save holds it (see Saver.Commit).
	Interval time.Duration
	// KeepServing goes on acknowledging writes while saves fail, in
	// memory only, and logs each failed save (petmock --on-save-error
	// serve). False, the default, refuses writes, and fails health, until
	// a save succeeds: no write is acknowledged that would be lost.
	KeepServing bool
	// Given names the flags given at start, such as "latency" or
	// "fail-rate", whose settings the saved ones do not replace; nil
	// restores every saved setting.
	Given map[string]bool
}

// Saver keeps the items of a server in its state file, and its settings,
// forced answers and expectations in the settings file beside it.
type Saver struct {
	cfg          Config
	path         string // the file saved to: the path opened, or where its links lead
	settingsPath string // see settingsPath
	source       Source
	// items are those the state was opened for, which a server that
	// takes over shares what it is told with (SetPersistError); the
	// saves are of the server that serves now (Source.Serving).
	items *catalogue.Resources
	log   *slog.Logger
	// changes tells when the settings, the forced answers or the
	// expectations changed.
	changes Subscription
	ledger  ledger

	groupMu sync.Mutex    // guards pending
	pending *batch        // the writes that wait for the next save
	kick    chan struct{} // holds a token while pending waits for a save

	mu            sync.Mutex           // serialises saves; guards the fields below
	savedItems    *catalogue.Resources // the items the file holds, of the server that served then
	saved         uint64               // the version of those items
	size          int64                // of the state file, as last saved
	settingsSize  int64                // of the settings file, as last saved
	settingsDirty bool                 // whether the settings changed since they were saved
	failing       error                // why the last save or check failed; nil if it did not
}

// Open loads the state file at path into the items of the server source
// serves, and the settings file beside it into its steering, or creates
// them from the server if the state file does not exist yet. A path that
// cannot be saved to is refused with a *PathError that says why; a file
// that is not valid is refused, and left as it is. Run the Saver, and
// Close it once the server answers no more requests.
func Open(path string, source Source, log *slog.Logger, cfg Config) (*Saver, error) {
	file, err := resolveState(path)
	if err != nil {
		return nil, &PathError{Path: path, Err: err}
	}
	if err := checkState(file); err != nil {
		return nil, &PathError{Path: path, Err: err}
	}
	if file != path {
		log.Info("state file is a symbolic link; saving to where it leads", "path", path, "file", file)
	}
	items, steering := source.Serving()
	s := &Saver{
		cfg:          cfg,
		path:         file,
		settingsPath: settingsPath(file),
		source:       source,
		items:        items,
		log:          log,
		kick:         make(chan struct{}, 1),
	}
	if err := removeStaleStateFiles(file); err != nil {
		return nil, err
	}
	how := "every write is saved before it is answered"
	if cfg.Interval > 0 {
		how = "saved every " + cfg.Interval.String()
	}
	err = loadState(file, items)
	switch {
	case errors.Is(err, os.ErrNotExist):
		s.changes = source.Subscribe()
		v, size, err := saveState(file, items)
		if err == nil {
			s.savedItems, s.saved, s.size, s.settingsDirty = items, v, size, true
			err = s.saveChanges()
		}
		if err != nil {
			s.changes.Close()
			return nil, err
		}
		log.Info("created state file", "path", file, "durability", how)
	case err != nil:
		return nil, err
	default:
		restored, err := restoreSettings(s.settingsPath, steering, cfg.Given, log)
		if err != nil {
			return nil, err
		}
		s.changes = source.Subscribe()
		s.savedItems, s.saved = items, items.Version()
		s.settingsDirty = true // the file may lack what the flags set
		if fi, err := os.Stat(file); err == nil {
			s.size = fi.Size()
		}
		log.Info("loaded state file", append([]any{"path", file, "durability", how}, restored...)...)
	}
	return s, nil
}

// Run keeps the items until ctx is done: it saves for the writes that
// wait, or every interval, and checks every quarter of a second
// (probeInterval) that a save could be made, telling the server
// (SetPersistError, unless Config.KeepServing) and the log when saves
// begin to fail and when they work again.
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
			s.commitPending()
		case <-probes.C:
			s.probe()
		case <-saves:
			s.tick()
		}
	}
}

// saveChanges saves the stores if they changed since the last save, and
// the settings if they did. Its error says what could not be saved and
// why.
func (s *Saver) saveChanges() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	// Every write with a ticket up to the mark changed the stores before
	// the save reads them.
	upTo := s.ledger.mark()
	// The server that serves is read after the mark: a write in flight
	// on a server that another took over from is made to the new one's
	// stores before its ticket is taken.
	items, steering := s.source.Serving()
	if items != s.savedItems {
		// Another server took over: the items are in its form, and some
		// forced answers or expectations may have been dropped.
		s.settingsDirty = true
	}
	if items != s.savedItems || items.Version() != s.saved {
		v, size, err := saveState(s.path, items)
		if err != nil {
			return s.explain(err)
		}
		s.savedItems, s.saved, s.size = items, v, size
	}
	s.ledger.saved(upTo)
	s.noteSettings()
	if s.settingsDirty {
		size, err := saveSettings(s.settingsPath, steering)
		if err != nil {
			return s.explain(err)
		}
		s.settingsSize, s.settingsDirty = size, false
	}
	return nil
}

// noteSettings notes whether the settings, the forced answers or the
// expectations changed. s.mu must be held.
func (s *Saver) noteSettings() {
	if s.changes.Take()&(journal.ChangeSettings|journal.ChangeForced|journal.ChangeExpectations) != 0 {
		s.settingsDirty = true
	}
}

// dirty reports whether anything changed since the last save.
func (s *Saver) dirty() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.noteSettings()
	items, _ := s.source.Serving()
	return s.settingsDirty || items != s.savedItems || items.Version() != s.saved
}

// explain returns the error of a failed save, or, when the path shows what
// is wrong, an error that says that instead.
func (s *Saver) explain(err error) error {
	if p := statePathProblem(s.path); p != nil {
		return fmt.Errorf("cannot persist to %s: %w", s.path, p)
	}
	return err
}

// problem says why a save could not be made now, from what can be seen
// without making one: the path (see statePathProblem), or too little free
// space for a new state file beside the old one.
func (s *Saver) problem() error {
	if p := statePathProblem(s.path); p != nil {
		return fmt.Errorf("cannot persist to %s: %w", s.path, p)
	}
	s.mu.Lock()
	need := s.size + s.settingsSize + spaceSlack
	s.mu.Unlock()
	if free, ok := freeSpace(filepath.Dir(s.path)); ok && free < need {
		return fmt.Errorf("cannot persist to %s: no space left on device: a save needs about %d KiB", s.path, (need+1023)>>10)
	}
	return nil
}

// tick saves what changed since the last save, or else checks that a save
// could still be made, so that a state file replaced by a directory, say,
// is noticed before a write is acknowledged rather than at the save after
// it. It tells the server, and the log, when saves begin to fail and when
// they work again.
func (s *Saver) tick() {
	if s.dirty() {
		s.report(s.saveChanges())
		return
	}
	s.report(s.problem())
}

// probe checks that a save could be made, and tells the server and the
// log. While saves fail, or when writes wait for their saves, it also
// saves what changed once it could, so that writes resume at once, and
// changed settings are saved.
func (s *Saver) probe() {
	err := s.problem()
	if err == nil && (s.cfg.Interval == 0 || s.isFailing()) && s.dirty() {
		err = s.saveChanges()
	}
	s.report(err)
}

// isFailing reports whether the last save or check failed.
func (s *Saver) isFailing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failing != nil
}

// report tells the server and the log the outcome of a save or a check.
func (s *Saver) report(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
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
		s.log.Info("saving state works again", "path", s.path)
	}
	s.failing = err
}

// Close makes the last save, once the server answers no more requests and
// Run has returned. If it fails, what petmock holds is written elsewhere,
// beside the state file or in the system's temporary directory, and the
// error, of one line, says how many acknowledged writes the state file
// lacks and where they went.
func (s *Saver) Close() error {
	defer s.changes.Close()
	s.commitPending() // a write still waiting, after a shutdown that timed out
	err := s.saveChanges()
	if err == nil {
		return nil
	}
	lost := "1 acknowledged write is"
	if n := s.ledger.count(); n != 1 {
		lost = fmt.Sprintf("%d acknowledged writes are", n)
	}
	items, _ := s.source.Serving()
	where, elsewhere := keepElsewhere(s.path, items)
	if elsewhere != nil {
		return fmt.Errorf("the last save failed: %v; %s not in it, and what petmock held could not be written elsewhere either: %v",
			err, lost, elsewhere)
	}
	return fmt.Errorf("the last save failed: %v; %s not in it; what petmock held is in %s (start with --fixtures %s, or move it over %s)",
		err, lost, where, where, s.path)
}
