package judge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// Pet is a Pet as received. Numbers stay as sent, so that an int64 that a
// server rounded through a float64 is seen as it is.
type Pet struct {
	ID         json.Number `json:"id"`         // as sent, digit for digit
	Name       string      `json:"name"`       // as sent
	CategoryID json.Number `json:"categoryId"` // as sent, digit for digit
	Status     *string     `json:"status"`     // nil where the pet has none
}

// IntID returns the pet's id. The schema has checked that it is an integer.
func (p Pet) IntID() int64 {
	n, _ := ExactInt(p.ID)
	return n
}

// StatusValue returns the pet's status, or "" if it has none.
func (p Pet) StatusValue() string {
	if p.Status == nil {
		return ""
	}
	return *p.Status
}

func (p Pet) String() string {
	s := fmt.Sprintf("{id %s, name %q, categoryId %s", p.ID, p.Name, p.CategoryID)
	if p.Status != nil {
		s += fmt.Sprintf(", status %q", *p.Status)
	}
	return s + "}"
}

// Same reports whether two pets are equal, numbers compared exactly, and
// if not, how they differ.
func (p Pet) Same(q Pet) (bool, string) {
	var diffs []string
	if !SameNumber(p.ID, q.ID) {
		diffs = append(diffs, fmt.Sprintf("id %s, want %s", p.ID, q.ID))
	}
	if p.Name != q.Name {
		diffs = append(diffs, fmt.Sprintf("name %q, want %q", p.Name, q.Name))
	}
	if !SameNumber(p.CategoryID, q.CategoryID) {
		diffs = append(diffs, fmt.Sprintf("categoryId %s, want %s", p.CategoryID, q.CategoryID))
	}
	if (p.Status == nil) != (q.Status == nil) || p.StatusValue() != q.StatusValue() {
		diffs = append(diffs, fmt.Sprintf("status %s, want %s", QuoteOrNone(p.Status), QuoteOrNone(q.Status)))
	}
	return len(diffs) == 0, strings.Join(diffs, "; ")
}

// QuoteOrNone writes a status for messages: quoted, or "none" for nil.
func QuoteOrNone(s *string) string {
	if s == nil {
		return "none"
	}
	return strconv.Quote(*s)
}

// Pets decodes the body of x as Pets. The schema has been checked, so a
// failure here means the document and the body disagree on something the
// schema does not say.
func (x *Exchange) Pets() ([]Pet, error) {
	var out []Pet
	return out, x.decode(&out)
}

// Pet decodes the body of x as a Pet.
func (x *Exchange) Pet() (Pet, error) {
	var out Pet
	return out, x.decode(&out)
}

// ErrorCode returns the code of the Error body of x.
func (x *Exchange) ErrorCode() (string, error) {
	var e struct {
		Code string `json:"code"`
	}
	return e.Code, x.decode(&e)
}

// decode decodes the body of x into v, numbers as sent. A body that does
// not decode breaks rule contract.response.
func (x *Exchange) decode(v any) error {
	dec := json.NewDecoder(bytes.NewReader(x.body))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return breaks(x, RuleContract, "decoding the body: "+err.Error())
	}
	return nil
}

// firstDuplicate returns the first id that appears twice in pets.
func firstDuplicate(pets []Pet) (int64, bool) {
	seen := make(map[int64]bool, len(pets))
	for _, p := range pets {
		id := p.IntID()
		if seen[id] {
			return id, true
		}
		seen[id] = true
	}
	return 0, false
}

// ExactInt returns the value of a JSON number if it is exactly an integer
// in the int64 range: 12, 1.0 and 1e2 are, 1.5 and 9.223372036854776e18
// (MaxInt64 rounded through a float64) are not.
func ExactInt(n json.Number) (int64, bool) {
	s := string(n)
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, true
	}
	// Refuse exponents that would make big.Rat compute a huge power.
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil || e > 400 || e < -400 {
			return 0, false
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || !r.IsInt() || !r.Num().IsInt64() {
		return 0, false
	}
	return r.Num().Int64(), true
}

// SameNumber reports whether two JSON numbers are the same integer.
func SameNumber(a, b json.Number) bool {
	x, okA := ExactInt(a)
	y, okB := ExactInt(b)
	return okA && okB && x == y
}
