package mockserver

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/spec/answercheck"
)

// What a proxied request and its answer break is told to the client too,
// where the developer looks, when asked: with Proxy.ViolationsHeader, on
// every answer of the backend, in the header ViolationsHeader, as Prism
// does in sl-violations, so that it shows in the browser's devtools; and
// with Proxy.Strict, in place of the answer, as a 502 that lists them, so
// that a CI run fails where the frontend or the backend breaks the
// document.

// ViolationsHeader names the header that lists, on an answer of the
// backend, what the request and the answer broke: a JSON array of
// {"rule","message"}, empty when they broke nothing, in ASCII, and cut
// at maxViolationsHeader bytes with a last element of rule "more" that
// says how many were left out.
const ViolationsHeader = "X-Petmock-Violations"

// maxViolationsHeader bounds the header's value, as servers and browsers
// refuse headers past some kilobytes.
const maxViolationsHeader = 4 << 10

// violationsValue writes violations as ViolationsHeader holds them.
func violationsValue(violations []answercheck.Violation) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, v := range violations {
		if i > 0 {
			b.WriteByte(',')
		}
		item := headerJSON(v)
		// Room is left, after each, for the element that says how many
		// more there were.
		more := headerJSON(answercheck.Violation{Rule: "more", Message: strconv.Itoa(len(violations)-i) + " more; GET /__petmock/violations lists them"})
		if i < len(violations)-1 && b.Len()+len(item)+1+len(more)+1 > maxViolationsHeader ||
			b.Len()+len(item)+1 > maxViolationsHeader {
			b.WriteString(more)
			break
		}
		b.WriteString(item)
	}
	b.WriteByte(']')
	return b.String()
}

// headerJSON writes v as JSON of ASCII alone, which a header may hold:
// every other rune escaped.
func headerJSON(v answercheck.Violation) string {
	text, _ := json.Marshal(v)
	var b strings.Builder
	for _, r := range string(text) {
		if r < utf8.RuneSelf {
			b.WriteRune(r)
			continue
		}
		for _, u := range utf16Units(r) {
			b.WriteString(`\u`)
			b.WriteString(strconv.FormatUint(uint64(u)|0x10000, 16)[1:])
		}
	}
	return b.String()
}

// utf16Units are the UTF-16 code units of r.
func utf16Units(r rune) []uint16 {
	if r < 0x10000 {
		return []uint16{uint16(r)}
	}
	r -= 0x10000
	return []uint16{uint16(0xD800 + r>>10), uint16(0xDC00 + r&0x3FF)}
}

// setViolations puts the list of violations on h, the header of an
// answer of the backend, and lets a page of another origin read it.
func (p *proxying) setViolations(h http.Header, violations []answercheck.Violation) {
	h.Set(ViolationsHeader, violationsValue(violations))
	if exposed := h.Get("Access-Control-Expose-Headers"); exposed != "" {
		h.Set("Access-Control-Expose-Headers", exposed+", "+ViolationsHeader)
	}
}

// maxStrictMessage bounds how many of the violations a 502 of
// Proxy.Strict names in its message; its header lists them all, within
// its bound.
const maxStrictMessage = 5

// refuse answers, with Proxy.Strict, a request that broke the document,
// or whose answer did: a 502 in the document's error body, whose message
// says what each broke, with the header that lists them.
func (p *proxying) refuse(w http.ResponseWriter, violations []answercheck.Violation) error {
	p.setViolations(w.Header(), violations)
	what := "the backend's answer breaks the document"
	if violations[0].Rule == RuleRequest {
		what = "the request breaks the document, and was not forwarded"
	}
	parts := make([]string, 0, min(len(violations), maxStrictMessage))
	for _, v := range violations[:min(len(violations), maxStrictMessage)] {
		parts = append(parts, v.Rule+": "+v.Message)
	}
	message := strings.Join(parts, "; ")
	if left := len(violations) - len(parts); left > 0 {
		message += "; and " + strconv.Itoa(left) + " more"
	}
	return edge.NewError(http.StatusBadGateway, "proxy-strict", "%s: %s", what, message)
}
