package edge

import (
	"net/url"
	"strings"
)

// ParseQuery reads a raw query as petmock reads every query: name=value
// pairs joined by &, each percent-encoded.
//
// url.ParseQuery drops a pair it cannot read and reads on, so that
// ?limit=1; is read as no limit at all and ?status=sold;x=1 as no filter:
// an answer to a question the client did not ask. parseQuery refuses such
// a query instead, naming the parameter, so that no parameter is ever
// silently lost.
func ParseQuery(raw string) (url.Values, *Error) {
	q := url.Values{}
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if pair == "" {
			continue
		}
		name, value, _ := strings.Cut(pair, "=")
		if strings.IndexByte(pair, ';') >= 0 {
			return nil, BadRequest(queryField(name), "the query holds a ';', which petmock does not take as a separator; use &")
		}
		n, err := url.QueryUnescape(name)
		if err != nil {
			return nil, BadRequest("query", "a parameter name is not valid percent-encoding")
		}
		v, err := url.QueryUnescape(value)
		if err != nil {
			return nil, BadRequest(queryField(name), "is not valid percent-encoding")
		}
		q[n] = append(q[n], v)
	}
	return q, nil
}

// queryField names the parameter of a pair that could not be read, from
// its raw name: up to a ';', decoded if it can be, or "query" when nothing
// is left of it.
func queryField(raw string) string {
	raw, _, _ = strings.Cut(raw, ";")
	if n, err := url.QueryUnescape(raw); err == nil {
		raw = n
	}
	if raw == "" {
		return "query"
	}
	return raw
}
