package main

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/petstore/contract/mockserver"
)

// stateSaver keeps the stores of a server in its --state file.
type stateSaver struct {
	path string
	srv  *mockserver.Server
	log  *slog.Logger

	mu    sync.Mutex // serialises saves; guards saved
	saved uint64     // the version of the items the file holds
}

// openState loads the state file into srv, or creates it from srv if it
// does not exist yet. A file that is not a valid fixture is refused, and
// left as it is.
func openState(path string, srv *mockserver.Server, log *slog.Logger) (*stateSaver, error) {
	s := &stateSaver{path: path, srv: srv, log: log}
	if err := removeStaleStateFiles(path); err != nil {
		return nil, err
	}
	err := loadState(path, srv)
	switch {
	case errors.Is(err, os.ErrNotExist):
		v, err := saveState(path, srv)
		if err != nil {
			return nil, err
		}
		s.saved = v
		log.Info("created state file", "path", path)
	case err != nil:
		return nil, err
	default:
		s.saved = srv.Version()
		log.Info("loaded state file", "path", path)
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

// every saves at each interval until ctx is done.
func (s *stateSaver) every(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := s.save(); err != nil {
				s.log.Error("saving state failed; will retry", "err", err)
			}
		}
	}
}
