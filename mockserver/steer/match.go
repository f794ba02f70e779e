package steer

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/petstore/contract/mockserver/edge"
)

// What an expectation matches on, beyond the method and the path: a query
// parameter, a header or a cookie that equals a value, contains a text,
// matches a regular expression, or is absent, as WireMock's matchers say
// it; and the body, as its text or by a JSON path. Each is checked against
// the document when the expectation is set: a matcher that no request the
// document allows could meet, such as a declared parameter's value its
// schema refuses, or absent for a parameter it requires, is refused rather
// than set.

// Match says what one value of a request must be: exactly one of Equals,
// Contains, Matches (a regular expression, RE2's syntax) or Absent. As
// JSON, a string stands for Equals: "sold" is {"equals": "sold"}.
type Match struct {
	Equals   *string `json:"equals,omitempty"`
	Contains string  `json:"contains,omitempty"`
	Matches  string  `json:"matches,omitempty"`
	Absent   bool    `json:"absent,omitempty"`
}

// Equal returns the Match of a value that must equal v.
func Equal(v string) Match { return Match{Equals: &v} }

// UnmarshalJSON reads a Match, or a string that it must equal.
func (m *Match) UnmarshalJSON(data []byte) error {
	v, e := parseMatch("match", data)
	if e != nil {
		return e
	}
	*m = v
	return nil
}

// parseMatch reads a Match, or a string that it must equal, for the field
// named field, and says what is wrong with one it cannot read.
func parseMatch(field string, data []byte) (Match, *edge.Error) {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return Match{}, edge.BadRequest(field, "malformed JSON: %v", err)
		}
		return Equal(s), nil
	}
	var members map[string]json.RawMessage
	if len(data) == 0 || data[0] != '{' || json.Unmarshal(data, &members) != nil {
		return Match{}, edge.BadRequest(field, "must be a string, the value to equal, or a matcher: an object of one of equals, contains, matches or absent")
	}
	var m Match
	for _, name := range slices.Sorted(maps.Keys(members)) {
		raw := members[name]
		var err error
		switch name {
		case "equals":
			var s string
			err = json.Unmarshal(raw, &s)
			m.Equals = &s
		case "contains":
			err = json.Unmarshal(raw, &m.Contains)
		case "matches":
			err = json.Unmarshal(raw, &m.Matches)
		case "absent":
			if err = json.Unmarshal(raw, &m.Absent); err == nil && !m.Absent {
				return Match{}, edge.BadRequest(field+".absent", "must be true; leave it out for a value that is there")
			}
			if err != nil {
				return Match{}, edge.BadRequest(field+".absent", "must be a boolean")
			}
		default:
			return Match{}, edge.BadRequest(field+"."+name, "is not a member; the members are absent, contains, equals, matches")
		}
		if err != nil {
			return Match{}, edge.BadRequest(field+"."+name, "must be a string")
		}
	}
	return m, nil
}

// MarshalJSON writes a Match that is only Equals as the string it equals,
// as an expectation of an earlier petmock wrote it.
func (m Match) MarshalJSON() ([]byte, error) {
	if m.Equals != nil && m.Contains == "" && m.Matches == "" && !m.Absent {
		return json.Marshal(*m.Equals)
	}
	type plain Match
	return json.Marshal(plain(m))
}

// given reports how many of its kinds m gives.
func (m Match) given() int {
	n := 0
	for _, set := range []bool{m.Equals != nil, m.Contains != "", m.Matches != "", m.Absent} {
		if set {
			n++
		}
	}
	return n
}

// present reports whether a value m matches must be there.
func (m Match) present() bool { return !m.Absent }

// valueMatch is a Match compiled.
type valueMatch struct {
	Match
	re *regexp.Regexp
}

