package steer

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/petstore/contract/mockserver/answer"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/spec"
)

// A forced answer is Prefer: code=N set from outside the app:
// Force(503, 3, "listPets"), which POST /__petmock/forced {"code": 503,
// "count": 3, "operation": "listPets"} calls, makes the next three
// requests to listPets answer 503, without a change to the app's code.
// Like Prefer, it forces only what the operation documents, or 500 and
// 503 to rehearse an outage; a documented success forces nothing, and the
// request is answered as usual. The key is still checked first, and a
// request's own Prefer: code= wins, leaving the forced answer for the next
// request.
//
// A forced answer may be a fault instead of a status (see Fault):
// ForceAnswer(ForcedAnswer{Fault: FaultReset, Remaining: 1}), which POST
// /__petmock/forced {"fault": "reset"} calls, resets the connection of the
// next request, to any operation, before it is processed.
//
// Each operation has a queue of its own: a request takes the first answer
// forced for its operation, in the order they were set, and only then the
// first one forced for any operation that fits it. An answer forced for
// any operation is taken by the next request that fits, and the rest of
// its count is then the operation of that request's alone: no count ever
// passes from one operation to another, so that an answer forced for one
// request of a script does not meet the next request of another.

// MaxForcedCount is the most requests one forced answer may be set for.
const MaxForcedCount = 1000

// ForcedAnswer is one answer forced by Force, as Forced and GET
// /__petmock/forced list them.
type ForcedAnswer struct {
	ID int64 `json:"id"`
	// Operation is the operation id the answer is for; "" means the next
	// requests to any operation that documents Code.
	Operation string `json:"operation,omitempty"`
	// Code is the status to answer; 0 for a fault.
	Code int `json:"code,omitempty"`
	// Fault is the fault to put in place of the answer, when Code is 0;
	// BytesPerSecond is how fast the body of FaultSlow comes, zero for
	// DefaultSlowBytesPerSecond.
	Fault          Fault `json:"fault,omitempty"`
	BytesPerSecond int   `json:"bytesPerSecond,omitempty"`
	// Chunks and Duration are how the body of FaultDribble comes: in
	// Chunks chunks over Duration, such as "2s"; set by ForceAnswer to
	// DefaultDribbleChunks and DefaultDribbleDuration when not given.
	Chunks   int    `json:"chunks,omitempty"`
	Duration string `json:"duration,omitempty"`
	// Remaining is how many requests it still answers.
	Remaining int `json:"remaining"`
	// Bound says that it was forced for any operation, and that a
	// request of Operation took it first: the rest of its count is
	// Operation's.
	Bound bool `json:"bound,omitempty"`
}

// fits reports whether the forced answer a is for requests to op.
func (a *ForcedAnswer) fits(op *spec.Operation) bool {
	if a.Operation != "" && a.Operation != op.ID {
		return false
	}
	return a.Fault != "" || Forceable(op, a.Code)
}

// injected returns the fault a puts in place of an answer.
func (a *ForcedAnswer) injected() injected {
	over, _ := time.ParseDuration(a.Duration) // checked by ForceAnswer
	return injected{fault: a.Fault, rate: cmp.Or(a.BytesPerSecond, DefaultSlowBytesPerSecond),
		chunks: cmp.Or(a.Chunks, DefaultDribbleChunks), over: cmp.Or(over, DefaultDribbleDuration)}
}

// forcing holds the forced answers, in the order they were set: a request
// takes the first one that fits its operation.
type forcing struct {
	n atomic.Int32 // len(rules), for the pipeline's quick look

	mu    sync.Mutex // guards rules and next
	rules []ForcedAnswer
	next  int64
}

// Forceable reports whether code may be forced on op: the operation
// documents it, or it is an outage; or it is 401, the refusal of a key,
// and op documents the 403 it refuses a key with instead.
func Forceable(op *spec.Operation, code int) bool {
	code = forcedStatus(op, code)
	return slices.Contains(op.Statuses, code) || slices.Contains(answer.OutageCodes, code)
}

// forcedStatus is the status a code forced on op is answered with: a 401,
// a key refused, is answered as petmock refuses a key to op, 403 where it
// documents 403 and not 401 (spec's KeyRefusal); any other code is itself.
func forcedStatus(op *spec.Operation, code int) int {
	if code == http.StatusUnauthorized {
		return op.KeyRefusal()
	}
	return code
}

// forcedAnswer is the answer of a code forced on op: an Error body, with
// the headers its status calls for. Prefer: code= and the admin API both
// answer with it.
func forcedAnswer(op *spec.Operation, code int, field, format string, args ...any) *edge.Error {
	code = forcedStatus(op, code)
	e := edge.NewError(code, field, format, args...)
	switch code {
	case http.StatusUnauthorized:
		if c := edge.Challenge(op); c != "" {
			e.WithHeader("WWW-Authenticate", c)
		}
	case http.StatusServiceUnavailable:
		e.WithHeader("Retry-After", "1")
	}
	return e
}

