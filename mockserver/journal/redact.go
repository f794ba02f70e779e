package journal

import (
	"bytes"
	"cmp"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Redactor keeps the accepted keys out of everything petmock writes down or
// sends back of a request: the request log, the journal and the message of
// every Error. Credential headers and token parameters are hidden whole;
// anywhere else, a key is hidden in every form it may take: as written,
// percent-encoded (in either case, in part, or several times over, since
// a path is logged once decoded) and escaped as in a JSON string.
type Redactor struct {
	keys  [][]byte // longest first, so that no key is hidden in part by a shorter one
	texts []string // keys, as strings
}

// keyFormGrowth is how many times longer than a key a form of it may be
// and still be found whole across the journal's cut of a body: a key
// percent-encoded twice over is five times as long, JSON-escaped six
// times, and JSON-escaped then percent-encoded eight times.
const keyFormGrowth = 16

// KeptBytes is how much of a text to keep in order to show its first n
// bytes: n and as many as the longest form of a key can take, so that a
// key across the cut is recognised and hidden whole (see clip).
func (r *Redactor) KeptBytes(n int) int {
	if len(r.keys) == 0 {
		return n + 1
	}
	return n + max(1, keyFormGrowth*len(r.keys[0]))
}

// Clip returns at most the first n bytes of b, a kept text, without its
// keys, and whether it cut anything. A key that runs across the cut is
// cut away whole, where the start of it would otherwise show.
func (r *Redactor) Clip(b []byte, n int) (string, bool) {
	if len(b) <= n {
		return r.Text(string(b)), false
	}
	s := string(b)
	hide, found := r.mask(s)
	if !found {
		return s[:n], true
	}
	cut := n
	for cut > 0 && hide[cut] && hide[cut-1] {
		cut--
	}
	return render(s[:cut], hide[:cut]), true
}

// Redacted stands in for what is hidden.
const Redacted = "[redacted]"

// credentialHeaders are hidden whole, whatever they hold.
var credentialHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key"}

// tokenParams are query parameters that carry keys (RFC 6750 section 2.3
// and common practice); their values are hidden whole.
var tokenParams = regexp.MustCompile(`(?i)(^|&)(access_token|api_key|apikey|key|token)=[^&]*`)

// NewRedactor returns a Redactor of keys; an empty one is passed over.
func NewRedactor(keys []string) *Redactor {
	r := &Redactor{}
	for _, k := range keys {
		if k != "" {
			r.keys = append(r.keys, []byte(k))
		}
	}
	slices.SortFunc(r.keys, func(a, b []byte) int { return cmp.Compare(len(b), len(a)) })
	for _, k := range r.keys {
		r.texts = append(r.texts, string(k))
	}
	return r
}

// minEchoed is the length from which a secret value hidden by its name
// is hidden wherever else an exchange repeats it: a shorter one would
// hide common text, such as a digit of every number.
const minEchoed = 4

// With returns a redactor that hides the values too, as it hides keys.
func (r *Redactor) With(values []string) *Redactor {
	keys := make([]string, 0, len(r.keys)+len(values))
	for _, k := range r.keys {
		keys = append(keys, string(k))
	}
	for _, v := range values {
		if len(v) >= minEchoed && !strings.Contains(Redacted, v) && !slices.Contains(keys, v) {
			keys = append(keys, v)
		}
	}
	if len(keys) == len(r.keys) {
		return r
	}
	return NewRedactor(keys)
}

// Text returns s with every form of a key in it replaced by [redacted].
func (r *Redactor) Text(s string) string {
	if strings.IndexByte(s, '%') < 0 && strings.IndexByte(s, '\\') < 0 {
		// Nothing is encoded: the common case, and the only one the
		// request log meets on most requests.
		for _, k := range r.keys {
			if strings.Contains(s, string(k)) {
				s = strings.ReplaceAll(s, string(k), Redacted)
			}
		}
		return s
	}
	return r.decoded(s)
}

// maxDecodings is how many times over a text is decoded to look for a
// key: a key sent percent-encoded twice shows once decoded in a logged
// path, and could be read by decoding once more.
const maxDecodings = 4

// decoded hides the keys in s in whichever form they are: s is decoded
// again and again, and wherever a decoding holds a key, the bytes of s it
// was decoded from are hidden.
func (r *Redactor) decoded(s string) string {
	hide, found := r.mask(s)
	if !found {
		return s
	}
	return render(s, hide)
}

// mask reports which bytes of s are part of a key, in any form, and
// whether any is.
func (r *Redactor) mask(s string) (hide []bool, found bool) {
	hide = make([]bool, len(s))
	v := identity(s)
	for range maxDecodings + 1 {
		for _, k := range r.keys {
			for from := 0; ; {
				i := bytes.Index(v.text[from:], k)
				if i < 0 {
					break
				}
				a, b := from+i, from+i+len(k)-1
				for j := v.start[a]; j < v.end[b]; j++ {
					hide[j] = true
				}
				found = true
				from = b + 1
			}
		}
		next, changed := v.decode()
		if !changed {
			break
		}
		v = next
	}
	return hide, found
}

// render returns s with each run of hidden bytes replaced by [redacted].
func render(s string, hide []bool) string {
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		if !hide[i] {
			out.WriteByte(s[i])
			continue
		}
		out.WriteString(Redacted)
		for i+1 < len(s) && hide[i+1] {
			i++
		}
	}
	return out.String()
}

// decoding is a text decoded from a raw one, with, for each of its bytes,
// the span of the raw text it was decoded from.
type decoding struct {
	text       []byte
	start, end []int // of text[i]: raw[start[i]:end[i]]
}

