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

// stateSaver keeps a store in its --state file.
type stateSaver struct {
	path  string
	store *mockserver.Store
	log   *slog.Logger

	mu    sync.Mutex // serialises saves; guards saved
	saved uint64     // the store version the file holds
}

// openState loads the state file into store, or creates it from store if
// it does not exist yet. A file that is not a valid fixture is refused,
// and left as it is.
func openState(path string, store *mockserver.Store, log *slog.Logger) (*stateSaver, error) {
	s := &stateSaver{path: path, store: store, log: log}
	if err := mockserver.RemoveStaleStateFiles(path); err != nil {
		return nil, err
	}
	pets, err := mockserver.LoadState(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		v, err := mockserver.SaveState(path, store)
		if err != nil {
			return nil, err
		}
		s.saved = v
		log.Info("created state file", "path", path, "pets", store.Len())
	case err != nil:
		return nil, err
	default:
		if err := store.Replace(pets); err != nil {
			return nil, fmt.Errorf("state file %s: %w", path, err)
		}
		s.saved = store.Version()
		log.Info("loaded state file", "path", path, "pets", len(pets))
	}
	return s, nil
}

// save writes the store to the file if it changed since the last save.
func (s *stateSaver) save() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.store.Version() == s.saved {
		return nil
	}
	v, err := mockserver.SaveState(s.path, s.store)
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
