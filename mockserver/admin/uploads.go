package admin

import (
	"io"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync"

	"github.com/petstore/contract/mockserver/edge"
)

// uploads bounds the bytes of the fixtures that PUT /__petmock/fixture
// and /__petmock/{resource} read at once. Reading a fixture takes memory
// in proportion to its size, two or three times over while it is checked
// and stored, so six fixtures of 200 MB at once took 2.8 GB. Past the
// bound, an upload is refused at once with 503 and Retry-After, before a
// byte of it is read, rather than made to wait: a waiting upload would
// hold its connection, and its client could not tell a queue from a hang.
//
// An upload counts for its Content-Length, or for the largest fixture
// when it does not say (a chunked body), so that it can only be read
// alone.
type uploads struct {
	max int64 // the most bytes read at once: the largest fixture

	mu       sync.Mutex // guards inFlight
	inFlight int64
}

// uploadRetrySeconds is the Retry-After of a refused upload.
const uploadRetrySeconds = 1

// freeAfterBytes is the size of an upload past which the memory it took
// is given back to the system before it is answered. An idle mock runs
// no collection for minutes, and the runtime returns memory it no longer
// uses only bit by bit: without this, hundreds of MB stay with the
// process after a large fixture. It costs one collection, for an upload
// that took far longer to send.
const freeAfterBytes = 16 << 20

// upload admits the fixture in r's body, whose Content-Type the edge
// checked: no larger than the largest fixture, and within the bound of
// the uploads read at once. The caller reads body and then calls done.
func (h *handler) upload(w http.ResponseWriter, r *http.Request) (body io.Reader, done func(), err error) {
	limit := h.uploads.max
	if r.ContentLength > limit {
		// The server answers it as it answers a body cut at the limit.
		return nil, nil, &http.MaxBytesError{Limit: limit}
	}
	weight := limit
	if r.ContentLength >= 0 {
		weight = r.ContentLength
	}
	if e := h.uploads.reserve(weight); e != nil {
		return nil, nil, e
	}
	c := &countingReader{r: http.MaxBytesReader(w, r.Body, limit)}
	return c, func() { h.uploads.done(weight, c.n) }, nil
}

// reserve counts an upload of n bytes in, or refuses it. The caller
// calls done once it has read and stored the upload.
func (u *uploads) reserve(n int64) *edge.Error {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.inFlight > 0 && u.inFlight+n > u.max {
		return edge.NewError(http.StatusServiceUnavailable, "fixture",
			"%d bytes of fixtures are being read already, and petmock reads at most %d at once; retry once they are stored",
			u.inFlight, u.max).WithHeader("Retry-After", strconv.Itoa(uploadRetrySeconds))
	}
	u.inFlight += n
	return nil
}

// done counts out an upload of n bytes, of which read were read.
func (u *uploads) done(n, read int64) {
	u.mu.Lock()
	u.inFlight -= n
	u.mu.Unlock()
	if read >= freeAfterBytes {
		debug.FreeOSMemory()
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
