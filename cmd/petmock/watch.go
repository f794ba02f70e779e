package main

import (
	"context"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

// With --watch, petmock looks at the document's file every watchInterval,
// and serves a new version of it once it has found the same content twice
// in a row, different from the last it tried: an editor that truncates
// the file and writes it, or writes another file and renames it over, or
// leaves it missing for a moment, is not caught halfway. The look is the
// standard library's: the file's size, time of change and identity, and a
// SHA-256 of its content when one of those changed or the change is
// recent enough that a file system with a coarse clock could hide another.
//
// A new version is served by a new server, made as petmock makes one at
// start, which takes over from the one serving (mockserver.Server.TakeOver)
// while the handler of every new request is swapped for its own; requests
// in flight finish on the old one. A version never destroys data: items it
// does not take, as it dropped their resource or tightened their schema,
// perhaps an editor's half-saved file or a branch switched to, are held
// back, with --state in the log too, and the version after that takes
// them serves them again, under the ids they had. A version that cannot be served is
// refused with the line petmock would refuse it with at start, in the log
// and in the console, and the version before goes on.

// watchInterval is how often --watch looks at the document's file.
const watchInterval = 500 * time.Millisecond

// recentChange is how recent a change of the file must be for a look to
// read it whatever its size and time say: a file system whose clock counts
// whole seconds shows two writes within one alike.
const recentChange = 3 * time.Second

// watcher looks at the document's file.
type watcher struct {
	path     string
	interval time.Duration
	// seen is what the last look found: the file's state, and the hash
	// of its content, "" when it could not be read.
	seen     os.FileInfo
	seenHash string
	// pending is the content the last look found, which the next must
	// find again; tried is the content last served or refused.
	pending, tried string
}

// newWatcher looks at the file at path, whose content then is the one
// served.
func newWatcher(path string, interval time.Duration) *watcher {
	w := &watcher{path: path, interval: interval}
	w.pending = w.look()
	w.tried = w.pending
	return w
}

// look returns the hash of the file's content, or "" when it cannot be
// read, such as while it is missing.
func (w *watcher) look() string {
	fi, err := os.Stat(w.path)
	if err != nil {
		w.seen, w.seenHash = nil, ""
		return ""
	}
	if w.seen != nil && os.SameFile(fi, w.seen) && fi.Size() == w.seen.Size() && fi.ModTime().Equal(w.seen.ModTime()) &&
		time.Since(fi.ModTime()) > recentChange {
		return w.seenHash
	}
	data, err := os.ReadFile(w.path)
	if err != nil {
		w.seen, w.seenHash = nil, ""
		return ""
	}
	sum := sha256.Sum256(data)
	w.seen, w.seenHash = fi, string(sum[:])
	return w.seenHash
}

// changed looks at the file, and reports whether it holds a content to
// try: one found by two looks in a row, other than the last tried.
func (w *watcher) changed() bool {
	now := w.look()
	if now != w.pending {
		w.pending = now // a write may be under way: look again
		return false
	}
	if now == w.tried {
		return false
	}
	w.tried = now
	return true
}

// run looks at the file until ctx is done, and has r try each new
// content.
func (w *watcher) run(ctx context.Context, r *reloader) {
	t := time.NewTicker(w.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if w.changed() {
			r.reload(ctx)
		}
	}
}

// live is petmock's handler under --watch: that of the server that serves
// now, swapped at once for every request that comes after a reload.
type live struct {
	cur atomic.Pointer[serving]
}

// serving is a server and its whole handler.
type serving struct {
	srv     *mockserver.Server
	handler http.Handler
}

func newLive(srv *mockserver.Server, h http.Handler) *live {
	l := &live{}
	l.cur.Store(&serving{srv: srv, handler: h})
	return l
}

func (l *live) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.cur.Load().handler.ServeHTTP(w, r)
}

// reloader serves a new version of the document.
type reloader struct {
	o     options
	log   *slog.Logger
	admin admin.Config
	live  *live
}

// reload reads the document again and makes a server for it take over
// from the one serving, or, when it cannot, says why in the log and to
// the console, and leaves the one serving as it is. A reload ctx stops,
// as a signal does when petmock shuts down, is dropped without a word.
func (r *reloader) reload(ctx context.Context) {
	cur := r.live.cur.Load()
	report, err := r.takeOver(ctx, cur)
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		r.log.Error("document not reloaded; serving the version before", "path", r.o.spec, "err", err.Error())
		cur.srv.RefuseDocument(err.Error())
		return
	}
	r.logReload(report)
}

// takeOver makes a server of the document take over from cur.
func (r *reloader) takeOver(ctx context.Context, cur *serving) (mockserver.Reload, error) {
	srv, err := newServer(ctx, r.o, r.log)
	if err != nil {
		return mockserver.Reload{}, err
	}
	h, err := admin.NewAfter(cur.handler, srv, r.admin)
	if err != nil {
		return mockserver.Reload{}, err
	}
	next := &serving{srv: srv, handler: h}
	report, err := srv.TakeOver(cur.srv, func() { r.live.cur.Store(next) })
	if err != nil {
		return mockserver.Reload{}, fmt.Errorf("--spec %s: %w", r.o.spec, err)
	}
	return report, nil
}

// logReload logs what a reload kept and left out: a line, and a warning
// for each thing dropped.
func (r *reloader) logReload(rep mockserver.Reload) {
	var kept []string
	for _, name := range slices.Sorted(maps.Keys(rep.Kept)) {
		kept = append(kept, fmt.Sprintf("%s=%d", name, rep.Kept[name]))
	}
	attrs := []any{"path", r.o.spec, "kept", strings.Join(kept, " ")}
	for _, f := range []struct {
		name string
		ids  []string
	}{
		{"addedOperations", rep.AddedOperations}, {"removedOperations", rep.RemovedOperations},
		{"addedResources", rep.AddedResources}, {"removedResources", rep.RemovedResources},
	} {
		if len(f.ids) > 0 {
			attrs = append(attrs, f.name, strings.Join(f.ids, ","))
		}
	}
	r.log.Info("document reloaded", attrs...)
	for _, name := range slices.Sorted(maps.Keys(rep.HeldBack)) {
		if n := rep.HeldBack[name]; n > 0 {
			r.log.Warn("items held back: this version of the document does not take them; they are kept, and served again by a version that does",
				"resource", name, "count", n)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(rep.ServedAgain)) {
		if n := rep.ServedAgain[name]; n > 0 {
			r.log.Info("items held back before are served again", "resource", name, "count", n)
		}
	}
	for _, line := range rep.Filled {
		r.log.Info("items kept were given a required property: " + line)
	}
	if rep.ForcedDropped > 0 {
		r.log.Warn("forced answers dropped: the new document does not allow them", "count", rep.ForcedDropped)
	}
	if rep.ExpectationsDropped > 0 {
		r.log.Warn("expectations dropped: the new document does not allow them", "count", rep.ExpectationsDropped)
	}
}
