package conformance

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// UnreachableError is returned by Preflight when the base URL gives no
// HTTP answer at all.
type UnreachableError struct {
	URL string
	Err error
}

func (e *UnreachableError) Error() string {
	return "cannot reach " + e.URL + ": " + e.Err.Error()
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// Preflight sends one listPets request, GET {BaseURL}/pets?limit=1, to
// learn whether the deployment answers at all, before any spec runs. It
// returns an *UnreachableError if no status line and headers come within
// the timeout, and otherwise a one-line note on the answer: any answer will
// do, the specs judge it. It reads no body and follows no redirect.
func Preflight(ctx context.Context, cfg Config) (string, error) {
	if err := cfg.Validate(); err != nil {
		return "", err
	}
	base, _ := cfg.baseURL()
	target := base.String() + "/pets?limit=1"
	client := newClient(cfg.Transport)
	defer client.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return "", &UnreachableError{URL: target, Err: err}
	}
	req.Header.Set("Authorization", "Bearer "+cfg.APIKey)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "petstore-conformance")
	resp, err := client.Do(req)
	if err != nil {
		msg := describeNoAnswer(err, errors.Is(ctx.Err(), context.DeadlineExceeded), cfg.timeout())
		return "", &UnreachableError{URL: target, Err: redactError(msg, err, cfg.APIKey)}
	}
	resp.Body.Close()
	note := fmt.Sprintf("GET %s answered %d %s", target, resp.StatusCode, http.StatusText(resp.StatusCode))
	switch {
	case resp.StatusCode == http.StatusNotFound:
		note += "; does the base URL end in the version segment, such as /v1?"
	case resp.StatusCode == http.StatusUnauthorized:
		note += "; the API key was refused"
	case isRedirect(resp.StatusCode, resp.Header):
		note += "; a redirect to " + resp.Header.Get("Location") + ", which the suite does not follow: is the base URL right?"
	}
	return RedactKey(note, cfg.APIKey), nil
}

// redactedError is an error whose message has the API key replaced by
// $PETSTORE_API_KEY.
type redactedError struct {
	msg string
	err error // what msg describes, nil if its message holds the key
}

func (e redactedError) Error() string { return e.msg }
func (e redactedError) Unwrap() error { return e.err }

// redactError returns an error that says msg, about err, with the key
// redacted. It unwraps to err, unless err's own message holds the key.
func redactError(msg string, err error, key string) error {
	if key != "" && strings.Contains(err.Error(), key) {
		err = nil
	}
	return redactedError{msg: RedactKey(msg, key), err: err}
}
