package admin_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

// secretKey is the key of the tests of redaction: no word of petmock's
// messages, and nothing "[redacted]" is made of, holds it.
const secretKey = "s3cr3t-k3y"

// escapes are the escapes a reader could undo to find a key: percent-
// encoding and JSON string escapes.
var escapes = regexp.MustCompile(`%[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\["\\/]`)

// holdsKey reports whether s holds key in any form: as written, or once
// one or more layers of escapes are undone, by a reader written apart from
// petmock's redactor, so that the two check each other.
func holdsKey(s, key string) bool {
	for range 6 {
		if strings.Contains(s, key) {
			return true
		}
		next := escapes.ReplaceAllStringFunc(s, func(e string) string {
			switch {
			case e[0] == '%':
				b, _ := strconv.ParseUint(e[1:], 16, 8)
				return string([]byte{byte(b)})
			case e[1] == 'u':
				r, _ := strconv.ParseUint(e[2:], 16, 32)
				if !utf8.ValidRune(rune(r)) {
					return e
				}
				return string(rune(r))
			}
			return e[1:]
		})
		if next == s {
			return false
		}
		s = next
	}
	return strings.Contains(s, key)
}

// percentEncoded encodes every byte of s as %XX.
func percentEncoded(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "%%%02X", s[i])
	}
	return b.String()
}

// TestAdminKeyNeverShown sends the key where the admin API repeats what it
// is sent, a path and a query, as written and percent-encoded once and
// twice, and checks that it never shows again: not in an answer, not in
// the request log.
func TestAdminKeyNeverShown(t *testing.T) {
	var log syncBuffer
	logger := slog.New(slog.NewMultiHandler(slog.NewTextHandler(&log, nil), slog.NewJSONHandler(&log, nil)))
	ts := newTestServer(t, mockserver.Config{APIKeys: []string{secretKey}, Logger: logger})
	for _, k := range []string{secretKey, percentEncoded(secretKey), strings.ReplaceAll(percentEncoded(secretKey), "%", "%25")} {
		for _, target := range []string{
			admin.Prefix + k,
			admin.Prefix + "catalogue/" + k,
			admin.Prefix + "console/" + k,
			admin.Prefix + "catalogue/pets?cursor=" + k,
			admin.Prefix + "catalogue/pets?status=" + k,
			admin.Prefix + "requests?limit=" + k,
		} {
			req, err := http.NewRequest("GET", ts.root+target, nil)
			if err != nil {
				t.Fatalf("%s: %v", target, err)
			}
			req.Header.Set("Authorization", "Bearer "+secretKey)
			if resp := ts.send(t, req); holdsKey(string(resp.body), secretKey) {
				t.Errorf("GET %s: the answer shows the key: %s", target, resp)
			}
		}
	}
	ts.FlushLog()
	if !strings.Contains(log.String(), "request") {
		t.Fatalf("the log holds no request: %s", log.String())
	}
	for _, line := range strings.Split(log.String(), "\n") {
		if holdsKey(line, secretKey) {
			t.Errorf("the log shows the key: %s", line)
		}
	}
}
