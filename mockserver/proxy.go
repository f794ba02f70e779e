package mockserver

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver/proxy"
	"github.com/petstore/contract/mockserver/steer"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/answercheck"
)

// With Config.Proxy, petmock stands in front of a backend, such as
// staging: each request of the API that the mock would hand to a handler,
// once the key, Prefer, latency, failures, the sunset and the forced
// answers are through, goes to the backend instead (package
// mockserver/proxy), and the backend's answer is checked against the
// document (package spec/answercheck) and relayed. What it breaks is
// recorded: in the journal, with the exchange, in the violations view
// (Violations) and in the log, one line a rule. Where the backend has
// nothing to say, the mock answers, as if there were no backend: when it
// cannot be reached, or answers 501, or 404 with anything but the
// operation's documented 404, as a backend answers an operation it has
// not built yet. X-Petmock-Source says who answered: backend, or mock.

// Proxy configures petmock as a checking proxy in front of a backend. Its
// zero value proxies nothing: the mock answers every request.
type Proxy struct {
	// URL is the backend's base URL, such as https://staging.example/v1:
	// a request to petmock's /v1/pets goes to
	// https://staging.example/v1/pets. Empty means no backend.
	URL string
	// Key, when not empty, is the key sent to the backend, as the
	// operation's security scheme asks: the client uses a key petmock
	// accepts, and the backend's stays out of the app. It is hidden
	// wherever the API's keys are, and in the answers relayed. Whether
	// or not there is one, the credentials of the document's schemes the
	// client sent, and any header, query parameter or cookie that holds a
	// key of petmock's, are never forwarded: empty sends the backend no
	// key.
	Key string
	// Timeout bounds each exchange with the backend; past it, the mock
	// answers. Zero means proxy.DefaultTimeout.
	Timeout time.Duration
	// MaxAnswerBytes bounds the part of a backend's answer read and
	// checked; a larger body is relayed unchecked. Zero means
	// proxy.DefaultMaxAnswerBytes.
	MaxAnswerBytes int64
	// MaxHeldBytes bounds the bytes of the bodies read for checking that
	// the answers in flight hold together: an answer read past it is
	// relayed unchecked. Zero means proxy.DefaultMaxHeldBytes.
	MaxHeldBytes int64
	// ViolationsHeader puts on every answer of the backend the header
	// ViolationsHeader, which lists what the request and the answer broke
	// (see violationsValue), for a developer to see in the browser.
	ViolationsHeader bool
	// Strict answers a request that breaks the document, or whose answer
	// does, with 502 and the list of what each broke, in place of the
	// backend's answer, as a CI run wants: a request that breaks it is
	// not forwarded.
	Strict bool
	// Record keeps each answer of the backend that breaks nothing as an
	// expectation (Steering.Expect) for the request it answered, so that
	// a later run without a backend plays it back (see record.go); while
	// it records, every request the mock would hand to a handler goes to
	// the backend, and no expectation answers ahead of it.
	Record bool
	// MaxViolations is how many answers that break the document the
	// violations view keeps, and MaxViolationBytes how many bytes of their
	// headers and bodies: past either, it drops its oldest. Zero means
	// DefaultMaxViolations and DefaultMaxViolationBytes.
	MaxViolations     int
	MaxViolationBytes int64
}

// Who answered a request, in X-Petmock-Source, with Config.Proxy.
const (
	SourceBackend = "backend"
	SourceMock    = "mock"
)

// SourceHeader names the header that says who answered a request of the
// API, SourceBackend or SourceMock, when petmock proxies.
const SourceHeader = "X-Petmock-Source"

var (
	sourceBackend = []string{SourceBackend}
	sourceMock    = []string{SourceMock}
)

// proxying is the stage of the request pipeline that forwards a request
// to the backend, in a server that proxies.
type proxying struct {
	backend *proxy.Backend
	checker *answercheck.Checker
	// key is Proxy.Key; schemes are the document's security schemes,
	// whose credentials the client sent are never forwarded.
	key     string
	schemes []*spec.Scheme
	// header, strict and recording are Proxy.ViolationsHeader, Strict
	// and Record.
	header, strict bool
	recording      *recorder

	gate *edge.Gate
	base string
	log  *slog.Logger
	// redact hides keys in the log and in the answers relayed, and
	// bodyKept is how much of a body the violations keep.
	redact   *journal.Redactor
	bodyKept int
	// violations keeps the exchanges that break the document, and events
	// is told of each: the server's, shared with those that take over.
	violations *journal.Journal
	events     *journal.Hub
	// steer takes the expectations recorded.
	steer *steer.Steering
}

