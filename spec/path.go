package spec

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// PathTemplate is a path template of the document, such as
// "/pets/{petId}", parsed once. It matches and expands paths below the
// base path as the router of the request validation does (gorillamux,
// on the escaped path): {name} stands for one or more characters other
// than a slash, and {name:pattern}, which gorillamux also reads, for what
// the pattern matches.
type PathTemplate struct {
	text     string
	segments []Segment
	params   []string       // in order of appearance, each once
	simple   bool           // every segment is a literal or one whole parameter
	pattern  *regexp.Regexp // of the whole template, for one that is not simple
	names    []string       // of the groups of pattern, in order
}

// SegmentKind is what a segment of a path template holds.
type SegmentKind int

// Kinds of segments.
const (
	SegmentLiteral SegmentKind = iota // text only, such as "pets"
	SegmentParam                      // one whole parameter, such as "{petId}"
	SegmentMixed                      // anything else, such as "{name}.{ext}" or "{id:[0-9]+}"
)

// Segment is one segment of a path template, between two slashes.
type Segment struct {
	Kind SegmentKind
	// Text is the segment as written, such as "pets" or "{petId}".
	Text string
	// Param is the name of the parameter of a SegmentParam; "" otherwise.
	Param string
}

// ParsePath parses a path template of the document. It fails where the
// router of the request validation would: unbalanced braces, a parameter
// without a name or with an empty pattern, a pattern that does not
// compile or that has a capturing group of its own.
func ParsePath(text string) (*PathTemplate, error) {
	if !strings.HasPrefix(text, "/") {
		return nil, fmt.Errorf("%s: a path must begin with /", text)
	}
	t := &PathTemplate{text: text, simple: true}
	var re strings.Builder
	re.WriteString("^")
	for _, seg := range splitSegments(text[1:]) {
		s, err := t.segment(seg, &re)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", text, err)
		}
		t.segments = append(t.segments, s)
		if s.Kind == SegmentMixed {
			t.simple = false
		}
	}
	if !t.simple {
		re.WriteString("$")
		var err error
		if t.pattern, err = regexp.Compile(re.String()); err != nil {
			return nil, fmt.Errorf("%s: %w", text, err)
		}
		if t.pattern.NumSubexp() != len(t.names) {
			return nil, fmt.Errorf("%s: a parameter's pattern has a capturing group; write (?:...) instead", text)
		}
	}
	return t, nil
}