// takeForced returns the answer or the fault forced on the next request
// to op, if any, and counts the request against it. A documented success
// is counted and forces nothing.
func (s *Steering) takeForced(op *spec.Operation) (*edge.Error, injected) {
	f := s.forced
	if f.n.Load() == 0 {
		return nil, injected{}
	}
	f.mu.Lock()
	i := f.queued(op)
	if i < 0 {
		f.mu.Unlock()
		return nil, injected{}
	}
	a := &f.rules[i]
	a.Remaining--
	if a.Operation == "" {
		// The rest of its count is this operation's.
		a.Operation, a.Bound = op.ID, true
	}
	taken := *a
	if taken.Remaining == 0 {
		f.rules = slices.Delete(f.rules, i, i+1)
		f.n.Store(int32(len(f.rules)))
	}
	f.mu.Unlock()
	s.events.Publish(journal.ChangeForced)
	if taken.Fault != "" {
		return nil, taken.injected()
	}
	if taken.Code >= 200 && taken.Code < 300 {
		return nil, injected{}
	}
	more := "the last of them"
	if taken.Remaining > 0 {
		more = strconv.Itoa(taken.Remaining) + " more to come"
	}
	return forcedAnswer(op, taken.Code, "forced", "answer forced by the admin API (POST /__petmock/forced); %s", more), injected{}
}

// queued returns the index of the rule the next request to op takes, -1
// for none: the first forced for op, or else the first forced for any
// operation that fits op. The caller holds mu.
func (f *forcing) queued(op *spec.Operation) int {
	if i := slices.IndexFunc(f.rules, func(a ForcedAnswer) bool { return a.Operation == op.ID && a.fits(op) }); i >= 0 {
		return i
	}
	return slices.IndexFunc(f.rules, func(a ForcedAnswer) bool { return a.Operation == "" && a.fits(op) })
}

// Forced returns the answers forced on the next requests, oldest first.
func (s *Steering) Forced() []ForcedAnswer {
	f := s.forced
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]ForcedAnswer{}, f.rules...)
}

// ForcedFor returns what the next requests to the operation of the given
// id take, in the order they take it: the answers forced for it, then
// those forced for any operation that fit it. The error, a 400
// *edge.Error, says the operation is none of the document's.
func (s *Steering) ForcedFor(operation string) ([]ForcedAnswer, error) {
	op := s.contract.Operation(operation)
	if op == nil {
		return nil, edge.BadRequest("operation", "%q: want the id of an operation of the document: %s", operation, s.operationIDs())
	}
	f := s.forced
	f.mu.Lock()
	defer f.mu.Unlock()
	out := []ForcedAnswer{}
	for _, a := range f.rules {
		if a.Operation == op.ID && a.fits(op) {
			out = append(out, a)
		}
	}
	for _, a := range f.rules {
		if a.Operation == "" && a.fits(op) {
			out = append(out, a)
		}
	}
	return out, nil
}

// ClearForcedFor drops the answers forced for the operation of the given
// id, those forced for any operation that it took first included; those
// forced for any operation and still waiting stay. The error is
// ForcedFor's.
func (s *Steering) ClearForcedFor(operation string) error {
	if s.contract.Operation(operation) == nil {
		return edge.BadRequest("operation", "%q: want the id of an operation of the document: %s", operation, s.operationIDs())
	}
	s.dropForced(func(a ForcedAnswer) bool { return a.Operation == operation })
	return nil
}

// RemoveForced drops the forced answer of the given id; a 404
// *edge.Error says there is none.
func (s *Steering) RemoveForced(id int64) error {
	if !s.dropForced(func(a ForcedAnswer) bool { return a.ID == id }) {
		return edge.NewError(http.StatusNotFound, "id", "no forced answer has id %d", id)
	}
	return nil
}

// dropForced drops the forced answers drop says, and reports whether it
// dropped any.
func (s *Steering) dropForced(drop func(ForcedAnswer) bool) bool {
	f := s.forced
	f.mu.Lock()
	n := len(f.rules)
	f.rules = slices.DeleteFunc(f.rules, drop)
	dropped := len(f.rules) < n
	f.n.Store(int32(len(f.rules)))
	f.mu.Unlock()
	if dropped {
		s.events.Publish(journal.ChangeForced)
	}
	return dropped
}

// MaxForcedAnswers is the most forced answers that may wait at once: each
// request of the API looks through them.
const MaxForcedAnswers = 100

// Force makes the next count requests to the operation of the given id
// answer code, or, with an operation of "", those to any operation that
// documents code. The code must be one the operation documents, or 500 or
// 503 to rehearse an outage; count is from 1 to MaxForcedCount. The
// answers wait in turn behind those forced before, at most
// MaxForcedAnswers of them.
func (s *Steering) Force(code, count int, operation string) error {
	return s.ForceAnswer(ForcedAnswer{Code: code, Remaining: count, Operation: operation})
}