// newProxying returns the stage that proxies to cfg's backend, or nil when
// there is none. The server gives it the rest of what it needs; redact
// hides keys in the bodies relayed.
func newProxying(c *spec.Contract, cfg Proxy, redact *journal.Redactor) (*proxying, error) {
	if cfg.URL == "" {
		return nil, nil
	}
	backend, err := proxy.New(proxy.Config{URL: cfg.URL, Timeout: cfg.Timeout, MaxAnswerBytes: cfg.MaxAnswerBytes,
		MaxHeldBytes: cfg.MaxHeldBytes, Scrub: redact})
	if err != nil {
		return nil, err
	}
	// The backend is held to the interface, not to petmock's choices of
	// headers, which no other deployment makes.
	checker, err := answercheck.New(c, false)
	if err != nil {
		return nil, err
	}
	p := &proxying{backend: backend, checker: checker, key: cfg.Key, header: cfg.ViolationsHeader, strict: cfg.Strict, redact: redact}
	if cfg.Record {
		p.recording = newRecorder()
	}
	if c.Doc.Components != nil {
		for _, name := range slices.Sorted(maps.Keys(c.Doc.Components.SecuritySchemes)) {
			if sc := c.Scheme(name); sc != nil {
				p.schemes = append(p.schemes, sc)
			}
		}
	}
	return p, nil
}

// Backend returns the base URL of the backend petmock proxies to, or ""
// when it answers every request itself.
func (s *Server) Backend() string {
	if s.proxy == nil {
		return ""
	}
	return s.proxy.backend.URL()
}

// forward sends r, a request of op with its path parameters, to the
// backend, and relays its answer. It reports whether it answered: when it
// did not, the mock answers r, whose body it left to be read again.
func (p *proxying) forward(w http.ResponseWriter, r *http.Request, op *edge.Operation, params map[string]string, rec *journal.Recorder) (bool, error) {
	start := time.Now()
	body, e := p.gate.ReadBody(r)
	if e != nil {
		return true, e
	}
	if rec != nil {
		rec.ReqBody = body
	}
	again := func() {
		// Should the mock answer after all, it reads the body again.
		r.Body, r.ContentLength = http.NoBody, 0
		if len(body) > 0 {
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		}
	}
	again()
	violations := p.judgeRequest(r, op, params)
	again()
	if p.strict && len(violations) > 0 {
		// A request that breaks the document does not reach the backend.
		if rec != nil {
			rec.Source, rec.Violations = SourceMock, violations
		}
		p.record(r, op.Spec.ID, body, nil, w.Header(), violations, start)
		return true, p.refuse(w, violations)
	}
	scheme, host := edge.Origin(r)
	a, err := p.backend.Forward(proxy.Request{
		In: r, Path: strings.TrimPrefix(r.URL.EscapedPath(), p.base), Body: body,
		Proto: scheme, Host: host, Present: p.present(op.Spec),
	})
	var pathErr *proxy.PathError
	var unreachable *proxy.UnreachableError
	switch {
	case errors.As(err, &pathErr):
		return true, edge.BadRequest("path", "%s holds a dot segment, which petmock does not forward", r.URL.EscapedPath())
	case errors.As(err, &unreachable):
		fellBack(rec, unreachable.Error())
		return false, nil
	case err != nil:
		return true, edge.NewError(http.StatusServiceUnavailable, "request", "cancelled by the client while the backend answered")
	}
	defer a.Close()
	answered := p.checker.CheckOperation(op.Spec, params, r, answercheck.Answer{Status: a.Status, Header: a.Header, Body: a.Body, Unread: !a.Whole})
	if reason := notBuilt(op.Spec, a.Status, answered); reason != "" {
		fellBack(rec, reason)
		return false, nil
	}
	violations = append(violations, answered...)
	if rec != nil {
		rec.Source, rec.Violations, rec.Unchecked = SourceBackend, violations, a.Unchecked
	}
	if p.strict && len(violations) > 0 {
		p.record(r, op.Spec.ID, body, a, w.Header(), violations, start)
		return true, p.refuse(w, violations)
	}
	p.backend.Rebase(a.Header, edge.AbsoluteURL(r, p.base))
	relayHeader(w.Header(), a.Header, p.redact)
	if p.header {
		p.setViolations(w.Header(), violations)
	}
	relayErr := a.Relay(w)
	if len(violations) > 0 {
		p.record(r, op.Spec.ID, body, a, w.Header(), violations, start)
	}
	if a.Unchecked != "" {
		p.logUnchecked(r, op.Spec.ID, a)
	}
	if p.recording != nil && relayErr == nil {
		p.keep(r, op, body, a, violations)
	}
	if relayErr != nil && r.Context().Err() == nil {
		// The backend broke off a body larger than was read, after its
		// status went out: the connection is cut, so that the client
		// does not take what came for the whole answer.
		panic(http.ErrAbortHandler)
	}
	return true, nil
}

