package steer

import (
	"cmp"
	"maps"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/petstore/contract/mockserver/journal"
)

// Verification says, as WireMock's verify does, which requests of the API
// each expectation answered and how many, and which requests no
// expectation answered, with counts, so that a frontend's test asserts
// afterwards that the app sent what it should have, and nothing else:
// that the expectation of POST /pets answered once, and that no request
// went unanswered by one. It counts from petmock's start, or from the last
// ResetVerification, whatever the journal keeps; an expectation dropped
// since, once it answered its times, say, is still counted.
//
// It keeps a request's method and path, never its query, headers or body,
// which the journal shows with the app's secrets hidden.

// Bounds of what the verification keeps: each expectation of the last
// MaxVerifiedExpectations with its last VerifiedRequests requests, and
// MaxUnmatchedGroups methods and paths that no expectation answered;
// requests of more are counted in Omitted.
const (
	MaxVerifiedExpectations = 1000
	VerifiedRequests        = 10
	MaxUnmatchedGroups      = 1000
)

// Verification is what GET /__petmock/verification answers.
type Verification struct {
	// Since is when the counting started: petmock's start, or the last
	// reset.
	Since time.Time `json:"since"`
	// Received counts the requests of the API, and of paths outside its
	// base path, since; Matched those an expectation answered, and
	// Unmatched the others.
	Received  int64 `json:"received"`
	Matched   int64 `json:"matched"`
	Unmatched int64 `json:"unmatched"`
	// Expectations are the expectations that answered a request since,
	// and those set that did not, by id.
	Expectations []VerifiedExpectation `json:"expectations"`
	// UnmatchedRequests are the requests no expectation answered, by
	// method and path, in the order each was first received.
	UnmatchedRequests []UnmatchedRequests `json:"unmatchedRequests"`
	// Omitted counts the requests no expectation answered of methods and
	// paths past MaxUnmatchedGroups.
	Omitted int64 `json:"omitted,omitempty"`
}

// VerifiedExpectation is an expectation and the requests it answered.
type VerifiedExpectation struct {
	ID        int64  `json:"id"`
	Operation string `json:"operation"`
	// Method and Path are those of its when.
	Method string `json:"method"`
	Path   string `json:"path"`
	// Set says whether it is still set.
	Set bool `json:"set"`
	// Count is how many requests it answered; Requests are the last
	// VerifiedRequests of them, oldest first.
	Count    int64         `json:"count"`
	Requests []RequestSeen `json:"requests"`
}

// RequestSeen is one request, as the verification keeps it.
type RequestSeen struct {
	Time   time.Time `json:"time"`
	Method string    `json:"method"`
	Path   string    `json:"path"`
}

// UnmatchedRequests are the requests of one method and path that no
// expectation answered.
type UnmatchedRequests struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	// Operation is the operation of the document the path is of; "" for
	// none, such as a path outside the base path.
	Operation string    `json:"operation,omitempty"`
	Count     int64     `json:"count"`
	First     time.Time `json:"first"`
	Last      time.Time `json:"last"`
}

// verification keeps what Verification shows.
type verification struct {
	mu        sync.Mutex // guards all below
	since     time.Time
	received  int64
	matched   int64
	answered  map[int64]*VerifiedExpectation
	unmatched map[groupKey]*UnmatchedRequests
	order     []groupKey // of unmatched, first received first
	omitted   int64
}

// groupKey groups the requests no expectation answered.
type groupKey struct{ method, path string }

func newVerification(now time.Time) *verification {
	return &verification{since: now, answered: map[int64]*VerifiedExpectation{}, unmatched: map[groupKey]*UnmatchedRequests{}}
}

