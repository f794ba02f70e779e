package spec

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// A pattern is an ECMA-262 regular expression, and Go's regexp, which
// kin-openapi compiles it with, runs no look-ahead, look-behind or back
// reference: kin-openapi refuses a document of one (AWS's look-ahead in
// EMR on EKS, Open Banking's x-idempotency-key), and would refuse every
// value of it. Such a pattern is valid, but petmock cannot hold values to
// it: it is left out, with a note that says so, strict or not, and values
// are held to the rest of their schema.

// patterns leaves out the pattern of s where Go's regexp cannot compile
// it, with a note.
func (r *repairs) patterns(at func() string, s *openapi3.Schema) {
	if s.Pattern == "" {
		return
	}
	if inner, ok := regexLiteral(s.Pattern); ok {
		r.notes = append(r.notes, fmt.Sprintf("%s: pattern %s is written as a JavaScript regular expression literal, between slashes; read as %s",
			r.place(at()+".pattern"), quotePattern(s.Pattern), quotePattern(inner)))
		s.Pattern = inner
	}
	if _, err := regexp.Compile(s.Pattern); err == nil {
		return
	}
	// ECMA-262 writes a code point \u2028, Go \x{2028}.
	if written := unicodeEscape.ReplaceAllString(s.Pattern, `\x{$1}`); written != s.Pattern {
		if _, err := regexp.Compile(written); err == nil {
			s.Pattern = written
			return
		}
	}
	pattern := s.Pattern
	s.Pattern = ""
	r.notes = append(r.notes, fmt.Sprintf("%s: pattern %s %s, which Go's regular expressions cannot run; values are not held to it",
		r.place(at()+".pattern"), quotePattern(pattern), patternFeature(pattern)))
}

// regexLiteral returns the expression of pattern where pattern is written
// as a JavaScript regular expression literal, as PeerTube's
// "/^[a-z0-9._]+$/" and Sinao's "/^[0-9]{5}$/i" are: between slashes,
// anchored within them or with flags after them, of which i is read as
// Go's (?i). Taken as written, such a pattern asks for a slash before the
// start of the text, and no value matches it.
func regexLiteral(pattern string) (string, bool) {
	m := jsLiteral.FindStringSubmatch(pattern)
	if m == nil {
		return "", false
	}
	inner, flags := m[1]+m[3], m[2]+m[4]
	if strings.Contains(flags, "i") {
		inner = "(?i)" + inner
	}
	if _, err := regexp.Compile(inner); err != nil {
		return "", false
	}
	return inner, true
}

// jsLiteral is a JavaScript regular expression literal anchored at its
// start or end, or with flags, as PeerTube's "/magnet:\?xt=urn:.../i".
var jsLiteral = regexp.MustCompile(`^/(\^.*|.*\$)/([dgimsuy]*)$|^/(.+)/([dgimsuy]+)$`)

// unicodeEscape is a code point escaped as ECMA-262 writes it.
var unicodeEscape = regexp.MustCompile(`\\u([0-9A-Fa-f]{4})`)

// patternFeature names what of pattern Go's regexp does not run.
func patternFeature(pattern string) string {
	switch {
	case strings.Contains(pattern, "(?=") || strings.Contains(pattern, "(?!"):
		return "looks ahead"
	case strings.Contains(pattern, "(?<=") || strings.Contains(pattern, "(?<!"):
		return "looks behind"
	case regexp.MustCompile(`\\[1-9]`).MatchString(pattern):
		return "refers back to a group"
	}
	return "is written in a syntax of its own"
}

// quotePattern quotes pattern for a note, cut short where it is long.
func quotePattern(pattern string) string {
	const most = 60
	if len(pattern) > most {
		pattern = pattern[:most] + "…"
	}
	return fmt.Sprintf("%q", pattern)
}
