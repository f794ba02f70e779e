package conformance

import (
	"context"
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
// returns an *UnreachableError if no HTTP answer comes, and otherwise a
// one-line note on the answer: any answer will do, the specs judge it.
func Preflight(ctx context.Context, cfg Config) (string, error) {
	if err := cfg.Validate(); err != nil {
		return "", err
	}
	base, _ := cfg.baseURL()
	target := base.String() + "/pets?limit=1"
	transport := cfg.Transport
	if transport == nil {
		transport = http.DefaultTransport
	}
	client := &http.Client{
		Transport:     transport,
		Timeout:       cfg.timeout(),
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return "", &UnreachableError{URL: target, Err: err}
	}
	req.Header.Set("Authorization", "Bearer "+cfg.APIKey)
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return "", &UnreachableError{URL: target, Err: redactErr(err, cfg.APIKey)}
	}
	resp.Body.Close()
	note := fmt.Sprintf("GET %s answered %d %s", target, resp.StatusCode, http.StatusText(resp.StatusCode))
	switch resp.StatusCode {
	case http.StatusNotFound:
		note += "; does the base URL end in the version segment, such as /v1?"
	case http.StatusUnauthorized:
		note += "; the API key was refused"
	}
	return note, nil
}

type redactedError struct{ msg string }

func (e redactedError) Error() string { return e.msg }

func redactErr(err error, key string) error {
	if key == "" || !strings.Contains(err.Error(), key) {
		return err
	}
	return redactedError{strings.ReplaceAll(err.Error(), key, keyVar)}
}