func identity(s string) decoding {
	d := decoding{text: []byte(s), start: make([]int, len(s)), end: make([]int, len(s))}
	for i := range s {
		d.start[i], d.end[i] = i, i+1
	}
	return d
}

// decode undoes one layer of percent-encoding and of JSON string escapes,
// and reports whether there was one.
func (d decoding) decode() (decoding, bool) {
	t := d.text
	out := decoding{text: make([]byte, 0, len(t)), start: make([]int, 0, len(t)), end: make([]int, 0, len(t))}
	emit := func(b []byte, from, to int) {
		for _, c := range b {
			out.text = append(out.text, c)
			out.start = append(out.start, d.start[from])
			out.end = append(out.end, d.end[to-1])
		}
	}
	changed := false
	for i := 0; i < len(t); {
		if t[i] == '%' && i+2 < len(t) && isHex(t[i+1]) && isHex(t[i+2]) {
			emit([]byte{unhex(t[i+1])<<4 | unhex(t[i+2])}, i, i+3)
			i += 3
			changed = true
			continue
		}
		if t[i] == '\\' && i+1 < len(t) {
			switch c := t[i+1]; {
			case c == '"' || c == '\\' || c == '/':
				emit([]byte{c}, i, i+2)
				i += 2
				changed = true
				continue
			case c == 'u':
				if rn, n := jsonEscape(t[i:]); n > 0 {
					emit(utf8.AppendRune(nil, rn), i, i+n)
					i += n
					changed = true
					continue
				}
			}
		}
		emit(t[i:i+1], i, i+1)
		i++
	}
	return out, changed
}

// jsonEscape reads a JSON \uXXXX escape at the start of t, or a pair of
// them that encodes one rune, and returns the rune and the length of the
// escape; 0 when t does not start with one.
func jsonEscape(t []byte) (rune, int) {
	r1, ok := hex4(t)
	if !ok {
		return 0, 0
	}
	if utf16.IsSurrogate(r1) {
		if r2, ok := hex4(t[6:]); ok {
			if rn := utf16.DecodeRune(r1, r2); rn != utf8.RuneError {
				return rn, 12
			}
		}
	}
	return r1, 6
}

// hex4 reads \uXXXX at the start of t.
func hex4(t []byte) (rune, bool) {
	if len(t) < 6 || t[0] != '\\' || t[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range t[2:6] {
		if !isHex(c) {
			return 0, false
		}
		r = r<<4 | rune(unhex(c))
	}
	return r, true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

func (r *Redactor) Query(q string) string {
	return tokenParams.ReplaceAllString(r.Text(q), "${1}${2}="+Redacted)
}

// Header copies h without its secrets.
func (r *Redactor) Header(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for name, values := range h {
		if slices.Contains(credentialHeaders, name) {
			out[name] = []string{Redacted}
			continue
		}
		vs := make([]string, len(values))
		for i, v := range values {
			vs[i] = r.Text(v)
		}
		out[r.Text(name)] = vs
	}
	return out
}

// Values copies m without a key in its names or values, and with the
// values of credential headers hidden whole.
func (r *Redactor) Values(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for name, v := range m {
		if slices.Contains(credentialHeaders, http.CanonicalHeaderKey(name)) {
			v = Redacted
		}
		out[r.Text(name)] = r.Text(v)
	}
	return out
}

// JSON returns a JSON text without a key in it: still JSON, or the text
// hidden as a JSON string when hiding made it none.
func (r *Redactor) JSON(v json.RawMessage) json.RawMessage {
	if v == nil {
		return nil
	}
	text := r.Text(string(v))
	if text == string(v) {
		return v
	}
	if json.Valid([]byte(text)) {
		return json.RawMessage(text)
	}
	quoted, _ := json.Marshal(text)
	return quoted
}

// Hides reports whether v holds a key: a value an answer must not repeat.
func (r *Redactor) Hides(v string) bool {
	return v != "" && r.Text(v) != v
}

// Reach is the longest a form of a key may be that Scrub finds whole: see
// keyFormGrowth.
func (r *Redactor) Reach() int {
	if len(r.keys) == 0 {
		return 1
	}
	return keyFormGrowth * len(r.keys[0])
}

// Scrub overwrites, in place, every form of a key in b with as many
// asterisks: a body petmock relays keeps its length, and its JSON stays
// JSON where the key stood in a string. Only forms wholly in b are found;
// a caller that has b in parts keeps the last Reach bytes of one for the
// next.
func (r *Redactor) Scrub(b []byte) {
	if len(r.keys) == 0 || len(b) == 0 {
		return
	}
	if bytes.IndexByte(b, '%') < 0 && bytes.IndexByte(b, '\\') < 0 {
		// Nothing is encoded: the common case, found without a copy.
		for _, k := range r.keys {
			for from := 0; ; {
				i := bytes.Index(b[from:], k)
				if i < 0 {
					break
				}
				for j := from + i; j < from+i+len(k); j++ {
					b[j] = '*'
				}
				from += i + len(k)
			}
		}
		return
	}
	hide, found := r.mask(string(b))
	if !found {
		return
	}
	for i, h := range hide {
		if h {
			b[i] = '*'
		}
	}
}

// HidesAnyCase reports whether v holds a key in any case, as a header's
// name may, which HTTP reads in any case and Go writes in its own.
func (r *Redactor) HidesAnyCase(v string) bool {
	for _, k := range r.texts {
		for i := 0; i+len(k) <= len(v); i++ {
			if strings.EqualFold(v[i:i+len(k)], k) {
				return true
			}
		}
	}
	return r.Hides(v)
}
