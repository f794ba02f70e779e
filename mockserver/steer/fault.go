package steer

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver/edge"
)

// A fault is a failure below HTTP, put in place of an answer so that an
// app can rehearse what a network, a proxy or a crashing backend do to it:
// a connection reset, one closed with no reply, a chunked body that breaks,
// or a body that dribbles in. The settings inject faults at a rate, and a
// forced answer injects one on the next requests; the journal and the log
// name each.
//
// Every fault but slow is a failure, and a request it meets is not
// processed: nothing changes, so a write the client could not see
// acknowledged is never made either. A slow answer is no failure: the
// request is processed, saved when petmock keeps its items, and answered
// in full, only slowly.

// Fault names a fault.
type Fault string

// The faults.
const (
	// FaultReset closes the connection with a TCP reset, so that the
	// client reads ECONNRESET ("connection reset by peer").
	FaultReset Fault = "reset"
	// FaultEmpty closes the connection without a byte of an answer: the
	// client reads EOF, and curl says "Empty reply from server".
	FaultEmpty Fault = "empty"
	// FaultMalformedChunk sends an answer's head and then a chunk whose
	// size is not hexadecimal, and closes the connection: the client
	// gets the status, then fails reading the body.
	FaultMalformedChunk Fault = "malformed-chunk"
	// FaultSlow sends the answer's head at once and its body at a few
	// bytes a second (see DefaultSlowBytesPerSecond and MaxDribble).
	FaultSlow Fault = "slow"
)

// Faults are the faults, in the order messages list them.
var Faults = []Fault{FaultReset, FaultEmpty, FaultMalformedChunk, FaultSlow}

// DefaultSlowBytesPerSecond is how fast a slow body comes when nothing
// says otherwise.
const DefaultSlowBytesPerSecond = 100

// MaxSlowBytesPerSecond is the fastest a slow body may be set to come;
// faster is no longer slow.
const MaxSlowBytesPerSecond = 1 << 20

// faultList writes the faults as messages list them.
func faultList() string {
	names := make([]string, len(Faults))
	for i, f := range Faults {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// known reports whether f is one of Faults.
func (f Fault) known() bool { return slices.Contains(Faults, f) }

// checkSlowRate checks a rate of a slow body, in bytes per second, for the
// field named field.
func checkSlowRate(field string, n int) *edge.Error {
	if n < 1 || n > MaxSlowBytesPerSecond {
		return edge.BadRequest(field, "%d: want bytes per second from 1 to %d", n, MaxSlowBytesPerSecond)
	}
	return nil
}

// injected is a fault to inject in one answer: the zero value injects
// none.
type injected struct {
	fault Fault
	rate  int // of a slow body, in bytes per second
}

// fail puts the fault f in place of the answer to r, a request to op,
// which is not processed. f is any fault but FaultSlow. rec, when not
// nil, is told the fault, and the status of a head that was sent.
func fail(w http.ResponseWriter, r *http.Request, op *edge.Operation, rec *journal.Recorder, f Fault) error {
	if f == FaultEmpty || f == FaultMalformedChunk {
		// Read what the client sent, within the bound of a body, so that
		// closing the connection sends FIN, which a client reads as the
		// end of what was sent, rather than the reset that the kernel
		// sends for unread bytes, which may discard the answer's head
		// before the client reads it.
		io.Copy(io.Discard, io.LimitReader(r.Body, edge.MaxBodyBytes))
	}
	var head []byte
	status := 0
	if f == FaultMalformedChunk {
		status = malformedStatus(op)
		head = malformedHead(w.Header(), status)
	}
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		// Not a connection of net/http's HTTP/1 server, such as a
		// recorder of a test: nothing can be done below HTTP.
		return edge.NewError(http.StatusServiceUnavailable, "fault",
			"%s: this connection cannot be failed below HTTP (%v)", f, err)
	}
	if rec != nil {
		rec.Fault, rec.Status = string(f), status
	}
	switch f {
	case FaultReset:
		if l, ok := conn.(interface{ SetLinger(int) error }); ok {
			// A linger of 0 makes close send RST at once instead of FIN.
			l.SetLinger(0)
		}
	case FaultMalformedChunk:
		buf.Write(head)
		buf.Flush()
	}
	conn.Close()
	return ErrAnswered
}

// ErrAnswered says that the steering answered the request itself, with
// a fault below HTTP or a named example, and nothing more is to be
// written.
var ErrAnswered = errors.New("answered by the steering")

// malformedStatus is the status of the head of a malformed chunk: the
// operation's success, where a client cannot take it to say that a write
// was made, and a status whose answer has a body; 503 otherwise.
func malformedStatus(op *edge.Operation) int {
	status := op.Spec.Success
	if op.ChangesItems() || status == 0 || status == http.StatusNoContent || status == http.StatusNotModified {
		return http.StatusServiceUnavailable
	}
	return status
}

// badChunk is what follows the head of a malformed chunk: a chunk size
// that is not hexadecimal, with a start of a body after it.
const badChunk = "zz\r\n{\"\r\n"

// malformedHead returns the head of a malformed chunk, with the headers
// the pipeline set so far, such as CORS, so that a browser page gets to
// read the body and fail there; h gets the headers that the head adds, for
// the journal.
func malformedHead(h http.Header, status int) []byte {
	h.Set("Content-Type", "application/json")
	h.Set("Transfer-Encoding", "chunked")
	h.Set("Connection", "close")
	h.Del("Content-Length")
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 " + strconv.Itoa(status) + " " + http.StatusText(status) + "\r\n")
	h.Write(&b)
	b.WriteString("\r\n" + badChunk)
	return b.Bytes()
}
