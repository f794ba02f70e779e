package judge

import (
	"net/http"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
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
		{"86400", MaxRetryWait},
		{now.Add(3 * time.Second).Format(http.TimeFormat), 3 * time.Second},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0},
		{now.Add(time.Hour).Format(http.TimeFormat), MaxRetryWait},
	} {
		h := http.Header{}
		if tc.value != "" {
			h.Set("Retry-After", tc.value)
		}
		if got := retryAfter(h, now, MaxRetryWait); got != tc.want {
			t.Errorf("Retry-After %q: wait %v, want %v", tc.value, got, tc.want)
		}
	}
}
