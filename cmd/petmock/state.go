package main

import (
	"errors"
	"log/slog"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/mockserver/persist"
	"github.com/petstore/contract/mockserver/steer"
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

// openDurably opens the state file of o.state for srv, and makes srv's
// writes wait for their saves, or, with --save-interval, acknowledges them
// at once and says at start what that trades. A path no state file can be
// saved at is a usage error that names it.
func openDurably(o options, srv *mockserver.Server, logger *slog.Logger) (*persist.Saver, error) {
	cfg := persist.Config{Interval: o.saveInterval, KeepServing: o.onSaveError != refuseWrites, Given: o.given}
	saver, err := persist.Open(o.state, stateSource{srv}, logger, cfg)
	var bad *persist.PathError
	if errors.As(err, &bad) {
		return nil, usagef("--state %s: %v", o.state, bad.Err)
	}
	if err != nil {
		return nil, err
	}
	if o.saveInterval > 0 {
		srv.Items().SetCommit(saver.Acknowledge)
		logger.Warn("--save-interval trades durability for speed: writes are answered before they are saved, and a crash loses those answered since the last save",
			"interval", o.saveInterval)
	} else {
		srv.Items().SetCommit(saver.Commit)
	}
	if cfg.KeepServing {
		logger.Warn("--on-save-error serve trades durability for availability: while saves fail, writes are answered from memory only, and lost if petmock stops")
	}
	return saver, nil
}

// stateSource is petmock's server as the saver of --state sees it: the one
// that serves now, which may have taken over from srv for a new version
// of the document (--watch).
type stateSource struct{ srv *mockserver.Server }

// Serving returns the items and the steering of the server that serves
// now.
func (s stateSource) Serving() (*catalogue.Resources, *steer.Steering) {
	latest := s.srv.Latest()
	return latest.Items(), latest.Steering()
}

// Subscribe returns a subscription to the changes of srv, and of those
// that take over from it.
func (s stateSource) Subscribe() persist.Subscription { return s.srv.Subscribe() }
