package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/petstore/contract/cmd/internal/cli"
	"github.com/petstore/contract/spec"
)

// checkBaseURL sends one request before a seed run, a GET of the list of
// the resource being seeded, so that a wrong base URL or key gets one
// line that says what is likely wrong, rather than a failure for each of
// thousands of creates. client follows no redirect and bounds the
// request by --timeout. A deployment that answers anything else, a 429
// or a 503 say, is left to the run and its retries, as is a resource
// without a list, such as Swagger Petstore v3's /pet, which has nothing
// to check with. The message never shows the key.
func checkBaseURL(ctx context.Context, client *http.Client, o seedOptions, res *spec.Resource) error {
	if res.List == nil {
		return nil
	}
	u, err := url.Parse(o.baseURL + res.CollectionPath)
	if err != nil {
		return usagef("--base-url %q: %v", o.baseURL, err)
	}
	if p := res.Paging; p.Limit != "" {
		u.RawQuery = url.Values{p.Limit: {strconv.Itoa(max(1, p.Min))}}.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return usagef("--base-url %q: %v", o.baseURL, err)
	}
	presentKey(req, res.List, o.apiKey)
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return usageError{errors.New(cli.RedactKey(noAnswer(req, err, o.timeout), o.apiKey))}
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	if msg := badBaseURL(req, resp, o.baseURL); msg != "" {
		return usageError{errors.New(cli.RedactKey(msg, o.apiKey))}
	}
	return nil
}

// badBaseURL returns what an answer to the check says is wrong with the
// base URL or the key, or "" when it does not show a mistake.
func badBaseURL(req *http.Request, resp *http.Response, base string) string {
	asked := "GET " + req.URL.String()
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch status := resp.StatusCode; {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return fmt.Sprintf("the API key was refused: %s answered %d; check --api-key or PETSTORE_API_KEY; a deployment that refuses every key looks the same", asked, status)
	case status == http.StatusNotFound:
		return fmt.Sprintf("--base-url %s: %s answered 404: is the base URL the API's, ending in its version segment such as /v1?", base, asked)
	case status >= 300 && status < 400:
		where := "nowhere (no Location)"
		if loc, err := resp.Location(); err == nil {
			where = loc.String()
		}
		return fmt.Sprintf("--base-url %s: %s redirects (%d) to %s, which is not followed: a login page or a wrong scheme (http for https) is likely; give the API's own base URL", base, asked, status, where)
	case status >= 200 && status < 300 && mediaType == "text/html":
		return fmt.Sprintf("--base-url %s: %s answered a web page (text/html): this base URL is not the API; give the API's, ending in its version segment such as /v1", base, asked)
	}
	return ""
}

// noAnswer says that the check got no answer, and why.
func noAnswer(req *http.Request, err error, timeout time.Duration) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return fmt.Sprintf("--base-url: GET %s: no answer within %s", req.URL, timeout)
		}
		err = ue.Err
	}
	return fmt.Sprintf("--base-url: GET %s: no answer: %v", req.URL, err)
}
