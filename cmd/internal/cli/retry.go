package cli

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryAfter returns how long a client should wait before sending again
// after an answer with header, such as a 429 or a 503: its Retry-After, in
// seconds or as an HTTP-date, at most limit; a second when it has none or
// one that does not parse. Each command chooses its own limit.
func RetryAfter(header http.Header, now time.Time, limit time.Duration) time.Duration {
	v := strings.TrimSpace(header.Get("Retry-After"))
	wait := time.Second
	if secs, err := strconv.ParseUint(v, 10, 64); err == nil {
		wait = time.Duration(min(secs, uint64(limit/time.Second))) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		wait = max(t.Sub(now), 0)
	}
	return min(wait, limit)
}
