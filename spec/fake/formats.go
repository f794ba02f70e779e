package fake

import (
	"net/mail"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/getkin/kin-openapi/openapi3"
)

// The validator petmock checks answers with leaves most string formats
// unchecked, as OpenAPI lets it; other validators, Prism's among them,
// check them. A document's example of the wrong format (Train Travel's
// trip_id of uuid, 4f4e4e1-c824-…, one hex digit short) would then be
// answered in every item, and fail a client that checks formats. A value
// made for a format is always of it; an example is taken only where it is.

var uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// ofFormats reports whether every string of v, an example of s, at any
// depth, is of the format its schema gives it: Codat's example of an
// object of links holds an href that is no uri-reference.
func ofFormats(s *openapi3.Schema, v any, depth int) bool {
	if s == nil || depth > 16 {
		return true
	}
	for _, m := range s.AllOf {
		if m != nil && !ofFormats(m.Value, v, depth+1) {
			return false
		}
	}
	switch v := v.(type) {
	case string:
		return ofFormat(s, v)
	case map[string]any:
		for name, member := range v {
			if p := s.Properties[name]; p != nil && !ofFormats(p.Value, member, depth+1) {
				return false
			}
		}
	case []any:
		if s.Items != nil {
			for _, item := range v {
				if !ofFormats(s.Items.Value, item, depth+1) {
					return false
				}
			}
		}
	}
	return true
}

// ofFormat reports whether v, an example of s, is a value of s's format,
// for the formats a Generator makes values of exactly and whose reading
// is not in doubt; any other value, or format, is.
func ofFormat(s *openapi3.Schema, v any) bool {
	text, ok := v.(string)
	if !ok || s == nil {
		return true
	}
	switch s.Format {
	case "uuid":
		return uuidPattern.MatchString(text)
	case "date-time":
		_, err := time.Parse(time.RFC3339, text)
		return err == nil
	case "date":
		_, err := time.Parse(time.DateOnly, text)
		return err == nil
	case "email":
		_, err := mail.ParseAddress(text)
		return err == nil
	case "ipv4":
		a, err := netip.ParseAddr(text)
		return err == nil && a.Is4()
	case "ipv6":
		a, err := netip.ParseAddr(text)
		return err == nil && a.Is6()
	case "uri", "url", "uri-reference":
		// RFC 3986 has no place for these characters, which url.Parse
		// lets by: Codat's example of a link, /companies/{id}/data, is a
		// template, not a reference.
		if strings.ContainsAny(text, " \"<>\\^`{|}") || strings.ContainsFunc(text, unicode.IsControl) {
			return false
		}
		u, err := url.Parse(text)
		return err == nil && (s.Format == "uri-reference" || u.IsAbs())
	}
	return true
}