// compileMatch checks m, for the field named field, and compiles it.
func compileMatch(field string, m Match) (valueMatch, *edge.Error) {
	switch m.given() {
	case 0:
		return valueMatch{}, edge.BadRequest(field, "says nothing: give one of equals, contains, matches or absent")
	case 1:
	default:
		return valueMatch{}, edge.BadRequest(field, "give one of equals, contains, matches or absent, not several")
	}
	vm := valueMatch{Match: m}
	if m.Matches != "" {
		re, err := regexp.Compile(m.Matches)
		if err != nil {
			return valueMatch{}, edge.BadRequest(field+".matches", "%s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
		}
		vm.re = re
	}
	return vm, nil
}

// holds reports whether a value, there or not, meets m.
func (m *valueMatch) holds(v string, there bool) bool {
	switch {
	case m.Absent:
		return !there
	case !there:
		return false
	case m.Equals != nil:
		return v == *m.Equals
	case m.Contains != "":
		return strings.Contains(v, m.Contains)
	}
	return m.re.MatchString(v)
}

// namedMatch is the compiled Match of one value of a request, by its
// name.
type namedMatch struct {
	name string
	valueMatch
}

// compileNamed compiles the matches of a map, in the order of their
// names, each checked by check (which may be nil) too.
func compileNamed(field string, all map[string]Match, check func(field, name string, m Match) *edge.Error) ([]namedMatch, *edge.Error) {
	var out []namedMatch
	for _, name := range slices.Sorted(maps.Keys(all)) {
		f := field + "." + name
		vm, e := compileMatch(f, all[name])
		if e != nil {
			return nil, e
		}
		if check != nil {
			if e := check(f, name, all[name]); e != nil {
				return nil, e
			}
		}
		out = append(out, namedMatch{name: name, valueMatch: vm})
	}
	return out, nil
}

// BodyMatch says what a request's body must hold: with JSONPath, the
// values it selects of the JSON body, such as $.name or $.tags[*].name;
// without, the body's text. Exactly one of Equals, Contains, Matches,
// Absent and EqualsJSON is given. Of a JSON path, Absent holds when it
// selects nothing, and the others when one value it selects meets them: a
// string as its text, any other value as its JSON, such as 2 or
// {"a":1}. Without one, Absent holds for a request without a body, and
// EqualsJSON compares the whole body as JSON.
type BodyMatch struct {
	JSONPath   string          `json:"jsonPath,omitempty"`
	Equals     *string         `json:"equals,omitempty"`
	Contains   string          `json:"contains,omitempty"`
	Matches    string          `json:"matches,omitempty"`
	Absent     bool            `json:"absent,omitempty"`
	EqualsJSON json.RawMessage `json:"equalsJson,omitempty"`
}

// bodyMatcher is a BodyMatch compiled.
type bodyMatcher struct {
	path *jsonPath // nil for the body's text
	text valueMatch
	// json is the value of EqualsJSON, decoded with json.Number; isJSON
	// says it was given.
	json   any
	isJSON bool
}

// compileBodyMatch checks m, for the field named field, against op, and
// compiles it.
func compileBodyMatch(field string, op *edge.Operation, m BodyMatch) (bodyMatcher, *edge.Error) {
	if op.Spec.Op.RequestBody == nil {
		return bodyMatcher{}, edge.BadRequest(field, "%s takes no body", op.Spec.ID)
	}
	bm := bodyMatcher{isJSON: m.EqualsJSON != nil}
	text := Match{Equals: m.Equals, Contains: m.Contains, Matches: m.Matches, Absent: m.Absent}
	switch n := text.given(); {
	case n == 0 && !bm.isJSON:
		return bodyMatcher{}, edge.BadRequest(field, "says nothing: give one of equals, contains, matches, absent or equalsJson")
	case n+btoi(bm.isJSON) > 1:
		return bodyMatcher{}, edge.BadRequest(field, "give one of equals, contains, matches, absent or equalsJson, not several")
	case n == 1:
		var e *edge.Error
		if bm.text, e = compileMatch(field, text); e != nil {
			return bodyMatcher{}, e
		}
	default:
		v, e := decodeJSONValue(field+".equalsJson", m.EqualsJSON)
		if e != nil {
			return bodyMatcher{}, e
		}
		bm.json = v
	}
	if m.JSONPath != "" {
		schema := op.Spec.RequestSchema()
		if schema == nil {
			return bodyMatcher{}, edge.BadRequest(field+".jsonPath", "%s takes no JSON body", op.Spec.ID)
		}
		p, err := parseJSONPath(m.JSONPath)
		if err != nil {
			return bodyMatcher{}, edge.BadRequest(field+".jsonPath", "%s: %v", m.JSONPath, err)
		}
		if where := p.impossible(schema); where != "" {
			return bodyMatcher{}, edge.BadRequest(field+".jsonPath", "%s can select nothing in the body of %s: %s", m.JSONPath, op.Spec.ID, where)
		}
		bm.path = p
	}
	return bm, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// decodeJSONValue decodes one JSON value, with its numbers as
// json.Number, or says why it cannot.
func decodeJSONValue(field string, raw json.RawMessage) (any, *edge.Error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, edge.BadRequest(field, "malformed JSON: %v", err)
	}
	if dec.More() {
		return nil, edge.BadRequest(field, "malformed JSON: data after the JSON value")
	}
	return v, nil
}

// holds reports whether a request body, as its text and decoded (nil
// for none that is JSON), meets m.
func (m *bodyMatcher) holds(text []byte, decoded any) bool {
	if m.path == nil {
		switch {
		case m.isJSON:
			return decoded != nil && equalJSON(decoded, m.json)
		case m.text.Absent:
			return len(text) == 0
		}
		return len(text) > 0 && m.text.holds(string(text), true)
	}
	if decoded == nil {
		return m.text.Absent
	}
	selected := m.path.selectIn(decoded)
	if m.text.Absent {
		return len(selected) == 0
	}
	for _, v := range selected {
		if m.isJSON && equalJSON(v, m.json) || !m.isJSON && m.text.holds(jsonText(v), true) {
			return true
		}
	}
	return false
}

// jsonText is a value of a JSON body as a matcher compares it: a string
// as itself, any other value as its JSON.
func jsonText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// cookieValue returns the value of the cookie of name that r sends, and
// whether it sends one.
func cookieValue(r *http.Request, name string) (string, bool) {
	c, err := r.Cookie(name)
	if err != nil {
		return "", false
	}
	return c.Value, true
}

// headerMatches reports whether one of the values r sends of the header
// name meets m, or, for absent, whether it sends none.
func headerMatches(r *http.Request, m *namedMatch) bool {
	values := r.Header.Values(m.name)
	if len(values) == 0 {
		return m.holds("", false)
	}
	return slices.ContainsFunc(values, func(v string) bool { return m.holds(v, true) })
}

// checkHeaderName checks that a header's name is a token of HTTP.
func checkHeaderName(field, name string) *edge.Error {
	if name == "" || strings.ContainsFunc(name, func(r rune) bool {
		return r <= ' ' || r >= 0x7f || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r)
	}) {
		return edge.BadRequest(field, "%q is not a name of a header", name)
	}
	return nil
}
