package main

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"runtime/debug"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
	"github.com/petstore/contract/spec"
)

// errStopped ends a start that a signal stopped.
var errStopped = errors.New("stopped by a signal while starting; nothing was served")

// startup is what the start made: the contract, the server and the
// handler of the API, the admin API and the console, and the settings of
// the admin API, with which --watch makes the handler of a reload.
type startup struct {
	contract *spec.Contract
	srv      *mockserver.Server
	handler  http.Handler
	admin    admin.Config
}

// startUp reads the document, makes the catalogue, and compiles the
// server and the admin API, and returns errStopped as soon as ctx is done,
// whatever it was doing: a document of 60,000 paths or a catalogue of a
// million items takes seconds, and a document read from a pipe may never
// end. The work checks ctx too, and stops soon after.
func startUp(ctx context.Context, o options, logger *slog.Logger) (*startup, error) {
	type result struct {
		st  *startup
		err error
	}
	done := make(chan result, 1)
	go func() {
		st, err := build(ctx, o, logger)
		done <- result{st, err}
	}()
	select {
	case r := <-done:
		if ctx.Err() != nil {
			return nil, errStopped
		}
		return r.st, r.err
	case <-ctx.Done():
		return nil, errStopped
	}
}

// build does the work of startUp, until ctx is done.
func build(ctx context.Context, o options, logger *slog.Logger) (*startup, error) {
	srv, err := newServer(ctx, o, logger)
	if err != nil {
		return nil, err
	}
	if o.pets >= 100_000 {
		// The stores keep their own compact copy: give the memory the
		// catalogue was made in back now rather than whenever the
		// runtime gets to it.
		debug.FreeOSMemory()
	}
	streams, streamsPerClient := streamCaps(openFileLimit())
	adminCfg := admin.Config{
		Logger:              logger,
		Origins:             o.adminOrigins,
		Hosts:               controlHosts(o),
		MaxStreams:          streams,
		MaxStreamsPerClient: streamsPerClient,
	}
	handler, err := admin.New(srv, adminCfg)
	if err != nil {
		return nil, err
	}
	return &startup{contract: srv.Contract(), srv: srv, handler: handler, admin: adminCfg}, nil
}

// newServer reads the document o names, and returns the server of o for
// it, with the starting items o gives, until ctx is done: at start, and
// again for each version of the document --watch reloads. What it notes
// and warns of the document goes to the log; an error is the one line
// petmock refuses the document with.
func newServer(ctx context.Context, o options, logger *slog.Logger) (*mockserver.Server, error) {
	contract, err := readDocument(ctx, o.spec, spec.ReadOptions{Strict: o.strictDoc})
	if err != nil {
		return nil, err
	}
	for _, note := range contract.Notes {
		logger.Info("document", "note", note)
	}
	for _, warning := range contract.Warnings {
		logger.Warn("document", "warning", warning)
	}
	items, catalogue, err := startingItems(o, contract)
	if err != nil {
		return nil, err
	}
	cfg := mockserver.Config{
		Contract:  contract,
		APIKeys:   o.apiKeys,
		AdminKeys: adminKeys(o.adminKey),
		Items:     items,
		Catalogue: catalogue,
		Logger:    logger,
		Latency:   o.latency,
		FailRate:  o.failRate,

		Fault:              o.fault,
		FaultRate:          o.faultRate,
		SlowBytesPerSecond: o.slowRate,

		ChaosSeed:     o.seed,
		JournalSize:   o.journal,
		ShowSecrets:   o.secrets == steer.SecretsShown,
		MaxItems:      o.maxPets,
		MaxStoreBytes: o.maxStoreMB << 20,
		Proxy: mockserver.Proxy{URL: o.proxy, Key: o.proxyKey, Timeout: o.proxyTimeout,
			Strict: o.proxyStrict, ViolationsHeader: o.violations, Record: o.record},
	}
	if o.journal == 0 {
		cfg.JournalSize = -1
	}
	cfg.ClockAt = o.now // zero for the real time
	srv, err := mockserver.NewContext(ctx, cfg)
	if err != nil {
		return nil, usageError{err}
	}
	for _, note := range srv.Notes() {
		logger.Info("document", "note", note)
	}
	for _, warning := range srv.Warnings() {
		logger.Warn("document", "warning", warning)
	}
	return srv, nil
}
