package journal

import (
	"log/slog"
	"net/http"
	"time"
)

// LogRequest writes the line of the request log of one request: method,
// path, status and duration, without a key or a secret path parameter, the fault or the expectation
// that answered it, if any, and who answered a request petmock proxied.
func LogRequest(log *slog.Logger, redact *Redactor, r *http.Request, rec *Recorder, start time.Time, elapsed time.Duration) {
	// The record is built by hand: Logger.LogAttrs would walk the stack
	// for a source position that nobody reads.
	if h := log.Handler(); h.Enabled(r.Context(), slog.LevelInfo) {
		line := slog.NewRecord(start.Add(elapsed), slog.LevelInfo, "request", 0)
		line.AddAttrs(
			slog.String("method", redact.Text(r.Method)),
			slog.String("path", redact.Text(LogPath(r.URL.Path))),
			slog.Int("status", rec.Status),
			slog.Duration("duration", elapsed),
		)
		if rec.Fault != "" {
			line.AddAttrs(slog.String("fault", rec.Fault))
		}
		if rec.Expectation != 0 {
			line.AddAttrs(slog.Int64("expectation", rec.Expectation))
		}
		line.AddAttrs(rec.Proxied(redact.Text)...)
		h.Handle(r.Context(), line)
	}
}

// LogPath is a path as the log writes it: without the values of its
// secret path parameters, such as a session id a servlet container puts
// in a URL (/cart;jsessionid=...), which the log hides whatever the
// journal's setting, as it holds no header, query or body.
func LogPath(path string) string {
	var found []string
	return (*Secrets)(nil).hidePath(path, &found)
}
