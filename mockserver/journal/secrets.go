package journal

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"unicode"

	"github.com/petstore/contract/spec"
)

// The journal shows the requests of the app under development and their
// answers, and a developer may share a screen or a copy of it. So, beside
// petmock's own keys (Redactor), it hides the app's secrets unless the
// journalSecrets setting shows them:
//
//   - by meaning: the credentials of every security scheme of the
//     document (the header, query parameter or cookie each names), the
//     parameters whose schema has format password, and the properties it
//     marks writeOnly or of format password, wherever a JSON member or a
//     form field of that name stands;
//   - by name: headers, query parameters, path parameters (;jsessionid=),
//     form fields and JSON members, at any depth, whose names say they
//     hold a secret (see secretName), in requests and answers alike;
//   - wherever else an exchange repeats a value hidden so, such as an
//     error message that quotes it.

// Secrets knows which names the document marks as secrets. A nil one
// knows no document, and finds secrets by their names alone.
type Secrets struct {
	// marked are the names, in lower case, of the schemes' credentials
	// and of the parameters and properties the document marks.
	marked map[string]bool
}

// NewSecrets reads which names c marks as secrets: where the credentials
// of its schemes travel, and the parameters and properties it marks
// writeOnly or of format password, in any schema of the document.
func NewSecrets(c *spec.Contract) *Secrets {
	s := &Secrets{marked: map[string]bool{}}
	if c.Doc == nil {
		return s
	}
	if c.Doc.Components != nil {
		for name := range c.Doc.Components.SecuritySchemes {
			if sc := c.Scheme(name); sc != nil {
				if _, param, _ := sc.Credential(""); param != "" {
					s.mark(param)
				}
			}
		}
	}
	markedBy(c.Doc, s.mark)
	return s
}

func (s *Secrets) mark(name string) { s.marked[strings.ToLower(name)] = true }

// isMarked reports whether the document marks a name as a secret.
func (s *Secrets) isMarked(name string) bool {
	if s == nil || len(s.marked) == 0 {
		return false
	}
	return s.marked[strings.ToLower(name)]
}

// header reports whether the header of the given name holds a secret.
func (s *Secrets) header(name string) bool { return s.isMarked(name) || secretName(name) }

// param reports whether the query parameter, path parameter or form field
// of the given name holds a secret.
func (s *Secrets) param(name string) bool {
	return s.isMarked(name) || secretName(name) || paramSecrets[strings.ToLower(name)]
}

// member reports whether the JSON member of the given name holds a secret.
func (s *Secrets) member(name string) bool { return s.isMarked(name) || secretName(name) }

// secretWords are the words of a name that say its value is a secret:
// keys, passwords and one-time codes, session ids as servlet containers,
// PHP and Express name them (JSESSIONID, PHPSESSID, connect.sid), and the
// codes of payment cards.
var secretWords = map[string]bool{
	"key": true, "auth": true, "oauth": true, "authorization": true, "authentication": true, "pwd": true, "passphrase": true,
	"cookie": true, "otp": true, "totp": true, "pin": true, "signature": true, "jwt": true, "bearer": true, "assertion": true,
	"passcode": true, "sid": true, "sessid": true, "jsessionid": true, "phpsessid": true, "aspsessionid": true,
	"cvv": true, "cvv2": true, "cvc": true, "cvc2": true, "csc": true,
}

// secretEnds end the words that name secrets: accessToken, clientSecret,
// userPassword, apiKey written as one word.
var secretEnds = []string{"token", "secret", "password", "passwd", "apikey", "accesskey", "privatekey", "secretkey", "signingkey", "sessionkey", "sessionid"}

// secretStarts begin them: sessionId, credentials, passwordHash.
var secretStarts = []string{"session", "credential", "passw"}

// secretWholes are names that hold a secret only as the whole name, such
// as the refresh token of a pair {"access": ..., "refresh": ...}, where
// one of their words, in another name, says nothing (refreshInterval).
var secretWholes = map[string]bool{"refresh": true}

// paramSecrets are the names of query parameters and form fields that
// hold a secret there, but not as a JSON member: OAuth's authorization
// code (?code=, and the code of a token request's form), where a JSON
// member named code is an error's code.
var paramSecrets = map[string]bool{"code": true}

// secretName reports whether a name of a header, a parameter or a JSON
// member says that its value is a secret: whether a word of it, split at
// every character that is no letter or digit and where a lower-case
// letter meets an upper-case one, says token, secret, password, passwd,
// session, key, auth, credential, a session id (sid, JSESSIONID), a
// passcode or a card's code (cvv), in any case (X-Auth-Token,
// X-CSRF-Token, session, accessToken, api_key, client_secret), or the
// whole name is refresh.
func secretName(name string) bool {
	ws := words(name)
	if secretWholes[strings.Join(ws, "")] {
		return true
	}
	for _, w := range ws {
		w = strings.TrimSuffix(w, "s")
		if secretWords[w] {
			return true
		}
		for _, end := range secretEnds {
			if strings.HasSuffix(w, end) {
				return true
			}
		}
		for _, start := range secretStarts {
			if strings.HasPrefix(w, start) {
				return true
			}
		}
	}
	return false
}

// words splits a name into its words, in lower case: "X-CSRF-Token" is
// x, csrf, token; "accessToken" is access, token; "APIKey" is api, key.
func words(name string) []string {
	var out []string
	rs := []rune(name)
	start := -1
	for i, r := range rs {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		if !alnum {
			if start >= 0 {
				out = append(out, strings.ToLower(string(rs[start:i])))
				start = -1
			}
			continue
		}
		if start >= 0 && unicode.IsUpper(r) {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				out = append(out, strings.ToLower(string(rs[start:i])))
				start = i
			}
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, strings.ToLower(string(rs[start:])))
	}
	return out
}

