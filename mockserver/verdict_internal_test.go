package mockserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/petstore/contract/spec/answercheck"
)

// TestViolationsValue: the header lists every violation while they fit,
// in ASCII, and past its bound says how many it left out.
func TestViolationsValue(t *testing.T) {
	many := make([]answercheck.Violation, 100)
	for i := range many {
		many[i] = answercheck.Violation{Rule: answercheck.RuleBody, Message: "listPets answered 200: " + strings.Repeat("é", 40) + " 🐾"}
	}
	for _, tt := range []struct {
		in     []answercheck.Violation
		listed int
		more   bool
	}{
		{nil, 0, false},
		{many[:1], 1, false},
		{many, -1, true},
	} {
		text := violationsValue(tt.in)
		var out []answercheck.Violation
		if err := json.Unmarshal([]byte(text), &out); err != nil {
			t.Fatalf("%d violations: %q is no JSON: %v", len(tt.in), text, err)
		}
		if len(text) > maxViolationsHeader {
			t.Errorf("%d violations: %d bytes, over the bound of %d", len(tt.in), len(text), maxViolationsHeader)
		}
		if strings.ContainsFunc(text, func(r rune) bool { return r >= 0x80 }) {
			t.Errorf("%d violations: no ASCII: %q", len(tt.in), text)
		}
		if tt.listed >= 0 && len(out) != tt.listed {
			t.Errorf("%d violations: %d listed, want %d", len(tt.in), len(out), tt.listed)
		}
		if tt.more {
			last := out[len(out)-1]
			if last.Rule != "more" || !strings.HasPrefix(last.Message, strings.TrimSpace(itoa(len(tt.in)-len(out)+1))+" more") {
				t.Errorf("%d violations: last %+v, want how many more of %d", len(tt.in), last, len(tt.in)-len(out)+1)
			}
			if out[0].Message != many[0].Message {
				t.Errorf("the message read back: %q, want %q", out[0].Message, many[0].Message)
			}
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
