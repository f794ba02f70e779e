package mockserver

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"

	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/mockserver/journal"
	"github.com/petstore/contract/mockserver/store"
)

// failures writes every error the server sends, of its API and of every
// Edge: mapped to its *edge.Error in one place (asError), without a key in
// it, in the body its document describes; and logs those it does not
// expect, the keys hidden.
type failures struct {
	redact *journal.Redactor
	log    *slog.Logger
}

// write answers with the error err maps to, of a request of op of the
// document of g, nil for none, in the body that document describes for
// it, without a key in it: every error the server sends passes here.
func (f *failures) write(w http.ResponseWriter, g *edge.Gate, op *edge.Operation, err error) {
	g.WriteError(w, op, redactError(f.redact, f.asError(err)))
}

// panicked answers a request of the document of g whose handler panicked
// with v: a 500, and a line of the log with the stack. A client that went
// away is not answered.
func (f *failures) panicked(w http.ResponseWriter, r *http.Request, g *edge.Gate, v any) {
	if v == http.ErrAbortHandler {
		panic(v)
	}
	if f.log != nil {
		f.log.Error("handler panicked", "method", f.redact.Text(r.Method), "path", f.redact.Text(r.URL.Path),
			"panic", f.redact.Text(fmt.Sprint(v)), "stack", string(debug.Stack()))
	}
	f.write(w, g, nil, edge.NewError(http.StatusInternalServerError, "server", "internal error"))
}

// asError is asError with the server's log.
func (f *failures) asError(err error) *edge.Error {
	var log func(string, ...any)
	if f.log != nil {
		log = func(msg string, args ...any) {
			for i, a := range args {
				args[i] = f.redact.Text(fmt.Sprint(a))
			}
			f.log.Error(msg, args...)
		}
	}
	return asError(err, log)
}

// asError turns what a handler or the pipeline returned into the *Error to
// answer with. Sentinel errors of the store map to their status here, and
// only here; anything else is an internal error, logged.
func asError(err error, log func(msg string, args ...any)) *edge.Error {
	if e, ok := err.(*edge.Error); ok {
		return e // the common case, without a look down the chain
	}
	var e *edge.Error
	var fe *catalogue.FixtureError
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &fe):
		// The message names the item at fault, where its *Error's names
		// only the field.
		named := *fe.Err
		named.Message = fe.Error()
		return &named
	case errors.As(err, &e):
		return e
	case errors.Is(err, store.ErrStoreFull), errors.Is(err, store.ErrIDsExhausted):
		return edge.NewError(http.StatusInsufficientStorage, "store", "%v; nothing was changed", err)
	case errors.Is(err, store.ErrUnfit), errors.Is(err, store.ErrRetired):
		// A write of a request in flight when the document was reloaded
		// (see TakeOver), whose item the new document does not take.
		return edge.NewError(http.StatusServiceUnavailable, "document",
			"the document was reloaded while this request was answered, and the item does not fit it; nothing was changed: send the request again").
			WithHeader("Retry-After", "1")

	case errors.As(err, &tooBig):
		return edge.TooLarge(tooBig.Limit)
	}
	if log != nil {
		log("internal error", "err", err)
	}
	return edge.NewError(http.StatusInternalServerError, "server", "internal error")
}

// redactError returns e, or a copy of it whose message holds no key: a
// message may repeat what a client sent, such as a path, a method or a
// header.
func redactError(r *journal.Redactor, e *edge.Error) *edge.Error {
	m := r.Text(e.Message)
	if m == e.Message {
		return e
	}
	c := *e
	c.Message = m
	return &c
}
