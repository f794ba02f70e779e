package steer

import (
	"strconv"
	"strings"
	"time"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/spec"
)

// MaxDelay is the longest delay a client may ask for with Prefer: delay=.
const MaxDelay = 30 * time.Second

// Preferences are what a client asked for in its Prefer headers (RFC
// 7240), in Prism's syntax: "Prefer: code=404, delay=800, example=missing".
type Preferences struct {
	Code     int           // force this status; 0 for none
	delay    time.Duration // delay the answer; set only if hasDelay
	hasDelay bool
	Now      time.Time // the time to act at; zero for the server's clock
	Example  string    // the name of an example of the document to answer; "" for none
	Applied  []string  // the preferences to report in Preference-Applied
}

// ParsePrefer reads the Prefer header values. Preferences petmock does
// not know are ignored, as RFC 7240 asks; a known one with a bad value is
// an error, so that a typo does not go unnoticed.
func ParsePrefer(values []string) (Preferences, *edge.Error) {
	var p Preferences
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			// Parameters after ";" qualify a preference; petmock has none.
			item, _, _ = strings.Cut(item, ";")
			name, value, _ := strings.Cut(strings.TrimSpace(item), "=")
			name = strings.ToLower(strings.TrimSpace(name))
			value = strings.Trim(strings.TrimSpace(value), `"`)
			switch name {
			case "code":
				code, err := strconv.Atoi(value)
				if err != nil || code < 100 || code > 599 {
					return p, edge.BadRequest("prefer", "code=%s: want an HTTP status such as code=404", value)
				}
				p.Code = code
			case "delay":
				ms, err := strconv.Atoi(value)
				if err != nil || ms < 0 || time.Duration(ms)*time.Millisecond > MaxDelay {
					return p, edge.BadRequest("prefer", "delay=%s: want milliseconds from 0 to %d", value, MaxDelay.Milliseconds())
				}
				p.delay, p.hasDelay = time.Duration(ms)*time.Millisecond, true
			case "now":
				t, err := ParseInstant(value)
				if err != nil {
					return p, edge.BadRequest("prefer", "now=%s: want a date such as 2031-01-01 or a time such as 2031-01-01T12:00:00Z", value)
				}
				p.Now = t
				p.Applied = append(p.Applied, "now="+value)
			case "example":
				if value == "" {
					return p, edge.BadRequest("prefer", "example=: want the name of an example of the document, such as example=empty")
				}
				p.Example = value
			}
		}
	}
	return p, nil
}

// ParseInstant reads a date (2031-01-01, midnight UTC) or an RFC 3339
// time, as Prefer: now= and petmock --now take them.
func ParseInstant(s string) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	return time.Parse(time.RFC3339, s)
}

// forcedByPrefer returns the answer that Prefer: code=N forces for op, and
// whether it applied the preference. A success status the operation
// documents forces nothing: the request is answered as usual. A code the
// operation does not document is refused with a 400 that lists those it
// does.
func forcedByPrefer(op *spec.Operation, code int) (*edge.Error, bool) {
	switch {
	case !Forceable(op, code):
		return edge.BadRequest("prefer", "code=%d is not documented for %s; use one of %s, or 500 or 503 to rehearse an outage",
			code, op.ID, edge.StatusList(op.Statuses)), false
	case code >= 200 && code < 300:
		return nil, false // documented, since it is forceable and no outage
	}
	return forcedAnswer(op, code, "prefer", "answer forced by Prefer: code=%d", code), true
}
