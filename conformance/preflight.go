package conformance

import (
	"context"
	"errors"
	"fmt"
	"mime"
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

// SetupError is returned by Preflight when the answer shows a mistake in
// the run's setup rather than in the deployment: the key is refused, or
// the base URL is not the API's. Judging then would only blame the
// deployment for every check.
type SetupError struct {
	// Answer says what the preflight request got, such as "GET
	// https://h/v1/pets?limit=1 answered 401 Unauthorized".
	Answer string
	// Fix says what to change.
	Fix string
}

func (e *SetupError) Error() string { return e.Answer + ": " + e.Fix }

// Preflight sends one listPets request, GET {BaseURL}/pets?limit=1, to
// learn whether the run can judge the deployment at all, before any spec
// runs. It returns an *UnreachableError if no status line and headers come
// within the timeout, a *SetupError if the answer shows that the key is
// refused (401, 403) or that the base URL is not the API's (404, an HTML
// page, a redirect), and otherwise a one-line note on the answer: the
// specs judge it. It reads no body and follows no redirect.
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
	answer := fmt.Sprintf("GET %s answered %d %s", target, resp.StatusCode, http.StatusText(resp.StatusCode))
	setup := func(fix string) (string, error) {
		return "", &SetupError{Answer: redactKey(answer, cfg.APIKey), Fix: redactKey(fix, cfg.APIKey)}
	}
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return setup("the API key was refused; check --api-key or " + keyEnvName + ". A deployment that refuses every key looks the same: the suite cannot judge it without a key it accepts")
	case resp.StatusCode == http.StatusNotFound:
		return setup("the base URL is not the API's: does it end in the version segment, such as /v1?")
	case isRedirect(resp.StatusCode, resp.Header):
		return setup("a redirect to " + resp.Header.Get("Location") + ", which the suite does not follow: is the base URL right (https rather than http, or the API rather than a login page)?")
	case mediaType == "text/html":
		return setup("an HTML page, not the API: is the base URL the API's, such as https://petstore.example.com/v1?")
	}
	return redactKey(answer, cfg.APIKey), nil
}

// keyEnvName is the variable the commands read the key from.
const keyEnvName = "PETSTORE_API_KEY"

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
	return redactedError{msg: redactKey(msg, key), err: err}
}
