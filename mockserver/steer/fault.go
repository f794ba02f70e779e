package steer

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver/edge"
)

// A fault is a failure below HTTP, put in place of an answer so that an
// app can rehearse what a network, a proxy or a crashing backend do to it:
// a connection reset, one closed with no reply, a chunked body that breaks,
// bytes that are no HTTP at all, or a body that dribbles in, at a rate or
// in a few chunks. The settings inject faults at a rate, a forced answer
// injects one on the next requests, and an expectation on the requests it
// matches; the journal and the log name each.
//
// Every fault but slow and dribble is a failure, and a request it meets is
// not processed: nothing changes, so a write the client could not see
// acknowledged is never made either. A slow or dribbled answer is no
// failure: the request is processed, saved when petmock keeps its items,
// and answered in full, only slowly.

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
	// FaultRandomData sends bytes that are no HTTP answer, drawn from the
	// seed, and closes the connection: the client reads a malformed
	// answer, and curl says "Received HTTP/0.9 when not allowed".
	FaultRandomData Fault = "random-data"
	// FaultSlow sends the answer's head at once and its body at a few
	// bytes a second (see DefaultSlowBytesPerSecond and MaxDribble).
	FaultSlow Fault = "slow"
	// FaultDribble sends the answer's head at once and its body in a
	// number of chunks spread over a duration (see DefaultDribbleChunks
	// and DefaultDribbleDuration).
	FaultDribble Fault = "dribble"
)

// Faults are the faults, in the order messages list them.
var Faults = []Fault{FaultReset, FaultEmpty, FaultMalformedChunk, FaultRandomData, FaultSlow, FaultDribble}

// failure reports whether f is a failure: the request it meets is not
// processed. A slow or dribbled answer is the request's own, only slow.
func (f Fault) failure() bool { return f != "" && f != FaultSlow && f != FaultDribble }

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

// checkDribble checks how a dribbled body comes, in chunks over a
// duration such as "2s", given with the fault f: they go with FaultDribble
// only, and each may be left out for its default. prefix is put before the
// fields' names in messages, such as "answer.".
func checkDribble(prefix string, f Fault, chunks int, duration string) *edge.Error {
	if f != FaultDribble {
		switch {
		case chunks != 0:
			return edge.BadRequest(prefix+"chunks", "goes with the fault %s only", FaultDribble)
		case duration != "":
			return edge.BadRequest(prefix+"duration", "goes with the fault %s only", FaultDribble)
		}
		return nil
	}
	if chunks < 0 || chunks > MaxDribbleChunks {
		return edge.BadRequest(prefix+"chunks", "%d: want a number of chunks from 1 to %d", chunks, MaxDribbleChunks)
	}
	if duration != "" {
		if d, err := time.ParseDuration(duration); err != nil || d <= 0 || d > MaxDribble {
			return edge.BadRequest(prefix+"duration", "%q: want a duration such as 2s, at most %s", duration, MaxDribble)
		}
	}
	return nil
}

// injected is a fault to inject in one answer: the zero value injects
// none.
type injected struct {
	fault Fault
	rate  int // of a slow body, in bytes per second
	// chunks and over are how a dribbled body comes: in chunks pieces
	// spread over the duration over.
	chunks int
	over   time.Duration
}

// randomDataBytes is how many bytes FaultRandomData sends.
const randomDataBytes = 256

// fail puts the fault f in place of the answer to r, a request to op,
// which is not processed. f is a failure (see Fault.failure). rec, when
// not nil, is told the fault, and the status of a head that was sent.
// data are the bytes FaultRandomData sends.
func fail(w http.ResponseWriter, r *http.Request, op *edge.Operation, rec *journal.Recorder, f Fault, data []byte) error {
	if f == FaultEmpty || f == FaultMalformedChunk || f == FaultRandomData {
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
	case FaultRandomData:
		buf.Write(data)
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