// RuleRequest is the rule a request breaks that petmock proxies and
// would refuse itself: a parameter or a body the operation does not take,
// as the mock's checks find it.
const RuleRequest = "request"

// judgeRequest returns what r, a request of op that petmock is about to
// forward, breaks of the document: what the mock's own checks would
// refuse it for, which the backend gets all the same. It reads r's body.
func (p *proxying) judgeRequest(r *http.Request, op *edge.Operation, params map[string]string) []answercheck.Violation {
	_, err := p.gate.Check(r, op, params, nil, false)
	if err == nil {
		return nil
	}
	message := err.Error()
	var e *edge.Error
	if errors.As(err, &e) {
		message = e.Message
	}
	return []answercheck.Violation{{Rule: RuleRequest, Message: op.Spec.ID + " was sent a request it does not take: " + p.redact.Text(message)}}
}

// fellBack notes why the mock answers in the backend's place, for the
// journal and the log.
func fellBack(rec *journal.Recorder, reason string) {
	if rec != nil {
		rec.Source, rec.Fallback = SourceMock, reason
	}
}

// notBuilt says why an answer of the backend to op is one of an operation
// it has not built, so that the mock answers in its place, or returns "":
// a 501, or a 404 that is not the operation's documented 404, such as a
// web framework's page for a path it has no route of. A 404 the operation
// documents, with the body it documents, is the backend's to give.
func notBuilt(op *spec.Operation, status int, violations []answercheck.Violation) string {
	switch {
	case status == http.StatusNotImplemented:
		return "the backend answered 501: the mock answers what it has not built"
	case status != http.StatusNotFound:
		return ""
	case !op.Documents(http.StatusNotFound):
		return "the backend answered 404, which " + op.ID + " does not document: the mock answers what it has not built"
	case len(violations) > 0:
		return "the backend answered 404, but not the one " + op.ID + " documents (" + violations[0].Message + "): the mock answers what it has not built"
	}
	return ""
}

// petmockHeaders are the headers of an answer petmock keeps when it
// relays the backend's: its CORS, for the browser talks to petmock, what
// it applied of Prefer, and who answered. The others, such as the
// deprecation headers petmock would have sent, are the backend's to give.
var petmockHeaders = []string{"Vary", "Preference-Applied", SourceHeader}

// relayHeader makes dst, the header of petmock's answer, the backend's
// header from: all of it, but its CORS headers, where petmock's stand,
// and its Vary, which is added to petmock's. A key of petmock's, or the
// backend's, is hidden in the values, and a header whose name holds one is
// dropped: a backend that echoes its requests would hand it to the app.
func relayHeader(dst, from http.Header, redact *journal.Redactor) {
	for name := range dst {
		if !strings.HasPrefix(name, "Access-Control-") && !slices.Contains(petmockHeaders, name) {
			delete(dst, name)
		}
	}
	for name, values := range from {
		switch {
		case strings.HasPrefix(name, "Access-Control-"):
		case redact.HidesAnyCase(name):
		case name == "Vary":
			dst[name] = append(slices.Clip(dst[name]), values...)
		default:
			if slices.ContainsFunc(values, redact.Hides) {
				values = redactedValues(values, redact)
			}
			dst[name] = values
		}
	}
	dst[SourceHeader] = sourceBackend
}

// redactedValues returns a copy of values without the keys redact hides.
func redactedValues(values []string, redact *journal.Redactor) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = redact.Text(v)
	}
	return out
}

// present returns what puts the backend's key in a request to op: it
// takes out the credentials of the document's schemes the client sent,
// and every header, query parameter and cookie that holds a key of
// petmock's, in any form, wherever the client put it (petmock's own key
// goes no further than petmock), and puts in the proxy key, if there is
// one, as the operation's scheme asks.
func (p *proxying) present(op *spec.Operation) func(*http.Request) {
	return func(out *http.Request) {
		for _, sc := range p.schemes {
			sc.Withdraw(out)
		}
		p.withdrawKeys(out)
		if p.key == "" {
			return
		}
		for _, req := range op.Requirements {
			if len(req) == 0 {
				continue
			}
			for _, sc := range req {
				sc.Present(out, p.key)
			}
			return
		}
	}
}

