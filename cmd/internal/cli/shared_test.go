package cli

import (
	"bytes"
	"net/http"
	"os"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	const limit = 5 * time.Second
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		value string
		want  time.Duration
	}{
		{"", time.Second},
		{"soon", time.Second},
		{"-1", time.Second},
		{"0", 0},
		{"2", 2 * time.Second},
		{"999999999999999999999", time.Second}, // not a uint64
		{"86400", limit},
		{now.Add(3 * time.Second).Format(http.TimeFormat), 3 * time.Second},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0},
		{now.Add(time.Hour).Format(http.TimeFormat), limit},
	} {
		h := http.Header{}
		if tc.value != "" {
			h.Set("Retry-After", tc.value)
		}
		if got := RetryAfter(h, now, limit); got != tc.want {
			t.Errorf("Retry-After %q: wait %v, want %v", tc.value, got, tc.want)
		}
	}
}

func TestRedactKey(t *testing.T) {
	for _, tc := range []struct{ s, key, want string }{
		{"refused Bearer s3cret, s3cret", "s3cret", "refused Bearer $PETSTORE_API_KEY, $PETSTORE_API_KEY"},
		{"nothing to hide", "s3cret", "nothing to hide"},
		{"no key set", "", "no key set"},
	} {
		if got := RedactKey(tc.s, tc.key); got != tc.want {
			t.Errorf("RedactKey(%q, %q) = %q, want %q", tc.s, tc.key, got, tc.want)
		}
	}
}

func TestIsTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) || IsTerminal(&bytes.Buffer{}) {
		t.Error("a file or a buffer is taken for a terminal")
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !IsTerminal(tty) {
			t.Error("/dev/tty is not taken for a terminal")
		}
	}
}
