package mockserver

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// deprecation holds the headers every answer of a deprecated operation
// carries: Deprecation (RFC 9745), Sunset (RFC 8594) and a Link to the
// replacement (RFC 8288, rel="successor-version").
type deprecation struct {
	deprecation   string // "@<unix seconds>"
	sunset        string // HTTP-date
	sunsetTime    time.Time
	successorPath string // path of the replacement, such as "/v1/pets"
}

func newDeprecation(doc *openapi3.T, operationID, base string) (*deprecation, error) {
	d, err := spec.OperationDeprecation(doc, operationID)
	if err != nil {
		return nil, err
	}
	path, method, _ := spec.OperationPath(doc, d.ReplacedBy)
	if method != http.MethodGet {
		return nil, fmt.Errorf("%s: replacement %s is not a GET", operationID, d.ReplacedBy)
	}
	return &deprecation{
		deprecation:   "@" + strconv.FormatInt(d.Since.Unix(), 10),
		sunset:        d.Sunset.UTC().Format(http.TimeFormat),
		sunsetTime:    d.Sunset,
		successorPath: base + path,
	}, nil
}

// setHeaders sets the deprecation headers. The Link names the replacement
// filtered by status, when the answer is about a pet that has one.
func (d *deprecation) setHeaders(h http.Header, r *http.Request, status string) {
	h.Set("Deprecation", d.deprecation)
	h.Set("Sunset", d.sunset)
	target := d.successorPath
	if status != "" {
		target += "?status=" + url.QueryEscape(status)
	}
	h.Set("Link", "<"+absoluteURL(r, target)+`>; rel="successor-version"`)
}

// gone is the answer to a deprecated operation after its sunset. The
// headers set before still point to the replacement.
func (d *deprecation) gone(operationID string) *Error {
	return newError(http.StatusGone, operationID, "removed on %s; use GET %s with the status filter instead, as the Link header says",
		d.sunsetTime.Format(time.DateOnly), d.successorPath)
}

// absoluteURL returns the URL of path on the host r was sent to, so that
// a browser app served from another origin can follow it as it is.
func absoluteURL(r *http.Request, path string) string {
	return string(append(appendOrigin(make([]byte, 0, 64+len(path)), r), path...))
}

// appendOrigin appends the scheme and host r was sent to.
func appendOrigin(b []byte, r *http.Request) []byte {
	if r.TLS != nil {
		b = append(b, "https://"...)
	} else {
		b = append(b, "http://"...)
	}
	return append(b, r.Host...)
}
