package corpus

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// literalFile writes the document d holds as a JavaScript string literal
// to a file of its own beside the package, once, and returns its path.
func literalFile(dir string, d Document) (string, error) {
	p := filepath.Join(dir, "literal", d.Name+".yaml")
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	js, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(d.Path)))
	if err != nil {
		return "", err
	}
	doc, err := Literal(js, d.Literal)
	if err != nil {
		return "", fmt.Errorf("%s: %w", d.Path, err)
	}
	return p, writeNew(p, []byte(doc))
}

// Literal returns the text of the double-quoted string literal that is
// the first argument of the first call after the name fn in the
// JavaScript js, decoded: in `"load",(()=>{update("text")})`, text.
func Literal(js []byte, fn string) (string, error) {
	i := bytes.Index(js, []byte(fn))
	if i < 0 {
		return "", fmt.Errorf("no %s", fn)
	}
	// The literal is the first argument of the first call after fn.
	rest := js[i+len(fn):]
	for j := 0; j < len(rest) && j < 200; j++ {
		if rest[j] != '(' {
			continue
		}
		arg := bytes.TrimLeft(rest[j+1:], " \t\n")
		if len(arg) > 0 && arg[0] == '"' {
			return unquoteJS(arg[1:])
		}
	}
	return "", fmt.Errorf("no string literal after %s", fn)
}

// unquoteJS decodes a JavaScript string literal whose opening quote is
// already read, up to its closing quote.
func unquoteJS(s []byte) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), nil
		case c == '\n':
			return "", fmt.Errorf("a line ends inside the string literal, at byte %d", i)
		case c != '\\':
			r, size := utf8.DecodeRune(s[i:])
			b.WriteRune(r)
			i += size
			continue
		}
		if i+1 >= len(s) {
			break
		}
		e := s[i+1]
		i += 2
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0':
			b.WriteByte(0)
		case 'x', 'u':
			n := 2
			if e == 'u' {
				n = 4
			}
			if i+n > len(s) {
				return "", fmt.Errorf("a cut \\%c escape at byte %d", e, i-2)
			}
			v, err := strconv.ParseUint(string(s[i:i+n]), 16, 32)
			if err != nil {
				return "", fmt.Errorf("a bad \\%c escape at byte %d", e, i-2)
			}
			r := rune(v)
			i += n
			if utf16.IsSurrogate(r) && i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
				if lo, err := strconv.ParseUint(string(s[i+2:i+6]), 16, 32); err == nil {
					r = utf16.DecodeRune(r, rune(lo))
					i += 6
				}
			}
			b.WriteRune(r)
		case '\n':
			// A backslash before a line break continues the line.
		default:
			b.WriteByte(e)
		}
	}
	return "", fmt.Errorf("the string literal does not end")
}
