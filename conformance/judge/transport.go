package judge

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// Limits on what the suite takes from a deployment. They lie far above any
// answer a correct Petstore sends, and keep a broken or hostile server from
// exhausting the judge's memory or time.
const (
	// MaxBodyBytes is the most of a response body the suite reads: 8 MiB.
	// The largest answer of the interface, a page of 100 pets, takes a few
	// kilobytes, and still less than a megabyte with names of thousands of
	// characters. A longer body fails its check and is read no further; a
	// body whose Content-Length announces more is not read at all.
	MaxBodyBytes = 8 << 20
	// MaxHeaderBytes is the most of a response's status line and headers
	// the suite reads: 1 MiB.
	MaxHeaderBytes = 1 << 20
	// MaxBodyValues is the most JSON values of a body the suite judges:
	// far more than an answer of the Petstore holds (a page of 100 pets
	// holds about 500), room for a page of a document whose items nest
	// deep (a page of Turbine Labs' shared rules holds over 10,000), and
	// few enough that judging one costs little memory and time, whatever
	// the deployment sends. A body with more fails its check without
	// being decoded.
	MaxBodyValues = 100_000
	// MaxTransportFailures is how many requests of a run may go without a
	// complete answer (none within the timeout, a body cut short or never
	// finished, a body over MaxBodyBytes or MaxBodyValues) before the run stops and skips
	// the checks left. A deployment that stops answering costs a few
	// timeouts, not one for every check.
	MaxTransportFailures = 3
)

// NewHTTPClient returns the suite's HTTP client. It sends over transport, or
// over a clone of http.DefaultTransport that reads at most MaxHeaderBytes
// of headers and asks for no compression. It follows no redirect: the
// interface documents none, so a redirect is an answer to report, and the
// API key goes to the base URL's host only.
//
// Go's transport would add Accept-Encoding: gzip to every request, which
// no document asks for, some constrain (Conjur's takes only base64), and
// the curl line of a report, which repeats the request as sent, would not
// show.
func NewHTTPClient(transport http.RoundTripper) *http.Client {
	if transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxResponseHeaderBytes = MaxHeaderBytes
		t.DisableCompression = true
		transport = t
	}
	return &http.Client{
		Transport:     transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// DescribeNoAnswer says why a request got no HTTP answer. timedOut says
// whether its deadline, timeout after it was sent, had passed.
func DescribeNoAnswer(err error, timedOut bool, timeout time.Duration) string {
	if timedOut {
		return "no answer within " + timeout.String()
	}
	// The request's URL is shown beside this; the url.Error would repeat it.
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if errors.Is(err, io.EOF) {
		return "no answer: the server closed the connection"
	}
	return "no HTTP answer: " + err.Error()
}

// describeBrokenBody says why a body could not be read to its end, after
// got bytes of it. announced is its Content-Length, or -1 if it had none.
func describeBrokenBody(err error, timedOut bool, timeout time.Duration, got int, announced int64) string {
	var what string
	switch {
	case timedOut:
		what = "no complete body within " + timeout.String()
	case errors.Is(err, io.ErrUnexpectedEOF):
		what = "the connection closed mid-body"
	default:
		what = "the body broke off: " + err.Error()
	}
	if announced >= 0 {
		return fmt.Sprintf("%s (received %d of the %d bytes that Content-Length announced)", what, got, announced)
	}
	if got == 1 {
		return what + " (received 1 byte)"
	}
	return fmt.Sprintf("%s (received %d bytes)", what, got)
}

// IsRedirect reports whether an answer is a redirect: a 3xx with a
// Location.
func IsRedirect(status int, header http.Header) bool {
	return status >= 300 && status < 400 && header.Get("Location") != ""
}

// describeRedirect says where a redirect of x leads, and that the suite
// does not go there.
func (c *Client) describeRedirect(x *Exchange) string {
	loc := x.Header.Get("Location")
	from, _ := url.Parse(x.URL)
	to, err := from.Parse(loc)
	switch {
	case err != nil:
		return fmt.Sprintf("redirect not followed: %d to %q, which is not a URL", x.Status, loc)
	case Origin(to) != Origin(c.cfg.Base):
		return fmt.Sprintf("redirect to another host refused: %d to %s; the API key is sent to %s only", x.Status, to, Origin(c.cfg.Base))
	case to.String() == x.URL:
		return fmt.Sprintf("redirect loop refused: %d to the URL that was asked for", x.Status)
	default:
		return fmt.Sprintf("redirect not followed: %d to %s; the interface documents no redirect", x.Status, to)
	}
}

// Origin returns the scheme and host of u, such as "https://h:8443".
func Origin(u *url.URL) string {
	return u.Scheme + "://" + u.Host
}
