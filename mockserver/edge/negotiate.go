package edge

import (
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/petstore/contract/spec"
)

// An answer is sent in the media type the request's Accept prefers among
// those the operation documents for it (RFC 9110, section 12.5.1): the
// ranges of Accept, with their q-values and wildcards, are matched against
// each media type the response documents, the most specific range giving
// its q, and the type of the highest q wins, the document's first by
// petmock's preference (JSON, then text, then the others) among equals.
// An Accept that takes none of them is answered 406, with the types it
// could have asked for. A request without Accept takes petmock's choice.
//
// Clients of JSON APIs send Accept: application/json to a document that
// names its JSON application/vnd.github+json or application/problem+json:
// application/json takes any JSON type, after the types it names exactly.

// acceptRange is one media range of an Accept header.
type acceptRange struct {
	typ, sub string // lower case; "*" for a wildcard
	params   map[string]string
	q        float64
}

// parseAccept reads the media ranges of Accept headers; ok is false for
// one that does not read, which is then taken as absent, as RFC 9110
// allows a server to.
func parseAccept(values []string) ([]acceptRange, bool) {
	var out []acceptRange
	for _, v := range values {
		for _, item := range strings.Split(v, ",") {
			item = strings.TrimSpace(item)
			if item == "" {
				continue
			}
			mt, params, err := mime.ParseMediaType(item)
			if err != nil {
				return nil, false
			}
			typ, sub, found := strings.Cut(mt, "/")
			if !found || typ == "*" && sub != "*" {
				return nil, false
			}
			q := 1.0
			if text, ok := params["q"]; ok {
				if q, err = strconv.ParseFloat(text, 64); err != nil || q < 0 || q > 1 {
					return nil, false
				}
				delete(params, "q")
			}
			out = append(out, acceptRange{typ: typ, sub: sub, params: params, q: q})
		}
	}
	return out, len(out) > 0
}

// quality returns the q Accept gives the media type name, by its most
// specific range, and that range's specificity: 0 for none.
func quality(ranges []acceptRange, name string) (float64, int) {
	mt, params, err := mime.ParseMediaType(name)
	if err != nil {
		return 0, 0
	}
	typ, sub, _ := strings.Cut(mt, "/")
	best, q := 0, 0.0
	for _, r := range ranges {
		spec := 0
		switch {
		case r.typ == "*" && r.sub == "*":
			spec = 1
		case r.typ == typ && r.sub == "*":
			spec = 2
		case r.typ == typ && r.sub == sub:
			spec = 3
			for k, v := range r.params {
				if !strings.EqualFold(params[k], v) {
					spec = 0
					break
				}
			}
			if spec > 0 && len(r.params) > 0 {
				spec = 4
			}
		}
		if spec > best {
			best, q = spec, r.q
		}
	}
	return q, best
}

// Negotiate returns the media type of offered, the names of the media
// types an answer may have as the document writes them, in petmock's order
// of preference, that the Accept headers prefer; the first of offered
// where they take any or are absent. ok is false where they take none.
func Negotiate(accept []string, offered []string) (string, bool) {
	if len(offered) == 0 {
		return "", true
	}
	ranges, ok := parseAccept(accept)
	if !ok {
		return offered[0], true
	}
	chosen, bestQ := "", 0.0
	for _, name := range offered {
		if q, specific := quality(ranges, name); specific > 0 && q > bestQ {
			chosen, bestQ = name, q
		}
	}
	if chosen != "" {
		return chosen, true
	}
	for _, name := range offered {
		// application/json takes any JSON type, where no range names one.
		if spec.IsJSON(name) {
			if q, _ := quality(ranges, "application/json"); q > 0 {
				return name, true
			}
		}
		// A document that answers */* may answer any type a client
		// takes; petmock answers it in JSON.
		if mt, _, _ := mime.ParseMediaType(name); mt == "*/*" {
			return name, true
		}
	}
	return "", false
}

// NotAcceptable is the 406 of an Accept that takes none of the media types
// offered.
func NotAcceptable(accept string, offered []string) *Error {
	return NewError(http.StatusNotAcceptable, "accept", "%s takes none of the media types of this answer: %s", accept, strings.Join(offered, ", "))
}

// Offered returns the media types of the answer op documents for status,
// in petmock's order of preference: the one spec picks for a made answer
// first, then JSON types, text and the others, each by name.
func (op *Operation) Offered(status int) []string {
	resp := op.Spec.Response(status)
	if resp == nil || len(resp.Content) == 0 {
		return nil
	}
	names := make([]string, 0, len(resp.Content))
	for name := range resp.Content {
		names = append(names, name)
	}
	rank := func(name string) int {
		switch {
		case spec.IsJSON(name):
			return 0
		case strings.HasPrefix(name, "text/"):
			return 2
		case name == "*/*" || strings.HasSuffix(name, "/*"):
			return 3
		}
		return 1
	}
	slices.SortFunc(names, func(a, b string) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	if first := spec.AnswerMediaKey(resp.Content); first != "" {
		if i := slices.Index(names, first); i > 0 {
			names = slices.Insert(slices.Delete(names, i, i+1), 0, first)
		}
	}
	if op.Spec.Resource != nil && op.Spec.Role != spec.RoleOther {
		// A resource's items are JSON, answered in another JSON type or
		// as XML where a request asks (answer.InMedia), not as others.
		names = slices.DeleteFunc(names, func(name string) bool {
			_, kind := spec.MediaOf(name)
			return kind != spec.AnswerJSON && !spec.IsXML(name)
		})
	}
	if len(names) == 0 {
		// None left, as of PhantAuth's users created and answered as
		// text/plain alone: nil, as of an answer without content, where
		// the empty list made Check take the first of none and panic.
		return nil
	}
	return names
}
