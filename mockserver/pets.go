package mockserver

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/petstore/contract/spec"
)

// listPets answers GET /pets: pets ordered by id, at most limit of them,
// with a Link to the next page when more follow.
func (s *Server) listPets(w http.ResponseWriter, r *http.Request, c *call) error {
	pg := Page{After: math.MinInt64, Limit: s.defaultLimit, Status: c.query.Get("status")}
	if v := c.query.Get("limit"); v != "" {
		pg.Limit, _ = strconv.Atoi(v) // validated: an integer from 1 to 100
	}
	if v := c.query.Get("cursor"); v != "" {
		after, e := decodeCursor(v)
		if e != nil {
			return e
		}
		pg.After = after
	}
	buf := getBuffer()
	defer putBuffer(buf)
	body, last, more, err := s.store.AppendPage(*buf, pg)
	if err != nil {
		return err
	}
	if more {
		w.Header()["Link"] = []string{nextLink(r, s.base+"/pets", pg.Limit, pg.Status, last)}
	}
	*buf = append(body, '\n')
	writeJSON(w, http.StatusOK, *buf)
	return nil
}

// buffers holds page buffers between requests: a page is written into one,
// copied out by the ResponseWriter, and the buffer is used again.
var buffers = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

func getBuffer() *[]byte { return buffers.Get().(*[]byte) }

// putBuffer returns a buffer to the pool, unless it grew too large to
// keep around.
func putBuffer(b *[]byte) {
	if cap(*b) > 64<<10 {
		return
	}
	*b = (*b)[:0]
	buffers.Put(b)
}

// createPet answers POST /pets: 201 with the stored pet and its Location.
func (s *Server) createPet(w http.ResponseWriter, r *http.Request, c *call) error {
	np, e := decodeNewPet(c.body)
	if e != nil {
		return e
	}
	if np.Status == "" {
		np.Status = s.defaultStatus
	}
	p, text, err := s.store.Add(np)
	switch {
	case errors.Is(err, ErrStoreFull), errors.Is(err, ErrIDsExhausted):
		return newError(http.StatusInsufficientStorage, "store", "%v; nothing was created", err)
	case err != nil:
		return err
	}
	w.Header().Set("Location", absoluteURL(r, s.base+"/pets/"+strconv.FormatInt(p.ID, 10)))
	writeJSON(w, http.StatusCreated, append(text, '\n'))
	return nil
}

// getPet answers GET /pets/{petId}: the pet, or 404.
func (s *Server) getPet(w http.ResponseWriter, r *http.Request, c *call) error {
	id, err := strconv.ParseInt(c.params["petId"], 10, 64)
	if err != nil {
		return badRequest("petId", "must be an integer (int64)")
	}
	text, status, ok := s.store.lookup(id)
	if !ok {
		return newError(http.StatusNotFound, "petId", "no pet has id %d", id)
	}
	if d := s.ops[spec.GetPet].deprecation; d != nil && status != "" {
		d.setHeaders(w.Header(), r, status)
	}
	writeJSON(w, http.StatusOK, append(text, '\n'))
	return nil
}

// decodeNewPet reads a createPet body that has passed validation. It
// reads the exact members the schema names, where encoding/json would also
// match "NAME" to Name, and checks what the schema validation cannot: that
// categoryId is exactly an int64.
func decodeNewPet(body any) (NewPet, *Error) {
	m, _ := body.(map[string]any)
	var np NewPet
	var ok bool
	if np.Name, ok = m["name"].(string); !ok {
		return NewPet{}, badRequest("name", "must be a string")
	}
	n, _ := m["categoryId"].(json.Number)
	if np.CategoryID, ok = exactInt64(string(n)); !ok {
		return NewPet{}, badRequest("categoryId", "must be an integer (int64)")
	}
	if v, present := m["status"]; present {
		if np.Status, ok = v.(string); !ok {
			return NewPet{}, badRequest("status", "must be a string")
		}
	}
	return np, nil
}

// exactInt64 returns the value of a JSON number if it is exactly an
// integer in the int64 range, such as 12, 1.0 or 1e2, and false if it is
// not, such as 1.5 or 9223372036854775808. Unlike a float64 conversion it
// loses no digit, and unlike big.Rat it cannot be made to compute 10^1e9.
func exactInt64(num string) (int64, bool) {
	if v, err := strconv.ParseInt(num, 10, 64); err == nil {
		return v, true
	}
	neg := strings.HasPrefix(num, "-")
	num = strings.TrimPrefix(num, "-")
	mant, exp := num, 0
	if i := strings.IndexAny(num, "eE"); i >= 0 {
		mant = num[:i]
		e, err := strconv.Atoi(num[i+1:])
		if err != nil {
			e = math.MaxInt32 // beyond any int64, with either sign
			if strings.HasPrefix(num[i+1:], "-") {
				e = math.MinInt32
			}
		}
		exp = max(min(e, math.MaxInt32), math.MinInt32)
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart+frac == "" {
		return 0, false
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	point := len(intPart) + exp - (len(intPart+frac) - len(digits)) // digits before the point
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return 0, true
	}
	if point < len(digits) || point > 19 {
		return 0, false // a fraction, or more than 19 digits
	}
	v, err := strconv.ParseUint(digits+strings.Repeat("0", point-len(digits)), 10, 64)
	if err != nil {
		return 0, false
	}
	if neg {
		switch {
		case v > 1<<63:
			return 0, false
		case v == 1<<63:
			return math.MinInt64, true
		}
		return -int64(v), true
	}
	if v > math.MaxInt64 {
		return 0, false
	}
	return int64(v), true
}
