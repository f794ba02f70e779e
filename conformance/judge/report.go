package judge

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// KeyVar stands for the API key wherever a request is shown. Requests are
// built with it and the key is put in its place only on the wire, so what
// is shown can be pasted into a shell that has the variable set.
const KeyVar = "$PETSTORE_API_KEY"

// bodyShown is how much of a response body a failure shows.
const bodyShown = 2048

// shownHeaders are the response headers a failure shows: those the rules
// are about. Others, such as Set-Cookie, may carry secrets.
var shownHeaders = []string{
	"Content-Type", "Content-Length", "Location", "Link", "Deprecation", "Sunset",
	"WWW-Authenticate", "Allow", "Retry-After",
}

// report describes a broken rule: the rule, what was wrong, a curl command
// that repeats the request and what came back. The API key never appears
// in it.
func (x *Exchange) report(r Rule, detail string) string {
	return x.describe("broken rule "+r.ID+": "+r.Text, detail)
}

// describe describes x under a headline: the detail, a curl command that
// repeats the request and what came back. The API key never appears in it.
func (x *Exchange) describe(headline, detail string) string {
	var b strings.Builder
	b.WriteString(headline + "\n")
	if detail != "" {
		fmt.Fprintf(&b, "  %s\n", strings.ReplaceAll(strings.TrimRight(detail, "\n"), "\n", "\n  "))
	}
	b.WriteString("request:\n  ")
	b.WriteString(x.curl())
	b.WriteString("\n")
	if x.Status == 0 {
		return x.redact(b.String())
	}
	fmt.Fprintf(&b, "response:\n  HTTP %d %s\n", x.Status, http.StatusText(x.Status))
	for _, name := range shownHeaders {
		for _, v := range x.Header.Values(name) {
			fmt.Fprintf(&b, "  %s: %s\n", name, v)
		}
	}
	// Redacted before it is cut, so that no part of a key is shown; only
	// as much as can be shown is redacted, as a body may be megabytes.
	shown := x.body
	if room := bodyShown + len(x.key) + 1; len(shown) > room {
		shown = shown[:room]
	}
	body := x.redact(string(shown))
	suffix := ""
	if len(body) > bodyShown {
		body = body[:bodyShown]
		suffix = " … (truncated; " + strconv.Itoa(len(x.body)) + " bytes read)"
	}
	if len(body) == 0 {
		b.WriteString("  (empty body)\n")
	} else {
		fmt.Fprintf(&b, "  %s%s\n", strings.ReplaceAll(strings.TrimRight(body, "\n"), "\n", "\n  "), suffix)
	}
	return x.redact(b.String())
}

// Require returns the verdict that x breaks rule r unless ok, and nil if
// ok. Checks compare in Go and fail through Require, never through a
// Gomega matcher: a matcher's message prints the values it compared,
// unredacted, and those come from the server, which may have echoed the
// key into them.
func (x *Exchange) Require(ok bool, r Rule, detail ...string) error {
	if ok {
		return nil
	}
	return breaks(x, r, strings.Join(detail, "\n"))
}

// redact replaces the API key in s. A server could echo the key in a body
// or header.
func (x *Exchange) redact(s string) string {
	return RedactKey(s, x.key)
}

// curl returns a command that repeats the request as it was sent, which a
// POSIX shell with $PETSTORE_API_KEY set runs as printed. Values holding
// a form of the key are double-quoted so that the shell expands it, in
// the URL too, where the key travels unescaped; HTTP basic credentials go
// as curl's -u, which encodes them; everything else is single-quoted.
func (x *Exchange) curl() string {
	parts := []string{"curl", "-sS", "-i"}
	if x.method != http.MethodGet {
		parts = append(parts, "-X", x.method)
	}
	names := make([]string, 0, len(x.RequestHeader))
	for name := range x.RequestHeader {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if x.basic != nil && http.CanonicalHeaderKey(name) == "Authorization" && http.CanonicalHeaderKey(x.basicHeader) == "Authorization" {
			parts = append(parts, "-u", shellQuote(":"+*x.basic))
			continue
		}
		for _, v := range x.RequestHeader[name] {
			parts = append(parts, "-H", shellQuote(name+": "+v))
		}
	}
	if x.reqBody != nil {
		parts = append(parts, "--data-raw", shellQuote(string(x.reqBody)))
	}
	parts = append(parts, shellQuote(urlShown(x.URL)))
	return strings.Join(parts, " ")
}

// urlShown returns u, as sent with forms of the key escaped in its query,
// with each form as its shell expression, so that a shell expands it.
func urlShown(u string) string {
	for _, f := range wireForms {
		u = strings.ReplaceAll(u, url.QueryEscape(f.Shown), f.Shown)
	}
	return u
}
