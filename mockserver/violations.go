package mockserver

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver/proxy"
	"github.com/petstore/contract/spec/answercheck"
)

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

// recordViolations keeps the exchange of a backend's answer a that broke
// the document, and writes a line of the log for each rule it broke, the
// keys hidden.
func (s *Server) recordViolations(r *http.Request, op string, body []byte, a *proxy.Answer, header http.Header, violations []answercheck.Violation, start time.Time) {
	s.violations.Add(journal.Entry{
		Start:      start,
		Elapsed:    time.Since(start),
		Method:     r.Method,
		Path:       r.URL.Path,
		Query:      r.URL.RawQuery,
		Status:     a.Status,
		ReqHeader:  r.Header,
		ReqBody:    journal.KeepBody(body, s.bodyKept),
		RespHeader: header,
		RespBody:   journal.KeepBody(a.Body, s.bodyKept),
		RespCut:    !a.Whole,
		Source:     SourceBackend,
		Violations: violations,
	})
	s.events.Publish(journal.ChangeViolations)
	if s.log == nil || !s.log.Enabled(r.Context(), slog.LevelWarn) {
		return
	}
	for _, v := range violations {
		s.log.LogAttrs(r.Context(), slog.LevelWarn, "the backend's answer breaks the document",
			slog.String("method", s.redact.Text(r.Method)),
			slog.String("path", s.redact.Text(r.URL.Path)),
			slog.String("operation", op),
			slog.Int("status", a.Status),
			slog.String("rule", v.Rule),
			slog.String("message", s.redact.Text(v.Message)),
		)
	}
}