// splitSegments splits a template at the slashes outside braces: a
// parameter's pattern may hold one.
func splitSegments(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			depth--
		case '/':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// segment reads one segment, appending its regular expression to re.
func (t *PathTemplate) segment(text string, re *strings.Builder) (Segment, error) {
	re.WriteString("/")
	s := Segment{Kind: SegmentLiteral, Text: text}
	for rest := text; rest != ""; {
		open := strings.IndexAny(rest, "{}")
		if open < 0 {
			re.WriteString(regexp.QuoteMeta(rest))
			break
		}
		end := closingBrace(rest, open)
		if rest[open] == '}' || end < 0 {
			return Segment{}, fmt.Errorf("%s: unbalanced braces", text)
		}
		re.WriteString(regexp.QuoteMeta(rest[:open]))
		name, pattern, custom := strings.Cut(rest[open+1:end], ":")
		if name == "" || (custom && pattern == "") {
			return Segment{}, fmt.Errorf("%s: a parameter needs a name, and a pattern after a colon", text)
		}
		if !custom {
			pattern = "[^/]+"
		}
		re.WriteString("(?P<v" + strconv.Itoa(len(t.names)) + ">" + pattern + ")")
		t.names = append(t.names, name)
		if !slices.Contains(t.params, name) {
			t.params = append(t.params, name)
		}
		s.Kind = SegmentMixed
		if len(rest) == len(text) && open == 0 && end == len(text)-1 && !custom {
			s.Kind, s.Param = SegmentParam, name
		}
		rest = rest[end+1:]
	}
	return s, nil
}

// closingBrace returns the index of the brace that closes the one at
// open, nested braces counted, or -1.
func closingBrace(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// String returns the template as written.
func (t *PathTemplate) String() string { return t.text }

// Segments returns the segments of the template.
func (t *PathTemplate) Segments() []Segment { return slices.Clone(t.segments) }

// Params returns the names of the parameters of the template, in order,
// each once.
func (t *PathTemplate) Params() []string { return slices.Clone(t.params) }

// Simple reports whether every segment is a literal or one whole
// parameter, which a router can match segment by segment.
func (t *PathTemplate) Simple() bool { return t.simple }

// Literals returns the segments of the template that are text only and
// not empty, such as ["store", "orders"] of /store/orders/{orderId}: the
// words a resource is named after.
func (t *PathTemplate) Literals() []string {
	var out []string
	for _, s := range t.segments {
		if s.Kind == SegmentLiteral && s.Text != "" {
			out = append(out, s.Text)
		}
	}
	return out
}

// Match matches path, escaped as on the wire and below the base path,
// such as "/pets/12", and returns the values of the parameters, escaped
// as they are in path, as the router of the request validation gives
// them. Where a parameter appears twice, the last value wins, as there.
func (t *PathTemplate) Match(path string) (map[string]string, bool) {
	if !t.simple {
		return t.matchPattern(path)
	}
	rest, ok := strings.CutPrefix(path, "/")
	if !ok || !t.matchSegments(rest) {
		return nil, false
	}
	if len(t.params) == 0 {
		return map[string]string{}, true
	}
	values := make(map[string]string, len(t.params))
	i := 0
	for seg := range strings.SplitSeq(rest, "/") {
		if s := &t.segments[i]; s.Kind == SegmentParam {
			values[s.Param] = seg
		}
		i++
	}
	return values, true
}

// matchSegments reports whether rest, a path without its first slash,
// matches the segments of a simple template, with no allocation.
func (t *PathTemplate) matchSegments(rest string) bool {
	i := 0
	for seg := range strings.SplitSeq(rest, "/") {
		if i == len(t.segments) {
			return false
		}
		switch s := &t.segments[i]; s.Kind {
		case SegmentParam:
			if seg == "" {
				return false
			}
		default:
			if seg != s.Text {
				return false
			}
		}
		i++
	}
	return i == len(t.segments)
}

func (t *PathTemplate) matchPattern(path string) (map[string]string, bool) {
	m := t.pattern.FindStringSubmatch(path)
	if m == nil {
		return nil, false
	}
	values := make(map[string]string, len(t.params))
	for i, name := range t.names {
		values[name] = m[i+1]
	}
	return values, true
}

// Expand fills the parameters of the template with values, each escaped
// for a path segment: a request's path below the base path. A parameter
// without a value is left empty.
func (t *PathTemplate) Expand(values map[string]string) string {
	return t.expand(values, url.PathEscape)
}

// ExpandRaw fills the parameters of the template with values as they are,
// such as those Match returns, already escaped.
func (t *PathTemplate) ExpandRaw(values map[string]string) string {
	return t.expand(values, func(s string) string { return s })
}

func (t *PathTemplate) expand(values map[string]string, escape func(string) string) string {
	if len(t.names) == 0 {
		return t.text
	}
	var b strings.Builder
	rest := t.text
	for {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			b.WriteString(rest)
			return b.String()
		}
		end := closingBrace(rest, open)
		b.WriteString(rest[:open])
		name, _, _ := strings.Cut(rest[open+1:end], ":")
		b.WriteString(escape(values[name]))
		rest = rest[end+1:]
	}
}

// ItemOf reports whether t is the item path of the collection c: the
// segments of c, then one whole parameter, such as /pets/{petId} of
// /pets. It returns the name of that parameter.
func (t *PathTemplate) ItemOf(c *PathTemplate) (string, bool) {
	path, param, ok := t.collection()
	if !ok || path != c.text {
		return "", false
	}
	return param, true
}

// collection returns the path of the collection t is the item path of,
// and the name of its parameter: /pets and petId of /pets/{petId}. ok is
// false when t is no item path of any collection. A contract finds the
// item path of each of its collections with it in one pass, where asking
// ItemOf of every pair of paths took minutes for 60,000 paths.
func (t *PathTemplate) collection() (path, param string, ok bool) {
	n := len(t.segments) - 1
	if n < 1 || t.segments[n].Kind != SegmentParam {
		return "", "", false
	}
	return t.text[:len(t.text)-len(t.segments[n].Text)-1], t.segments[n].Param, true
}
