package judge

import (
	"net/url"
	"strings"
)

// KeyForm is a value of the run's key, or one derived from it, such as
// the key in another case. Requests are built with its shell expression,
// and the value is put in its place on the wire only, so that what a report
// shows can be pasted into a shell that has $PETSTORE_API_KEY set, and
// never shows the key or most of it.
type KeyForm struct {
	// Shown is the shell expression that reports show in its place.
	Shown string
	// derive returns the value sent for the run's key.
	derive func(key string) string
}

var (
	// formKey is the run's key.
	formKey = KeyForm{KeyVar, func(key string) string { return key }}
	// FormOtherCase is the key with the case of its ASCII letters
	// swapped, as tr does.
	FormOtherCase = KeyForm{`$(printf %s "` + KeyVar + `" | tr a-zA-Z A-Za-z)`, SwapCase}
	// FormLonger is the key with a character added.
	FormLonger = KeyForm{"${PETSTORE_API_KEY}x", func(key string) string { return key + "x" }}
	// FormShorter is the key without its last character.
	FormShorter = KeyForm{"${PETSTORE_API_KEY%?}", func(key string) string { return key[:max(len(key)-1, 0)] }}
)

// wireForms are the forms put in place on the wire, the derived ones
// first: the expression of FormOtherCase holds KeyVar.
var wireForms = []KeyForm{FormOtherCase, FormLonger, FormShorter, formKey}

// redactedForms are the forms redacted in what the suite shows, longest
// value first, so that the key with a character added is shown as such
// rather than as the key and a character.
var redactedForms = []KeyForm{FormLonger, formKey, FormOtherCase, FormShorter}

// minRedacted is the shortest derived value redacted: a shorter one would
// be replaced inside ordinary words, and shows little of the key.
const minRedacted = 4

// SwapCase returns s with the case of its ASCII letters swapped.
func SwapCase(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z':
			return r - 'a' + 'A'
		case 'A' <= r && r <= 'Z':
			return r - 'A' + 'a'
		}
		return r
	}, s)
}

// onTheWire returns s, a header value, with every form of the key in
// place.
func onTheWire(s, key string) string {
	for _, f := range wireForms {
		s = strings.ReplaceAll(s, f.Shown, f.derive(key))
	}
	return s
}

// urlOnTheWire returns u, a URL whose query may hold forms of the key,
// escaped, with every form in place.
func urlOnTheWire(u, key string) string {
	for _, f := range wireForms {
		u = strings.ReplaceAll(u, url.QueryEscape(f.Shown), url.QueryEscape(f.derive(key)))
	}
	return u
}

// RedactKey replaces the API key in s by $PETSTORE_API_KEY, and values
// derived from it by the expressions of their forms. A deployment can
// echo the key anywhere: in a body, a header, even a status line that ends
// up in an error message. Every report and every error of the suite goes
// through RedactKey, so none holds the key, and a curl line copied from it
// still works where the variable is set.
//
// The commands redact their own messages with cli.RedactKey, which
// replaces the key alone: this library cannot import the commands'
// internal package, the commands must not link the suite for so little,
// and only the suite sends values derived from the key.
func RedactKey(s, key string) string {
	if key == "" {
		return s
	}
	for _, f := range redactedForms {
		v := f.derive(key)
		if f.Shown != KeyVar && (v == key || len(v) < minRedacted) {
			continue
		}
		s = strings.ReplaceAll(s, v, f.Shown)
	}
	return s
}

// shellQuote quotes s for a POSIX shell. If s holds a form of the key, it
// is double-quoted with every other expansion escaped, so that only the
// forms of the key expand.
func shellQuote(s string) string {
	if !strings.Contains(s, KeyVar) && !strings.Contains(s, "${PETSTORE_API_KEY") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		form, ok := formAt(s[i:])
		if !ok {
			i++
			continue
		}
		b.WriteString(doubleQuoteEscaper.Replace(s[start:i]))
		b.WriteString(form)
		i += len(form)
		start = i
	}
	b.WriteString(doubleQuoteEscaper.Replace(s[start:]))
	b.WriteByte('"')
	return b.String()
}

// formAt returns the expression of the form of the key that s starts
// with, if any.
func formAt(s string) (string, bool) {
	for _, f := range wireForms {
		if strings.HasPrefix(s, f.Shown) {
			return f.Shown, true
		}
	}
	return "", false
}

var doubleQuoteEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`", "!", `"'!'"`)
