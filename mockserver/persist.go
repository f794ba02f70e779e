package mockserver

import (
	"net/http"

	"github.com/petstore/contract/spec"
)

// A server keeps its items in memory; a command that saves them, such as
// petmock --state, tells the server when it cannot. A write acknowledged
// then would be lost with the process, so while saves fail the server
// says so where clients look (health), and refuses writes instead of
// acknowledging them.

// SetPersistError tells the server whether what it holds can be kept.
// While err is not nil, Health, and so GET /__petmock/health, answers 503
// with err, and every request that would change items (a create, replace,
// update or delete of the API, and Reset, Empty, LoadFixture and
// ReplaceItems) is refused with 503 before it changes anything. nil lifts
// both. err says what cannot be kept and why, such as "cannot persist to
// state.json: no space left on device". It is safe to call at any time.
func (s *Server) SetPersistError(err error) {
	if err == nil {
		s.persistErr.Store(nil)
		return
	}
	s.persistErr.Store(&err)
}

// refuseWrite returns the 503 of a write while items cannot be kept, or
// nil.
func (s *Server) refuseWrite() *Error {
	p := s.persistErr.Load()
	if p == nil {
		return nil
	}
	return NewError(http.StatusServiceUnavailable, "state", "%v; nothing was changed", *p)
}

// changesItems reports whether op changes the items of its resource.
func (op *operation) changesItems() bool {
	switch op.spec.Role {
	case spec.RoleCreate, spec.RoleReplace, spec.RoleUpdate, spec.RoleDelete:
		return true
	}
	return false
}

// Health returns how many items each resource holds, or, while they
// cannot be kept (see SetPersistError), a 503 *Error that says why.
func (s *Server) Health() (map[string]int, error) {
	if p := s.persistErr.Load(); p != nil {
		return nil, NewError(http.StatusServiceUnavailable, "state", "%v; writes are refused until a save succeeds", *p)
	}
	return s.Counts(), nil
}
