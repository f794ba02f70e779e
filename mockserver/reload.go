package mockserver

import (
	"errors"
	"sync"
	"time"

	"github.com/petstore/contract/mockserver/journal"
)

// A server is made for one document. When the document changes, as with
// petmock --watch, a new server is made for the new document, with New,
// and takes over the old one's state with TakeOver: the items of the
// resources both documents have, the settings, the forced answers and the
// expectations the new document allows, the journal, and the event
// streams. The caller then sends new requests to the new server, while
// those in flight finish on the old one; a write one of them makes after
// the takeover is made to the new server's stores (see store.HandOver), so
// that no acknowledged write is lost.

// Reload is what a server that took over from another, for a new version
// of the document, kept of the old one's state and what it left out.
type Reload struct {
	// Time is when it took over.
	Time time.Time `json:"time"`
	// Kept is how many items each resource of the new document serves,
	// by name, of those both documents have or held back before (see
	// TakeOver).
	Kept map[string]int `json:"kept"`
	// HeldBack is how many items of each resource are held back: kept,
	// but not served, as they do not fit this version or its resource is
	// not in it, until a version that takes them. ServedAgain is how many
	// of those held back before this version serves again.
	HeldBack    map[string]int `json:"heldBack"`
	ServedAgain map[string]int `json:"servedAgain"`
	// Filled says, one line each, which property this version requires
	// that the items kept lacked, and what they were given.
	Filled []string `json:"filled"`
	// AddedResources are the resources of the new document only, which
	// start with their starting items, or those held back of them;
	// RemovedResources those of the old one only, whose items are held
	// back.
	AddedResources   []string `json:"addedResources"`
	RemovedResources []string `json:"removedResources"`
	// AddedOperations and RemovedOperations are the ids of the operations
	// of one document only.
	AddedOperations   []string `json:"addedOperations"`
	RemovedOperations []string `json:"removedOperations"`
	// ForcedDropped and ExpectationsDropped count the forced answers and
	// the expectations that the new document does not allow, which were
	// left out.
	ForcedDropped       int `json:"forcedDropped"`
	ExpectationsDropped int `json:"expectationsDropped"`
}

// Refusal is a version of the document that could not be served.
type Refusal struct {
	Time time.Time `json:"time"`
	// Message says why, in one line, as petmock says it at start.
	Message string `json:"message"`
}

// DocumentStatus is what became of the versions of the document a server
// was given since it started: see TakeOver and RefuseDocument.
type DocumentStatus struct {
	// Reloads counts the servers that took over, one after the other.
	Reloads int `json:"reloads"`
	// Last is the last takeover; nil before the first.
	Last *Reload `json:"last,omitempty"`
	// Refused is the last version of the document that could not be
	// served, until a server takes over; nil when none was since.
	Refused *Refusal `json:"refused,omitempty"`
}

// reloads keeps the DocumentStatus, shared by a server and those that
// take over from it.
type reloads struct {
	mu     sync.Mutex // guards status
	status DocumentStatus
}

// DocumentStatus returns what became of the versions of the document.
func (s *Server) DocumentStatus() DocumentStatus {
	s.reloads.mu.Lock()
	defer s.reloads.mu.Unlock()
	return s.reloads.status
}

// RefuseDocument records that a version of the document could not be
// served, and why, in one line: the server goes on serving the one it
// has, and DocumentStatus, and so the console, says why until a server
// takes over. The event streams are told.
func (s *Server) RefuseDocument(message string) {
	s.reloads.mu.Lock()
	s.reloads.status.Refused = &Refusal{Time: s.now(), Message: s.redact.Text(message)}
	s.reloads.mu.Unlock()
	s.events.Publish(journal.ChangeDocument)
}

// Latest returns the server that serves now: s, or the last of the
// servers that took over from it, one after the other.
func (s *Server) Latest() *Server {
	for next := s.successor.Load(); next != nil; next = s.successor.Load() {
		s = next
	}
	return s
}

// TakeOver makes s, new from New, perhaps for another version of the
// document, the successor of old, which it takes over from:
//
//   - The items of each resource both documents have, by name, as each
//     item is made to fit s's document: its id property is that of s's,
//     the properties s's item schema does not declare are dropped where it
//     takes no others, and those it lacks take the values a created item
//     would (x-petmock-defaults), or, when required, the schema's default,
//     example or a value made from it. An item that then breaks s's item
//     schema, and every item of a resource s's document lacks, is held
//     back, not dropped, and counted in the Reload: a later version that
//     takes it serves it again. Ids go on from where old gave them, a
//     resource's that comes back included. A resource of s only keeps the
//     items New gave it, or those held back of it, and every resource
//     returns to its starting items on Reset.
//   - The settings, the journal, the violations, the event streams and
//     what a command that keeps the items told old (SetCommit,
//     SetPersistError): s shares them with old.
//   - The forced answers and the expectations, with their ids, but for
//     those s's document does not allow, such as those of an operation it
//     no longer has, which are dropped and counted.
//
// While it runs, old's writes wait. Once s holds the items, and before
// any waiting write goes on, it calls publish, with which the caller
// sends new requests to s: from then on, a write of a request in flight
// on old is made to s's stores instead, so that a write old acknowledges
// is s's. s must not have served a request before publish. It fails,
// changing nothing and not calling publish, if a store of s cannot hold
// the items within its limits, or if another server took over from old
// already.
func (s *Server) TakeOver(old *Server, publish func()) (Reload, error) {
	if old == s {
		return Reload{}, errors.New("a server cannot take over from itself")
	}
	r := Reload{Time: s.now(), AddedOperations: []string{}, RemovedOperations: []string{}}
	for _, op := range s.contract.Operations {
		if old.contract.Operation(op.ID) == nil {
			r.AddedOperations = append(r.AddedOperations, op.ID)
		}
	}
	for _, op := range old.contract.Operations {
		if s.contract.Operation(op.ID) == nil {
			r.RemovedOperations = append(r.RemovedOperations, op.ID)
		}
	}
	h, err := s.items.TakeOver(old.items, func() {
		// s shares old's journal, violations, event streams and history
		// of reloads, and its steering, held to s's document.
		s.journal, s.violations = old.journal, old.violations
		if old.requests != nil {
			s.requests = old.requests
		}
		s.events, s.reloads = old.events, old.reloads
		if s.proxy != nil && old.proxy != nil {
			s.proxy.violations, s.proxy.events = old.violations, old.events
		}
		r.ForcedDropped, r.ExpectationsDropped = s.steer.TakeOver(old.steer)
		old.successor.Store(s)
		if publish != nil {
			publish()
		}
	})
	if err != nil {
		return Reload{}, err
	}
	r.Kept, r.HeldBack, r.ServedAgain, r.AddedResources, r.RemovedResources = h.Kept, h.Held, h.Back, h.Added, h.Removed
	r.Filled = h.Filled
	if r.Filled == nil {
		r.Filled = []string{}
	}
	s.reloads.mu.Lock()
	s.reloads.status.Reloads++
	s.reloads.status.Last = &r
	s.reloads.status.Refused = nil
	s.reloads.mu.Unlock()
	s.events.Publish(journal.ChangeDocument | journal.ChangeStore | journal.ChangeForced | journal.ChangeExpectations)
	return r, nil
}
