package catalogue

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"

	"github.com/petstore/contract/mockserver/edge"
)

// A catalogue keeps its items in memory; a command that saves them, such as
// petmock --state, tells the server two things. With SetCommit, it makes
// every write wait, before it is answered, until the write is saved, so
// that an acknowledged write is never lost. With SetPersistError, it says
// when saves fail: a write acknowledged then would be lost with the
// process, so the server says so where clients look (health), and refuses
// writes instead of acknowledging them.

// durability is what a command that keeps the items told the server. A
// server that takes over from another (see TakeOver) shares its
// durability, so that a write in flight on the old server waits for the
// same saves, and is refused while they fail, as one on the new server.
type durability struct {
	// persistErr is why the items cannot be kept, or nil: see
	// SetPersistError.
	persistErr atomic.Pointer[error]
	// commit is what a write waits for before it is answered, or nil:
	// see SetCommit.
	commit atomic.Pointer[func(context.Context) error]
	// keeper is told of every write, or nil: see SetKeeper.
	keeper atomic.Pointer[Keeper]
}

// SetPersistError tells the catalogue whether what it holds can be kept.
// While err is not nil, Health, and so GET /__petmock/health, answers 503
// with err, and every request that would change items (a create, replace,
// update or delete of the API, and Reset, Empty, LoadFixture and
// ReplaceItems) is refused with 503 before it changes anything. nil lifts
// both. err says what cannot be kept and why, such as "cannot persist to
// state.json: no space left on device". It is safe to call at any time.
func (set *Resources) SetPersistError(err error) {
	if err == nil {
		set.durable.persistErr.Store(nil)
		return
	}
	set.durable.persistErr.Store(&err)
}

// SetCommit makes every write wait for commit before it is answered: a
// create, replace, update or delete of the API, once it has changed the
// items, and Reset, Empty, LoadFixture and ReplaceItems likewise. commit
// returns once what the server holds at the time of the call is kept, or
// an error that says why it could not be, such as "cannot persist to
// state.json: no space left on device". A write whose commit fails is
// answered 503 with that error, and the answer says that nothing was
// changed when commit undid the write (ErrUndone), or else that the change
// was made in memory only; the write is not acknowledged. ctx is the
// request's, so that commit may stop waiting for a client that went away.
// Many writes wait at once, each in its own call: commit may keep them
// all with one save. nil, the default, answers writes at once. It is safe
// to call at any time.
func (set *Resources) SetCommit(commit func(ctx context.Context) error) {
	if commit == nil {
		set.durable.commit.Store(nil)
		return
	}
	set.durable.commit.Store(&commit)
}

// ErrUndone is what a commit (see SetCommit) returns, wrapped with the
// reason, for a write it could not keep and undid: the write changed
// nothing, so that a client may send it again without making a duplicate.
var ErrUndone = errors.New("the change could not be saved, and was undone")

// kept waits until the change a write has just made is kept (see
// SetCommit), and returns the 503 of a change that could not be, or nil.
func (set *Resources) kept(ctx context.Context) *edge.Error {
	p := set.durable.commit.Load()
	if p == nil {
		return nil
	}
	err := (*p)(ctx)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		return edge.NewError(http.StatusServiceUnavailable, "request",
			"cancelled by the client before the change was saved; it is saved with the next save, or undone if that fails")
	case errors.Is(err, ErrUndone):
		return edge.NewError(http.StatusServiceUnavailable, "state", "%v; nothing was changed", err)
	}
	return edge.NewError(http.StatusServiceUnavailable, "state",
		"%v; the change was made in memory only, and is lost if petmock stops before a save succeeds", err)
}

// RefuseWrite returns the 503 of a write while items cannot be kept, or
// nil.
func (set *Resources) RefuseWrite() *edge.Error {
	p := set.durable.persistErr.Load()
	if p == nil {
		return nil
	}
	return edge.NewError(http.StatusServiceUnavailable, "state", "%v; nothing was changed", *p)
}

// Health returns how many items each resource holds, or, while they
// cannot be kept (see SetPersistError), a 503 *edge.Error that says why.
func (set *Resources) Health() (map[string]int, error) {
	if p := set.durable.persistErr.Load(); p != nil {
		return nil, edge.NewError(http.StatusServiceUnavailable, "state", "%v; writes are refused until a save succeeds", *p)
	}
	return set.Counts(), nil
}
