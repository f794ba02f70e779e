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
// plainly, in one pass after json.Valid's scan, into the very values the
// Decoder gives with UseNumber: maps, slices, strings, json.Numbers, bools
// and nil. It declines whatever else, for DecodeJSON to decode as before
// and to word the error of a body that is not JSON.

// decodePlain returns the value of body and true when body is valid JSON
// whose strings hold no escape and are valid UTF-8; nil and false else.
func decodePlain(body []byte) (any, bool) {
	if !json.Valid(body) {
		return nil, false
	}
	d := plainDecoder{data: body}
	v, ok := d.value()
	return v, ok
}

// plainDecoder reads values of JSON known to be valid.
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

// value reads the value at d.at, and false for one to decline.
func (d *plainDecoder) value() (any, bool) {
	d.space()
	switch c := d.data[d.at]; c {
	case '{':
		d.at++
		m := map[string]any{}
		for {
			d.space()
			if d.data[d.at] == '}' {
				d.at++
				return m, true
			}
			if d.data[d.at] == ',' {
				d.at++
				d.space()
			}
			k, ok := d.str()
			if !ok {
				return nil, false
			}
			d.space()
			d.at++ // the colon
			v, ok := d.value()
			if !ok {
				return nil, false
			}
			m[k] = v
		}
	case '[':
		d.at++
		a := []any{}
		for {
			d.space()
			if d.data[d.at] == ']' {
				d.at++
				return a, true
			}
			if d.data[d.at] == ',' {
				d.at++
			}
			v, ok := d.value()
			if !ok {
				return nil, false
			}
			a = append(a, v)
		}
	case '"':
		return d.str()
	case 't':
		d.at += len("true")
		return true, true
	case 'f':
		d.at += len("false")
		return false, true
	case 'n':
		d.at += len("null")
		return nil, true
	default:
		start := d.at
		for d.at < len(d.data) {
			switch d.data[d.at] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return json.Number(d.data[start:d.at]), true
			}
			d.at++
		}
		return json.Number(d.data[start:]), true
	}
}

// str reads the string at d.at, and false for one that escapes a
// character or is not valid UTF-8, which encoding/json decodes.
func (d *plainDecoder) str() (string, bool) {
	rest := d.data[d.at+1:]
	end := bytes.IndexByte(rest, '"')
	s := rest[:end]
	if bytes.IndexByte(s, '\\') >= 0 || !utf8.Valid(s) {
		return "", false
	}
	d.at += end + 2
	return string(s), true
}
