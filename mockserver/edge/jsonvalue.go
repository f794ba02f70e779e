package edge

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// A request's body is decoded on every write, and encoding/json's Decoder
// costs more than the body: a decoder and a buffer a request, the body
// copied and scanned twice, and a token read to see that nothing follows.
// decodePlain decodes most bodies, which are valid and write their strings
// plainly, in one pass that checks the grammar as it reads, into the very
// values the Decoder gives with UseNumber: maps, slices, strings,
// json.Numbers, bools and nil. It declines whatever else, for DecodeJSON to
// decode as before and to word the error of a body that is not JSON.

// maxPlainDepth is the deepest nesting decodePlain reads, encoding/json's
// own limit: a deeper body is declined, for the Decoder to refuse.
const maxPlainDepth = 10000

// decodePlain returns the value of body and true when body is valid JSON
// whose strings hold no escape and are valid UTF-8; nil and false else.
func decodePlain(body []byte) (any, bool) {
	d := plainDecoder{data: body}
	v, ok := d.value(0)
	if !ok {
		return nil, false
	}
	d.space()
	if d.at != len(d.data) {
		return nil, false
	}
	return v, true
}

// plainDecoder reads JSON values, checking their grammar.
type plainDecoder struct {
	data []byte
	at   int
}

// space skips white space.
func (d *plainDecoder) space() {
	for d.at < len(d.data) {
		switch d.data[d.at] {
		case ' ', '\t', '\n', '\r':
			d.at++
		default:
			return
		}
	}
}

// next skips white space and returns the byte at d.at, 0 at the end.
func (d *plainDecoder) next() byte {
	d.space()
	if d.at == len(d.data) {
		return 0
	}
	return d.data[d.at]
}

// value reads the value at d.at, at a depth of nesting, and false for one
// to decline.
func (d *plainDecoder) value(depth int) (any, bool) {
	switch d.next() {
	case '{':
		return d.object(depth + 1)
	case '[':
		return d.array(depth + 1)
	case '"':
		return d.str()
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	case 'n':
		return nil, d.literal("null")
	default:
		return d.number()
	}
}

// object reads the object at d.at.
func (d *plainDecoder) object(depth int) (any, bool) {
	if depth > maxPlainDepth {
		return nil, false
	}
	d.at++
	m := map[string]any{}
	if d.next() == '}' {
		d.at++
		return m, true
	}
	for {
		if d.next() != '"' {
			return nil, false
		}
		k, ok := d.str()
		if !ok || d.next() != ':' {
			return nil, false
		}
		d.at++
		v, ok := d.value(depth)
		if !ok {
			return nil, false
		}
		m[k] = v
		switch d.next() {
		case ',':
			d.at++
		case '}':
			d.at++
			return m, true
		default:
			return nil, false
		}
	}
}

// array reads the array at d.at.
func (d *plainDecoder) array(depth int) (any, bool) {
	if depth > maxPlainDepth {
		return nil, false
	}
	d.at++
	a := []any{}
	if d.next() == ']' {
		d.at++
		return a, true
	}
	for {
		v, ok := d.value(depth)
		if !ok {
			return nil, false
		}
		a = append(a, v)
		switch d.next() {
		case ',':
			d.at++
		case ']':
			d.at++
			return a, true
		default:
			return nil, false
		}
	}
}

// literal reads word, true, false or null, at d.at.
func (d *plainDecoder) literal(word string) bool {
	if !bytes.HasPrefix(d.data[d.at:], []byte(word)) {
		return false
	}
	d.at += len(word)
	return true
}

// number reads the number at d.at, as JSON writes numbers: a minus, an
// integer part without leading zeros, a fraction, an exponent.
func (d *plainDecoder) number() (any, bool) {
	p, i := d.data, d.at
	if i < len(p) && p[i] == '-' {
		i++
	}
	switch {
	case i < len(p) && p[i] == '0':
		i++
	case i < len(p) && '1' <= p[i] && p[i] <= '9':
		i = digits(p, i)
	default:
		return nil, false
	}
	if i < len(p) && p[i] == '.' {
		if i++; i == len(p) || !isDigit(p[i]) {
			return nil, false
		}
		i = digits(p, i)
	}
	if i < len(p) && (p[i] == 'e' || p[i] == 'E') {
		if i++; i < len(p) && (p[i] == '+' || p[i] == '-') {
			i++
		}
		if i == len(p) || !isDigit(p[i]) {
			return nil, false
		}
		i = digits(p, i)
	}
	n := json.Number(p[d.at:i])
	d.at = i
	return n, true
}

// digits returns the index of the first byte at or after i of p that is
// not a decimal digit.
func digits(p []byte, i int) int {
	for i < len(p) && isDigit(p[i]) {
		i++
	}
	return i
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// str reads the string at d.at, and false for one that escapes a
// character, holds a control character or is not valid UTF-8, which
// encoding/json decodes or refuses.
func (d *plainDecoder) str() (string, bool) {
	p := d.data
	i := d.at + 1
	ascii := true
	for ; i < len(p); i++ {
		c := p[i]
		if c == '"' {
			break
		}
		if c < 0x20 || c == '\\' {
			return "", false
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	if i == len(p) {
		return "", false
	}
	s := p[d.at+1 : i]
	if !ascii && !utf8.Valid(s) {
		return "", false
	}
	d.at = i + 1
	return string(s), true
}