// withdrawKeys takes out of out every header, query parameter and cookie
// whose name or value holds a key petmock accepts.
func (p *proxying) withdrawKeys(out *http.Request) {
	hides := p.redact.Hides
	for name, values := range out.Header {
		if name == "Cookie" {
			continue
		}
		if p.redact.HidesAnyCase(name) || slices.ContainsFunc(values, hides) {
			delete(out.Header, name)
		}
	}
	if slices.ContainsFunc(out.Header["Cookie"], hides) {
		// Only then is the Cookie written again, the others as they were.
		var kept []string
		for _, c := range out.Cookies() {
			if !hides(c.Name) && !hides(c.Value) {
				kept = append(kept, c.String())
			}
		}
		delete(out.Header, "Cookie")
		if len(kept) > 0 {
			out.Header.Set("Cookie", strings.Join(kept, "; "))
		}
	}
	if q := out.URL.RawQuery; q != "" && hides(q) {
		parts := strings.Split(q, "&")
		kept := parts[:0]
		for _, part := range parts {
			if !hides(part) {
				kept = append(kept, part)
			}
		}
		out.URL.RawQuery = strings.Join(kept, "&")
	}
}

// Defaults of the violations view's bounds.
const (
	DefaultMaxViolations     = 200
	DefaultMaxViolationBytes = 16 << 20
)

// The violations view keeps the backend's answers that break the
// document, each with its request and every rule it breaks, apart from
// the journal, so that the requests of a busy app do not push them out of
// sight. It is bounded as the journal is, in answers and in bytes, and
// shows them as the journal does: without a key, nor, unless the
// journalSecrets setting shows them, the app's secrets.

// record keeps the exchange of a request that broke the document, or
// whose answer a, nil when it was not forwarded, did, and writes a line of
// the log for each rule it broke, the keys hidden.
func (p *proxying) record(r *http.Request, op string, body []byte, a *proxy.Answer, header http.Header, violations []answercheck.Violation, start time.Time) {
	e := journal.Entry{
		Start:      start,
		Elapsed:    time.Since(start),
		Method:     r.Method,
		Path:       r.URL.Path,
		Query:      r.URL.RawQuery,
		ReqHeader:  r.Header,
		ReqBody:    journal.KeepBody(body, p.bodyKept),
		RespHeader: header,
		Source:     SourceMock,
		Violations: violations,
	}
	if a != nil {
		e.Status, e.RespBody, e.RespCut, e.Source, e.Unchecked = a.Status, journal.KeepBody(a.Body, p.bodyKept), !a.Whole, SourceBackend, a.Unchecked
	} else {
		e.Status = http.StatusBadGateway
	}
	p.violations.Add(e)
	p.events.Publish(journal.ChangeViolations)
	if p.log == nil || !p.log.Enabled(r.Context(), slog.LevelWarn) {
		return
	}
	for _, v := range violations {
		msg := "the backend's answer breaks the document"
		if v.Rule == RuleRequest {
			msg = "the request breaks the document"
		}
		p.log.LogAttrs(r.Context(), slog.LevelWarn, msg,
			slog.String("method", p.redact.Text(r.Method)),
			slog.String("path", p.redact.Text(journal.LogPath(r.URL.Path))),
			slog.String("operation", op),
			slog.Int("status", e.Status),
			slog.String("rule", v.Rule),
			slog.String("message", p.redact.Text(v.Message)),
		)
	}
}

// logUnchecked writes the line of the log that says the body of a, the
// backend's answer, went to the client unchecked, and why.
func (p *proxying) logUnchecked(r *http.Request, op string, a *proxy.Answer) {
	if p.log == nil || !p.log.Enabled(r.Context(), slog.LevelWarn) {
		return
	}
	p.log.LogAttrs(r.Context(), slog.LevelWarn, "the backend's answer is relayed with its body unchecked",
		slog.String("method", p.redact.Text(r.Method)),
		slog.String("path", p.redact.Text(journal.LogPath(r.URL.Path))),
		slog.String("operation", op),
		slog.Int("status", a.Status),
		slog.String("reason", a.Unchecked),
	)
}