// hideHeader returns a copy of h with the values of its secret headers
// replaced by [Redacted], and adds those values to found.
func (s *Secrets) hideHeader(h http.Header, found *[]string) http.Header {
	out := make(http.Header, len(h))
	for name, values := range h {
		if !s.header(name) {
			out[name] = values
			continue
		}
		*found = append(*found, values...)
		out[name] = []string{Redacted}
	}
	return out
}

// hideParams returns a query or a form body with the values of its secret
// parameters replaced by [Redacted], and adds those values, decoded, to
// found.
func (s *Secrets) hideParams(q string, found *[]string) string {
	if q == "" {
		return q
	}
	parts := strings.Split(q, "&")
	changed := false
	for i, part := range parts {
		rawName, rawValue, hasValue := strings.Cut(part, "=")
		name, err := url.QueryUnescape(rawName)
		if err != nil {
			name = rawName
		}
		if !hasValue || !s.param(name) {
			continue
		}
		value, err := url.QueryUnescape(rawValue)
		if err != nil {
			value = rawValue
		}
		*found = append(*found, value, rawValue)
		parts[i] = rawName + "=" + Redacted
		changed = true
	}
	if !changed {
		return q
	}
	return strings.Join(parts, "&")
}

// hidePath returns a path with the values of its secret path parameters,
// those a segment carries after a semicolon (/cart;jsessionid=A1B2),
// replaced by [Redacted], and adds those values, decoded, to found.
func (s *Secrets) hidePath(path string, found *[]string) string {
	if !strings.Contains(path, ";") {
		return path
	}
	segments := strings.Split(path, "/")
	changed := false
	for i, seg := range segments {
		first, rest, ok := strings.Cut(seg, ";")
		if !ok {
			continue
		}
		params := strings.Split(rest, ";")
		for j, p := range params {
			name, value, hasValue := strings.Cut(p, "=")
			if !hasValue || !s.param(name) {
				continue
			}
			if v, err := url.PathUnescape(value); err == nil {
				*found = append(*found, v)
			}
			*found = append(*found, value)
			params[j] = name + "=" + Redacted
			changed = true
		}
		segments[i] = first + ";" + strings.Join(params, ";")
	}
	if !changed {
		return path
	}
	return strings.Join(segments, "/")
}

// hideBody returns a body with its secrets hidden, by its Content-Type:
// the members of JSON, or the fields of a form. A body may be cut short,
// as the journal keeps only its start.
func (s *Secrets) hideBody(b []byte, contentType string, found *[]string) []byte {
	mediaType, _, _ := strings.Cut(contentType, ";")
	mediaType = strings.ToLower(strings.TrimSpace(mediaType))
	switch {
	case mediaType == "application/x-www-form-urlencoded":
		return []byte(s.hideParams(string(b), found))
	case mediaType == "application/json", strings.HasSuffix(mediaType, "+json"), mediaType == "" && len(b) > 0:
		return hideJSONMembers(b, s.member, found)
	}
	return b
}

// hideJSONMembers returns the JSON text b with the value of every member
// whose name secret says is one, at any depth, replaced by "[Redacted]", and adds
// the values of those that were strings or numbers to found. b may be cut
// short, or no JSON at all: whatever cannot be read is left as it is,
// but for a secret's value, which is hidden up to the end.
func hideJSONMembers(b []byte, secret func(string) bool, found *[]string) []byte {
	out := make([]byte, 0, len(b))
	var stack []byte // the open objects and arrays
	expectName := false
	for i := 0; i < len(b); {
		switch c := b[i]; c {
		case '{', '[':
			stack = append(stack, c)
			expectName = c == '{'
			out = append(out, c)
			i++
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			expectName = false
			out = append(out, c)
			i++
		case ',':
			expectName = len(stack) > 0 && stack[len(stack)-1] == '{'
			out = append(out, c)
			i++
		case '"':
			end := stringEnd(b, i)
			out = append(out, b[i:end]...)
			if !expectName {
				i = end
				continue
			}
			expectName = false
			var name string
			if json.Unmarshal(b[i:end], &name) != nil {
				name = string(b[i:end])
			}
			i = end
			if !secret(name) {
				continue
			}
			for i < len(b) && (b[i] == ':' || isJSONSpace(b[i])) {
				out = append(out, b[i])
				i++
			}
			if i == len(b) {
				continue
			}
			vend := valueEnd(b, i)
			if v := b[i:vend]; len(v) > 0 && v[0] != '{' && v[0] != '[' {
				var text string
				if json.Unmarshal(v, &text) == nil {
					*found = append(*found, text)
				} else {
					*found = append(*found, strings.Trim(string(v), `"`))
				}
			}
			out = append(out, `"`+Redacted+`"`...)
			i = vend
		default:
			out = append(out, c)
			i++
		}
	}
	return out
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// stringEnd returns the index just after the JSON string that starts at
// b[i], or len(b) when it is cut short.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

// valueEnd returns the index just after the JSON value that starts at
// b[i]: a string, an object or an array with all it holds, or a number or
// a literal; len(b) when it is cut short.
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				j = stringEnd(b, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return len(b)
	}
	j := i
	for j < len(b) && !isJSONSpace(b[j]) && b[j] != ',' && b[j] != '}' && b[j] != ']' {
		j++
	}
	return j
}