// ForceAnswer makes the next a.Remaining requests to a.Operation, or to
// any operation with an Operation of "", answer a.Code, as Force does, or
// meet a.Fault when it is set instead (see Fault). Its ID is given here.
// Bound, with an Operation, restores an answer forced for any operation
// that a request of Operation took first, as petmock --state saved it.
func (s *Steering) ForceAnswer(a ForcedAnswer) error {
	a.ID = 0
	a.Bound = a.Bound && a.Operation != ""
	if e := s.checkForced(a); e != nil {
		return e
	}
	if a.Fault == FaultDribble {
		a.Chunks = cmp.Or(a.Chunks, DefaultDribbleChunks)
		a.Duration = cmp.Or(a.Duration, DefaultDribbleDuration.String())
	}
	f := s.forced
	f.mu.Lock()
	if len(f.rules) >= MaxForcedAnswers {
		f.mu.Unlock()
		return edge.BadRequest("forced",
			"%d forced answers wait already, the most there may be; DELETE /__petmock/forced, or let them be taken", MaxForcedAnswers)
	}
	f.next++
	a.ID = f.next
	f.rules = append(f.rules, a)
	f.n.Store(int32(len(f.rules)))
	f.mu.Unlock()
	if s.log != nil {
		what := []any{"code", a.Code}
		if a.Fault != "" {
			what = []any{"fault", a.Fault}
		}
		s.log.Info("answers forced", append(what, "count", a.Remaining, "operation", a.Operation)...)
	}
	s.events.Publish(journal.ChangeForced)
	return nil
}

// ClearForced forces nothing more: the forced answers that wait are
// dropped.
func (s *Steering) ClearForced() {
	f := s.forced
	f.mu.Lock()
	f.rules = nil
	f.n.Store(0)
	f.mu.Unlock()
	s.events.Publish(journal.ChangeForced)
}

// checkForced checks a forced answer against the document.
func (s *Steering) checkForced(a ForcedAnswer) *edge.Error {
	if a.Fault != "" {
		return s.checkForcedFault(a)
	}
	if a.BytesPerSecond != 0 {
		return edge.BadRequest("bytesPerSecond", "goes with the fault %s only", FaultSlow)
	}
	if e := checkDribble("", "", a.Chunks, a.Duration); e != nil {
		return e
	}
	if a.Code == 0 {
		return edge.BadRequest("code", "is required, or a fault: one of %s", faultList())
	}
	if a.Code < 100 || a.Code > 599 {
		return edge.BadRequest("code", "%d: want an HTTP status such as 503", a.Code)
	}
	if e := s.checkForcedFor(a); e != nil {
		return e
	}
	if a.Operation != "" {
		op := s.contract.Operation(a.Operation)
		if !Forceable(op, a.Code) {
			return edge.BadRequest("code", "%d is not documented for %s; use one of %s, or 500 or 503 to rehearse an outage",
				a.Code, op.ID, edge.StatusList(op.Statuses))
		}
		return nil
	}
	var all []int
	for _, op := range s.contract.Operations {
		if Forceable(op, a.Code) {
			return nil
		}
		all = append(all, op.Statuses...)
	}
	slices.Sort(all)
	return edge.BadRequest("code", "%d is documented for no operation; use one of %s, or 500 or 503 to rehearse an outage",
		a.Code, edge.StatusList(slices.Compact(all)))
}

// checkForcedFor checks the count and the operation of a forced answer.
func (s *Steering) checkForcedFor(a ForcedAnswer) *edge.Error {
	if a.Remaining < 1 || a.Remaining > MaxForcedCount {
		return edge.BadRequest("count", "%d: want a number of requests from 1 to %d", a.Remaining, MaxForcedCount)
	}
	if a.Operation != "" && s.contract.Operation(a.Operation) == nil {
		return edge.BadRequest("operation", "%q: want the id of an operation of the document: %s", a.Operation, s.operationIDs())
	}
	return nil
}

// checkForcedFault checks a forced fault.
func (s *Steering) checkForcedFault(a ForcedAnswer) *edge.Error {
	switch {
	case a.Code != 0:
		return edge.BadRequest("fault", "give a code or a fault, not both")
	case !a.Fault.known():
		return edge.BadRequest("fault", "%q: want one of %s", a.Fault, faultList())
	case a.BytesPerSecond != 0 && a.Fault != FaultSlow:
		return edge.BadRequest("bytesPerSecond", "goes with the fault %s only", FaultSlow)
	case a.BytesPerSecond != 0:
		if e := checkSlowRate("bytesPerSecond", a.BytesPerSecond); e != nil {
			return e
		}
	}
	if e := checkDribble("", a.Fault, a.Chunks, a.Duration); e != nil {
		return e
	}
	return s.checkForcedFor(a)
}

// operationIDs lists the operation ids of the document, for messages.
func (s *Steering) operationIDs() string {
	ids := make([]string, len(s.contract.Operations))
	for i, op := range s.contract.Operations {
		ids[i] = op.ID
	}
	return strings.Join(ids, ", ")
}
