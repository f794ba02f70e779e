package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/petstore/contract/mockserver"
)

// What petmock does while the state file cannot be saved, by
// --on-save-error.
const (
	// refuseWrites answers writes 503, and health 503, until a save
	// succeeds: no write is acknowledged that would be lost.
	refuseWrites = "refuse"
	// keepServing goes on acknowledging writes, in memory only, and logs
	// each failed save.
	keepServing = "serve"
)

// stateSaver keeps the stores of a server in its --state file.
type stateSaver struct {
	path   string // the file saved to: --state, or where its links lead
	srv    *mockserver.Server
	log    *slog.Logger
	refuse bool // whether the server refuses writes while saves fail

	mu      sync.Mutex // serialises saves; guards saved and failing
	saved   uint64     // the version of the items the file holds
	failing error      // why the last save or check failed; nil if it did not
}

// openState loads the state file into srv, or creates it from srv if it
// does not exist yet. A path that cannot be saved to is refused, saying
// why; a file that is not a valid fixture is refused, and left as it is.
// refuse says whether srv refuses writes while saves fail.
func openState(path string, srv *mockserver.Server, log *slog.Logger, refuse bool) (*stateSaver, error) {
	file, err := resolveState(path)
	if err != nil {
		return nil, usagef("--state %s: %v", path, err)
	}
	if err := checkState(file); err != nil {
		return nil, usagef("--state %s: %v", path, err)
	}
	if file != path {
		log.Info("state file is a symbolic link; saving to where it leads", "path", path, "file", file)
	}
	s := &stateSaver{path: file, srv: srv, log: log, refuse: refuse}
	if err := removeStaleStateFiles(file); err != nil {
		return nil, err
	}
	err = loadState(file, srv)
	switch {
	case errors.Is(err, os.ErrNotExist):
		v, err := saveState(file, srv)
		if err != nil {
			return nil, err
		}
		s.saved = v
		log.Info("created state file", "path", file)
	case err != nil:
		return nil, err
	default:
		s.saved = srv.Version()
		log.Info("loaded state file", "path", file)
	}
	return s, nil
}

// save writes the store to the file if it changed since the last save.
func (s *stateSaver) save() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv.Version() == s.saved {
		return nil
	}
	v, err := saveState(s.path, s.srv)
	if err != nil {
		return err
	}
	s.saved = v
	return nil
}

// tick saves the store if it changed since the last save, or else checks
// that a save could still be made, so that a state file replaced by a
// directory, say, is noticed before a write is acknowledged rather than
// at the save after it. It tells the server, and the log, when saves
// begin to fail and when they work again.
func (s *stateSaver) tick() {
	s.mu.Lock()
	unchanged := s.srv.Version() == s.saved
	s.mu.Unlock()
	var err error
	if unchanged {
		if p := statePathProblem(s.path); p != nil {
			err = fmt.Errorf("cannot persist to %s: %w", s.path, p)
		}
	} else {
		err = s.save()
		if p := statePathProblem(s.path); err != nil && p != nil {
			err = fmt.Errorf("cannot persist to %s: %w", s.path, p) // says better what is wrong
		}
	}
	s.report(err)
}

// report tells the server and the log the outcome of a save or a check.
func (s *stateSaver) report(err error) {
	if s.refuse {
		s.srv.SetPersistError(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case err != nil && (s.failing == nil || s.failing.Error() != err.Error()):
		if s.refuse {
			s.log.Error("saving state failed; writes are refused with 503 until a save succeeds", "err", err)
		} else {
			s.log.Error("saving state failed; serving from memory only (--on-save-error serve), and writes are lost if petmock stops", "err", err)
		}
	case err == nil && s.failing != nil:
		s.log.Info("saving state works again", "path", s.path)
	}
	s.failing = err
}

// every calls tick at each interval until ctx is done.
func (s *stateSaver) every(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.tick()
		}
	}
}
