package mockserver

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/mockserver/journal"
	"github.com/petstore/contract/mockserver/proxy"
	"github.com/petstore/contract/mockserver/steer"
	"github.com/petstore/contract/spec/answercheck"
)

// With Proxy.Record, petmock keeps what a backend answers, so that a team
// can play it back once the backend is gone: each answer of the backend
// that breaks nothing, to a request that breaks nothing, becomes an
// expectation (Steering.Expect) that matches that request, its method,
// path, declared query parameters and JSON body, and answers as the
// backend did, with the headers the document declares. The first answer
// to a request is kept, and a request asked again is answered by the
// backend as before, and not kept twice. An expectation is kept as any
// is, with --state in the settings file beside the state file, from which
// a later run without --proxy plays it back. What cannot be kept is said
// in the log, with why: an answer or a request that breaks the document,
// a body relayed unchecked, a query parameter the operation does not
// declare, a body of another type than JSON or text, or the expectations
// full.

// recorder is what Proxy.Record keeps of the requests recorded.
type recorder struct {
	mu   sync.Mutex // guards seen, full and seeded
	seen map[string]bool
	// full is whether the expectations were found full, which the log
	// says once.
	full   bool
	seeded bool
}

func newRecorder() *recorder { return &recorder{seen: map[string]bool{}} }

// keep records a, the backend's answer to r, a request of op with the
// given body, which broke what violations say, as an expectation; or says
// in the log why it does not.
func (p *proxying) keep(r *http.Request, op *edge.Operation, body []byte, a *proxy.Answer, violations []answercheck.Violation) {
	x, reason := p.expectation(r, op, body, a, violations)
	if reason != "" {
		p.notRecorded(r, op, a.Status, reason)
		return
	}
	rc := p.recording
	key := recordKey(x.When)
	rc.mu.Lock()
	if !rc.seeded {
		rc.seeded = true
		for _, set := range p.steer.ExpectationsAsSet() {
			rc.seen[recordKey(set.When)] = true
		}
	}
	if rc.seen[key] {
		rc.mu.Unlock()
		return // kept already: the first answer plays back
	}
	if len(p.steer.ExpectationsAsSet()) >= steer.MaxExpectations {
		logIt := !rc.full
		rc.full = true
		rc.mu.Unlock()
		if logIt {
			p.notRecorded(r, op, a.Status, "the expectations are full, at "+strconv.Itoa(steer.MaxExpectations)+
				"; the recording stops here: DELETE /__petmock/expectations/{id} some to make room")
		}
		return
	}
	rc.seen[key] = true
	rc.mu.Unlock()
	set, err := p.steer.Expect(x)
	if err != nil {
		rc.mu.Lock()
		delete(rc.seen, key)
		rc.mu.Unlock()
		p.notRecorded(r, op, a.Status, "petmock refused it as an expectation: "+p.redact.Text(err.Error()))
		return
	}
	if p.log != nil {
		p.log.Info("recorded", "method", r.Method, "path", p.redact.Text(journal.LogPath(r.URL.Path)), "operation", op.Spec.ID,
			"status", a.Status, "expectation", set.ID)
	}
}

// expectation returns the expectation that plays a back for r, or why
// there is none.
func (p *proxying) expectation(r *http.Request, op *edge.Operation, body []byte, a *proxy.Answer, violations []answercheck.Violation) (steer.Expectation, string) {
	x := steer.Expectation{When: steer.RequestMatch{Method: r.Method, Path: r.URL.EscapedPath()}}
	switch {
	case len(violations) > 0:
		return x, violations[0].Rule + ": " + p.redact.Text(violations[0].Message)
	case a.Unchecked != "":
		return x, "its body was not checked: " + a.Unchecked
	}
	query, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return x, "its query cannot be read: " + err.Error()
	}
	for _, name := range slices.Sorted(maps.Keys(query)) {
		switch {
		case !slices.Contains(op.QueryParams, name):
			return x, "the query parameter " + name + " is none the operation declares, which an expectation cannot match on"
		case len(query[name]) > 1:
			return x, "the query parameter " + name + " is given more than once, which an expectation cannot match on"
		}
		if x.When.Query == nil {
			x.When.Query = map[string]string{}
		}
		x.When.Query[name] = query[name][0]
	}
	if len(body) > 0 {
		if op.Spec.RequestSchema() == nil || !json.Valid(body) {
			return x, "its body is no JSON, which an expectation cannot match on"
		}
		x.When.Body = map[string]json.RawMessage{"": compactJSON(body)}
	}
	x.Answer.Status = a.Status
	if res := op.Spec.Response(a.Status); res != nil {
		for _, name := range slices.Sorted(maps.Keys(res.Headers)) {
			if v := a.Header.Get(name); v != "" && !strings.EqualFold(name, "Content-Type") {
				if x.Answer.Headers == nil {
					x.Answer.Headers = map[string]string{}
				}
				x.Answer.Headers[name] = p.redact.Text(v)
			}
		}
	}
	if len(a.Body) > 0 {
		answer := bytes.Clone(a.Body)
		p.redact.Scrub(answer)
		mediaType, _, _ := mime.ParseMediaType(a.Header.Get("Content-Type"))
		switch {
		case mediaType == "application/json" || strings.HasSuffix(mediaType, "+json"):
			x.Answer.Body = compactJSON(answer)
		case strings.HasPrefix(mediaType, "text/"):
			x.Answer.Body, _ = json.Marshal(string(answer))
		default:
			return x, "its body is of type " + mediaType + ", which an expectation cannot give"
		}
	}
	return x, ""
}

// notRecorded says in the log why the answer of status to r is not kept.
func (p *proxying) notRecorded(r *http.Request, op *edge.Operation, status int, reason string) {
	if p.log == nil {
		return
	}
	p.log.LogAttrs(r.Context(), slog.LevelWarn, "not recorded",
		slog.String("method", p.redact.Text(r.Method)),
		slog.String("path", p.redact.Text(journal.LogPath(r.URL.Path))),
		slog.String("operation", op.Spec.ID),
		slog.Int("status", status),
		slog.String("reason", reason),
	)
}

// recordKey names the requests a match matches, so that one is kept once.
func recordKey(m steer.RequestMatch) string {
	var b strings.Builder
	b.WriteString(strings.ToUpper(m.Method) + " " + m.Path)
	for _, name := range slices.Sorted(maps.Keys(m.Query)) {
		b.WriteString("&" + url.QueryEscape(name) + "=" + url.QueryEscape(m.Query[name]))
	}
	if body, ok := m.Body[""]; ok {
		b.WriteString("\n")
		b.Write(compactJSON(body))
	}
	return b.String()
}

// compactJSON returns the JSON text b without its white space.
func compactJSON(b []byte) json.RawMessage {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return json.RawMessage(b)
	}
	return out.Bytes()
}
