package check

import (
	"net/http"
	"strings"
)

// link is one link-value of a Link header (RFC 8288).
type link struct {
	target string
	rels   []string // lowercased
}

// parseLinks parses Link header values: comma-separated link-values such
// as `<https://x/v1/pets?cursor=A>; rel="next"`. A link-value it cannot
// parse is left out.
func parseLinks(values []string) []link {
	var out []link
	for _, v := range values {
		for _, part := range splitOutside(v, ',') {
			part = strings.TrimSpace(part)
			if !strings.HasPrefix(part, "<") {
				continue
			}
			end := strings.IndexByte(part, '>')
			if end < 0 {
				continue
			}
			l := link{target: part[1:end]}
			for _, param := range splitOutside(part[end+1:], ';') {
				name, value, _ := strings.Cut(strings.TrimSpace(param), "=")
				if !strings.EqualFold(strings.TrimSpace(name), "rel") {
					continue
				}
				value = strings.Trim(strings.TrimSpace(value), `"`)
				for _, rel := range strings.Fields(value) {
					l.rels = append(l.rels, strings.ToLower(rel))
				}
			}
			out = append(out, l)
		}
	}
	return out
}

// splitOutside splits s at sep where sep is neither inside <...> nor
// inside a quoted string.
func splitOutside(s string, sep byte) []string {
	var parts []string
	inAngle, inQuote, start := false, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case inQuote && c == '\\':
			i++
		case c == '"' && !inAngle:
			inQuote = !inQuote
		case c == '<' && !inQuote:
			inAngle = true
		case c == '>' && !inQuote:
			inAngle = false
		case c == sep && !inAngle && !inQuote:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// linkTarget returns the target of the first link of h with relation rel,
// or "".
func linkTarget(h http.Header, rel string) string {
	for _, l := range parseLinks(h.Values("Link")) {
		for _, r := range l.rels {
			if r == rel {
				return l.target
			}
		}
	}
	return ""
}
