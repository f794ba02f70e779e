package judge

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Rate limits are a gap of the interface: a 429 is no answer the document
// describes, yet a deployment may send it. The suite waits as its
// Retry-After asks, within bounds, and sends the request again.
const (
	// MaxRateLimitRetries is how often a request answered 429 is sent
	// again.
	MaxRateLimitRetries = 2
	// MaxRetryWait bounds each wait before sending again, whatever
	// Retry-After asks. Without a Retry-After the suite waits a second.
	MaxRetryWait = 5 * time.Second
	// MaxRateLimited is how many requests of a run may still be answered
	// 429 after their retries, each skipping its check, before the run
	// stops: a deployment that keeps refusing cannot be judged.
	MaxRateLimited = 3
)

// retryAfter returns how long to wait before sending again after an
// answer with header, such as a 429: its Retry-After, in seconds or as an
// HTTP-date, at most limit; a second when it has none or one that does not
// parse. The suite waits at most MaxRetryWait.
//
// petmock seed waits through cli.RetryAfter, the same lines: this library
// cannot import the commands' internal package, and the commands must not
// link the suite for so little.
func retryAfter(header http.Header, now time.Time, limit time.Duration) time.Duration {
	v := strings.TrimSpace(header.Get("Retry-After"))
	wait := time.Second
	if secs, err := strconv.ParseUint(v, 10, 64); err == nil {
		wait = time.Duration(min(secs, uint64(limit/time.Second))) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		wait = max(t.Sub(now), 0)
	}
	return min(wait, limit)
}

// rateLimited returns the verdict on x, a request still answered 429
// after its retries: the check is skipped, since rate limits are not the
// interface's, and the MaxRateLimited-th such request stops the run.
func (c *Client) rateLimited(x *Exchange) error {
	skipped := &Skipped{Reason: x.describe(fmt.Sprintf("rate limited: the deployment answered 429 Too Many Requests %d times in a row, waiting as Retry-After asked (at most %v); rate limits are a gap of the interface, so this is no breach of it, but this check could not be judged", MaxRateLimitRetries+1, MaxRetryWait), "")}
	if n := c.rateLimitedRequests.Add(1); n >= MaxRateLimited {
		return &Aborted{Err: skipped, Reason: fmt.Sprintf("the run stops: %d requests were still rate limited after their retries, so the checks left are skipped; run again later, or with a higher quota", n)}
	}
	return skipped
}