// answer counts r as answered by x.
func (v *verification) answer(x *expectation, r *http.Request, now time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	rec := v.answered[x.ID]
	if rec == nil {
		if len(v.answered) >= MaxVerifiedExpectations {
			delete(v.answered, slices.Min(slices.Collect(maps.Keys(v.answered))))
		}
		rec = &VerifiedExpectation{ID: x.ID, Operation: x.Operation, Method: x.When.Method, Path: x.When.Path}
		v.answered[x.ID] = rec
	}
	rec.Count++
	if len(rec.Requests) == VerifiedRequests {
		rec.Requests = slices.Delete(rec.Requests, 0, 1)
	}
	rec.Requests = append(rec.Requests, RequestSeen{Time: now.UTC(), Method: r.Method, Path: r.URL.Path})
}

// Received counts a request of the API, or of a path outside its base
// path, of the given operation ("" for none), and answered by the
// expectation of the given id (0 for none), for the verification.
func (s *Steering) Received(r *http.Request, operation string, expectation int64) {
	v := s.verify
	now := s.now()
	v.mu.Lock()
	defer v.mu.Unlock()
	v.received++
	if expectation != 0 {
		v.matched++
		return
	}
	k := groupKey{r.Method, r.URL.Path}
	g := v.unmatched[k]
	if g == nil {
		if len(v.unmatched) >= MaxUnmatchedGroups {
			v.omitted++
			return
		}
		g = &UnmatchedRequests{Method: r.Method, Path: r.URL.Path, Operation: operation, First: now.UTC()}
		v.unmatched[k] = g
		v.order = append(v.order, k)
	}
	g.Count++
	g.Last = now.UTC()
}

// Verification returns which requests each expectation answered, and
// which no expectation did, since petmock started or the last
// ResetVerification, keys hidden.
func (s *Steering) Verification() Verification {
	set := map[int64]Expectation{}
	for _, e := range s.Expectations() {
		set[e.ID] = e
	}
	v := s.verify
	v.mu.Lock()
	out := Verification{Since: v.since.UTC(), Received: v.received, Matched: v.matched, Unmatched: v.received - v.matched,
		Expectations: []VerifiedExpectation{}, UnmatchedRequests: []UnmatchedRequests{}, Omitted: v.omitted}
	for _, rec := range v.answered {
		c := *rec
		c.Requests = slices.Clone(rec.Requests)
		out.Expectations = append(out.Expectations, c)
	}
	for _, k := range v.order {
		out.UnmatchedRequests = append(out.UnmatchedRequests, *v.unmatched[k])
	}
	v.mu.Unlock()
	for i := range out.Expectations {
		e := &out.Expectations[i]
		_, e.Set = set[e.ID]
		delete(set, e.ID)
	}
	for _, e := range set {
		out.Expectations = append(out.Expectations, VerifiedExpectation{ID: e.ID, Operation: e.Operation, Method: e.When.Method,
			Path: e.When.Path, Set: true, Requests: []RequestSeen{}})
	}
	slices.SortFunc(out.Expectations, func(a, b VerifiedExpectation) int { return cmp.Compare(a.ID, b.ID) })
	r := s.redact
	for i := range out.Expectations {
		e := &out.Expectations[i]
		e.Path = r.Text(e.Path)
		for j := range e.Requests {
			e.Requests[j].Method, e.Requests[j].Path = r.Text(e.Requests[j].Method), r.Text(e.Requests[j].Path)
		}
	}
	for i := range out.UnmatchedRequests {
		u := &out.UnmatchedRequests[i]
		u.Method, u.Path = r.Text(u.Method), r.Text(u.Path)
	}
	return out
}

// ResetVerification forgets what the verification counted: it counts
// from now. The event streams are told, as of a change of the
// expectations, which the console reads the verification again on.
func (s *Steering) ResetVerification() {
	fresh := newVerification(s.now())
	v := s.verify
	v.mu.Lock()
	v.since, v.received, v.matched, v.omitted = fresh.since, 0, 0, 0
	v.answered, v.unmatched, v.order = fresh.answered, fresh.unmatched, nil
	v.mu.Unlock()
	s.events.Publish(journal.ChangeExpectations)
}
