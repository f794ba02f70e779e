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
	// operation's security scheme asks, in place of every credential of
	// the document's schemes the client sent: the client then uses a
	// key petmock accepts, and the backend's stays out of the app. It is
	// hidden wherever the API's keys are. Empty forwards the client's
	// credentials as they came.
	Key string
	// Timeout bounds each exchange with the backend; past it, the mock
	// answers. Zero means proxy.DefaultTimeout.
	Timeout time.Duration
	// MaxAnswerBytes bounds the part of a backend's answer read and
	// checked; the rest of a larger body is relayed unchecked. Zero means
	// proxy.DefaultMaxAnswerBytes.
	MaxAnswerBytes int64
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
	// whose credentials the client sent are not forwarded with a key.
	key     string
	schemes []*spec.Scheme

	gate *edge.Gate
	base string
	log  *slog.Logger
	// redact hides keys in the log, and bodyKept is how much of a body
	// the violations keep.
	redact   *journal.Redactor
	bodyKept int
	// violations keeps the answers that break the document, and events
	// is told of each: the server's, shared with those that take over.
	violations *journal.Journal
	events     *journal.Hub
}

// newProxying returns the stage that proxies to cfg's backend, or nil when
// there is none. The server gives it the rest of what it needs.
func newProxying(c *spec.Contract, cfg Proxy) (*proxying, error) {
	if cfg.URL == "" {
		return nil, nil
	}
	backend, err := proxy.New(proxy.Config{URL: cfg.URL, Timeout: cfg.Timeout, MaxAnswerBytes: cfg.MaxAnswerBytes})
	if err != nil {
		return nil, err
	}
	// The backend is held to the interface, not to petmock's choices of
	// headers, which no other deployment makes.
	checker, err := answercheck.New(c, false)
	if err != nil {
		return nil, err
	}
	p := &proxying{backend: backend, checker: checker, key: cfg.Key}
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
	// Should the mock answer after all, it reads the body again.
	r.Body, r.ContentLength = http.NoBody, 0
	if len(body) > 0 {
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
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
	violations := p.checker.CheckOperation(op.Spec, params, r, answercheck.Answer{Status: a.Status, Header: a.Header, Body: a.Body, Unread: !a.Whole})
	if reason := notBuilt(op.Spec, a.Status, violations); reason != "" {
		fellBack(rec, reason)
		return false, nil
	}
	p.backend.Rebase(a.Header, edge.AbsoluteURL(r, p.base))
	relayHeader(w.Header(), a.Header)
	if rec != nil {
		rec.Source, rec.Violations = SourceBackend, violations
	}
	relayErr := a.Relay(w)
	if len(violations) > 0 {
		p.record(r, op.Spec.ID, body, a, w.Header(), violations, start)
	}
	if relayErr != nil && r.Context().Err() == nil {
		// The backend broke off a body larger than was read, after its
		// status went out: the connection is cut, so that the client
		// does not take what came for the whole answer.
		panic(http.ErrAbortHandler)
	}
	return true, nil
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
// and its Vary, which is added to petmock's.
func relayHeader(dst, from http.Header) {
	for name := range dst {
		if !strings.HasPrefix(name, "Access-Control-") && !slices.Contains(petmockHeaders, name) {
			delete(dst, name)
		}
	}
	for name, values := range from {
		switch {
		case strings.HasPrefix(name, "Access-Control-"):
		case name == "Vary":
			dst[name] = append(slices.Clip(dst[name]), values...)
		default:
			dst[name] = values
		}
	}
	dst[SourceHeader] = sourceBackend
}

// present returns what puts the backend's key in a request to op, in
// place of the client's credentials, or nil when the client's go as they
// came.
func (p *proxying) present(op *spec.Operation) func(*http.Request) {
	if p.key == "" {
		return nil
	}
	return func(out *http.Request) {
		for _, sc := range p.schemes {
			sc.Withdraw(out)
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

// record keeps the exchange of a backend's answer a that broke
// the document, and writes a line of the log for each rule it broke, the
// keys hidden.
func (p *proxying) record(r *http.Request, op string, body []byte, a *proxy.Answer, header http.Header, violations []answercheck.Violation, start time.Time) {
	p.violations.Add(journal.Entry{
		Start:      start,
		Elapsed:    time.Since(start),
		Method:     r.Method,
		Path:       r.URL.Path,
		Query:      r.URL.RawQuery,
		Status:     a.Status,
		ReqHeader:  r.Header,
		ReqBody:    journal.KeepBody(body, p.bodyKept),
		RespHeader: header,
		RespBody:   journal.KeepBody(a.Body, p.bodyKept),
		RespCut:    !a.Whole,
		Source:     SourceBackend,
		Violations: violations,
	})
	p.events.Publish(journal.ChangeViolations)
	if p.log == nil || !p.log.Enabled(r.Context(), slog.LevelWarn) {
		return
	}
	for _, v := range violations {
		p.log.LogAttrs(r.Context(), slog.LevelWarn, "the backend's answer breaks the document",
			slog.String("method", p.redact.Text(r.Method)),
			slog.String("path", p.redact.Text(r.URL.Path)),
			slog.String("operation", op),
			slog.Int("status", a.Status),
			slog.String("rule", v.Rule),
			slog.String("message", p.redact.Text(v.Message)),
		)
	}
}
