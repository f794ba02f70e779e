package mockserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/petstore/contract/mockserver"
)

// secretKey is the key of the tests of redaction: no word of petmock's
// messages, and nothing "[redacted]" is made of, holds it.
const secretKey = "s3cr3t-k3y"

// escapes are the escapes a reader could undo to find a key: percent-
// encoding and JSON string escapes.
var escapes = regexp.MustCompile(`%[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\["\\/]`)

// unescape undoes one layer of escapes, as the test reads them: written
// apart from petmock's redactor, so that the two check each other.
func unescape(s string) string {
	return escapes.ReplaceAllStringFunc(s, func(e string) string {
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
}

// holdsKey reports whether s holds key in any form: as written, or once
// one or more layers of escapes are undone.
func holdsKey(s, key string) bool {
	for range 6 {
		if strings.Contains(s, key) {
			return true
		}
		next := unescape(s)
		if next == s {
			return false
		}
		s = next
	}
	return strings.Contains(s, key)
}

// percentEncoded encodes every byte of s as %XX.
func percentEncoded(s string, hex string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, hex, s[i])
	}
	return b.String()
}

// jsonEscaped writes every character of s as a JSON \u escape.
func jsonEscaped(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// keyForms are the ways a client may write the key where petmock repeats
// what it was sent.
var keyForms = []struct {
	name   string
	encode func(string) string
}{
	{"as written", func(k string) string { return k }},
	{"percent-encoded", func(k string) string { return percentEncoded(k, "%%%02X") }},
	{"percent-encoded in lower case", func(k string) string { return percentEncoded(k, "%%%02x") }},
	{"percent-encoded in part", func(k string) string { return k[:2] + percentEncoded(k[2:4], "%%%02X") + k[4:] }},
	{"percent-encoded twice", func(k string) string { return strings.ReplaceAll(percentEncoded(k, "%%%02X"), "%", "%25") }},
	{"JSON-escaped", jsonEscaped},
}

// TestKeyNeverShown sends the key where petmock repeats what it is sent, in
// every form, and checks that it never shows again: not in the request log
// (text or JSON), not in the journal, not in an answer.
func TestKeyNeverShown(t *testing.T) {
	var textLog, jsonLog syncBuffer
	logger := slog.New(slog.NewMultiHandler(slog.NewTextHandler(&textLog, nil), slog.NewJSONHandler(&jsonLog, nil)))
	ts := newTestServer(t, mockserver.Config{APIKeys: []string{secretKey}, Logger: logger})
	root := strings.TrimSuffix(ts.URL, "/v1")
	auth := "Bearer " + secretKey
	for _, form := range keyForms {
		k := form.encode(secretKey)
		requests := []struct {
			what, method, target, body string
			header                     []string
		}{
			{"a path segment", "GET", ts.URL + "/" + k, "", nil},
			{"a path parameter", "GET", ts.URL + "/pets/" + k, "", nil},
			{"a path outside the base path", "GET", root + "/elsewhere/" + k, "", nil},
			{"a query value", "GET", ts.URL + "/pets?status=" + k, "", nil},
			{"a query name", "GET", ts.URL + "/pets?" + k + "=1", "", nil},
			{"the Content-Type", "POST", ts.URL + "/pets", `{"name":"Rex","categoryId":1}`, []string{"Content-Type", "text/" + k}},
			{"Prefer code", "GET", ts.URL + "/pets", "", []string{"Prefer", "code=" + k}},
			{"Prefer now", "GET", ts.URL + "/pets", "", []string{"Prefer", "now=" + k}},
			{"another header", "GET", ts.URL + "/pets", "", []string{"X-Note", k}},
			// A pet named after the key is the client's to read back: its
			// answer is the pet, but the log and the journal hide it.
			{"a body", "POST", ts.URL + "/pets", `{"name":"` + k + `","categoryId":1}`, nil},
		}
		if form.name == "as written" {
			// A method is a token: it has no encoded form.
			requests = append(requests, struct {
				what, method, target, body string
				header                     []string
			}{"the method", secretKey, ts.URL + "/pets", "", nil})
		}
		for _, rq := range requests {
			req, err := http.NewRequest(rq.method, rq.target, strings.NewReader(rq.body))
			if err != nil {
				t.Fatalf("the key %s in %s: %v", form.name, rq.what, err)
			}
			req.Header.Set("Authorization", auth)
			if rq.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			for i := 0; i+1 < len(rq.header); i += 2 {
				req.Header.Set(rq.header[i], rq.header[i+1])
			}
			resp := ts.send(t, req)
			if rq.what != "a body" && holdsKey(string(resp.body), secretKey) {
				t.Errorf("the key %s in %s: the answer shows it: %d %s", form.name, rq.what, resp.StatusCode, resp.body)
			}
		}
	}
	journal, err := json.Marshal(ts.Journal().Recent(1000))
	if err != nil || holdsKey(string(journal), secretKey) {
		t.Errorf("the journal shows the key: %v %s", err, journal)
	}
	for name, log := range map[string]string{"text": textLog.String(), "JSON": jsonLog.String()} {
		if !strings.Contains(log, "request") {
			t.Errorf("the %s log holds no request: %s", name, log)
		}
		for _, line := range strings.Split(log, "\n") {
			if holdsKey(line, secretKey) {
				t.Errorf("the %s log shows the key: %s", name, line)
			}
		}
	}
}

// FuzzKeyNeverShown is TestKeyNeverShown for any text around the key, in
// any of its forms, wherever it is sent.
func FuzzKeyNeverShown(f *testing.F) {
	for where := range 6 {
		for form := range keyForms {
			f.Add(uint8(where), uint8(form), "", "")
		}
	}
	f.Add(uint8(0), uint8(0), "s3cr", "3y")
	f.Add(uint8(3), uint8(1), "%", "%%")
	f.Add(uint8(2), uint8(5), `\`, `\u00`)
	var log bytes.Buffer
	logger := slog.New(slog.NewMultiHandler(slog.NewTextHandler(&log, nil), slog.NewJSONHandler(&log, nil)))
	srv, err := mockserver.New(mockserver.Config{APIKeys: []string{secretKey}, Logger: logger, JournalSize: 1})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, where, form uint8, prefix, suffix string) {
		k := prefix + keyForms[int(form)%len(keyForms)].encode(secretKey) + suffix
		req := httptest.NewRequest("GET", "http://petmock/v1/pets", strings.NewReader(`{"name":"Rex","categoryId":1}`))
		req.Header.Set("Authorization", "Bearer "+secretKey)
		switch where % 6 {
		case 0:
			raw := "/v1/" + k
			req.URL.Path = raw
			if p, err := url.PathUnescape(raw); err == nil {
				req.URL.Path, req.URL.RawPath = p, raw
			}
		case 1:
			req.Method = k
		case 2:
			req.URL.RawQuery = "status=" + k
		case 3:
			req.Method = "POST"
			req.Header.Set("Content-Type", k)
		case 4:
			req.Header.Set("Prefer", "code="+k)
		case 5:
			req.URL.Path = "/elsewhere/" + k
		}
		log.Reset()
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		srv.FlushLog()
		if holdsKey(rec.Body.String(), secretKey) {
			t.Fatalf("the answer shows the key: %d %s", rec.Code, rec.Body)
		}
		if holdsKey(log.String(), secretKey) {
			t.Fatalf("the log shows the key: %s", log.String())
		}
		journal, err := json.Marshal(srv.Journal().Recent(0))
		if err != nil || holdsKey(string(journal), secretKey) {
			t.Fatalf("the journal shows the key: %v %s", err, journal)
		}
	})
}

// TestKeyAcrossTheJournalCut sends bodies longer than the journal shows,
// with the key, in every form, at every place across the cut: no part of
// it may show at the end of what the journal keeps.
func TestKeyAcrossTheJournalCut(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{APIKeys: []string{secretKey}, JournalSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	const shown = 4 << 10
	for _, form := range keyForms {
		k := form.encode(secretKey)
		for at := shown - len(k); at <= shown; at++ {
			body := strings.Repeat("x", at) + k + strings.Repeat("x", 4*shown)
			req := httptest.NewRequest("POST", "http://petmock/v1/pets", strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+secretKey)
			req.Header.Set("Content-Type", "application/json")
			srv.ServeHTTP(httptest.NewRecorder(), req)

			got := srv.Journal().Recent(0)
			if len(got) != 1 {
				t.Fatalf("Journal: %d exchanges, want 1", len(got))
			}
			m := got[0].Request
			if !m.Truncated || len(m.Body) > shown+len("[redacted]") {
				t.Errorf("key %s at %d: a body of %d bytes, truncated %v, want one cut near %d", form.name, at, len(m.Body), m.Truncated, shown)
			}
			if tail := strings.TrimRight(m.Body, "x"); holdsKey(m.Body, secretKey[:3]) {
				t.Errorf("key %s at %d: the journal shows part of it: ...%s", form.name, at, tail[max(0, len(tail)-40):])
			}
		}
	}
}
