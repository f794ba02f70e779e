package proxy

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// Answer is the backend's answer to a forwarded request, read up to the
// bound.
type Answer struct {
	Status int
	// Header is the answer's header, without those of one hop.
	Header http.Header
	// Body is the body, all of it when Whole, and otherwise its first
	// bytes: the rest comes as Relay writes it.
	Body  []byte
	Whole bool

	head   bool          // the answer of a HEAD, with no body whatever its Content-Length
	rest   io.ReadCloser // the body's rest; nil when Whole
	length int64         // of the whole body, as the backend announced it; -1 unknown
	cancel context.CancelFunc
}

// read reads resp, its body up to the bound.
func (b *Backend) read(resp *http.Response) (*Answer, error) {
	a := &Answer{
		Status: resp.StatusCode,
		Header: make(http.Header, len(resp.Header)),
		head:   resp.Request != nil && resp.Request.Method == http.MethodHead,
		length: resp.ContentLength,
	}
	copyHeader(a.Header, resp.Header)
	if n := resp.ContentLength; n >= 0 && n <= b.max {
		// The size is known: read exactly that, in one allocation.
		a.Body = make([]byte, n)
		if _, err := io.ReadFull(resp.Body, a.Body); err != nil {
			return nil, err
		}
		a.Whole = true
		resp.Body.Close()
		return a, nil
	}
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(resp.Body, b.max+1))
	if err != nil {
		return nil, err
	}
	a.Body = buf.Bytes()
	if n <= b.max {
		a.Whole = true
		resp.Body.Close()
		return a, nil
	}
	a.rest = resp.Body
	return a, nil
}

// Close ends the exchange: it drops the rest of a body Relay did not
// write.
func (a *Answer) Close() {
	if a.rest != nil {
		a.rest.Close()
	}
	if a.cancel != nil {
		a.cancel()
	}
}

// Relay writes the status and the body of a to w, whose header the caller
// set, with a's Content-Length, or none when the backend gave none for a
// body larger than was read: the rest is copied as it comes.
func (a *Answer) Relay(w http.ResponseWriter) error {
	h := w.Header()
	switch {
	case a.head:
		// The Content-Length of a HEAD is that of the GET, as the backend
		// said it.
		if a.length >= 0 {
			h.Set("Content-Length", strconv.FormatInt(a.length, 10))
		}
	case a.Whole:
		h.Set("Content-Length", strconv.Itoa(len(a.Body)))
	case a.length >= 0:
		h.Set("Content-Length", strconv.FormatInt(a.length, 10))
	default:
		h.Del("Content-Length")
	}
	w.WriteHeader(a.Status)
	if a.head {
		return nil
	}
	if _, err := w.Write(a.Body); err != nil {
		return err
	}
	if a.Whole {
		return nil
	}
	_, err := io.Copy(w, a.rest)
	return err
}

// hopHeaders are the headers of one hop (RFC 9110, section 7.6.1), which a
// proxy does not forward, and Content-Length, which it sets for what it
// sends.
var hopHeaders = []string{
	"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
	"Te", "Trailer", "Transfer-Encoding", "Upgrade", "Content-Length",
}

// copyHeader copies the header src into dst, but for the headers of one
// hop, and those src's Connection names.
func copyHeader(dst, src http.Header) {
	var named []string
	for _, v := range src["Connection"] {
		for _, name := range strings.Split(v, ",") {
			if name = strings.TrimSpace(name); name != "" {
				named = append(named, http.CanonicalHeaderKey(name))
			}
		}
	}
	for name, values := range src {
		if isHop(name, named) {
			continue
		}
		dst[name] = append([]string(nil), values...)
	}
}

func isHop(name string, named []string) bool {
	for _, h := range hopHeaders {
		if name == h {
			return true
		}
	}
	for _, h := range named {
		if name == h {
			return true
		}
	}
	return false
}

// Rebase makes the URLs of the headers of an answer that lead to the
// backend lead to petmock instead, to public, its base URL: Location,
// Content-Location and the targets of Link. A client that follows one
// stays behind petmock; a URL that leads elsewhere is left as it is.
func (b *Backend) Rebase(h http.Header, public string) {
	from := b.base.String()
	rebase := func(v string) string {
		if rest, ok := strings.CutPrefix(v, from); ok && (rest == "" || strings.IndexByte("/?#", rest[0]) >= 0) {
			return public + rest
		}
		return v
	}
	for _, name := range []string{"Location", "Content-Location"} {
		for i, v := range h[name] {
			h[name][i] = rebase(v)
		}
	}
	for i, v := range h["Link"] {
		if !strings.Contains(v, from) {
			continue
		}
		var out strings.Builder
		for {
			open := strings.IndexByte(v, '<')
			end := strings.IndexByte(v[open+1:], '>')
			if open < 0 || end < 0 {
				out.WriteString(v)
				break
			}
			end += open + 1
			out.WriteString(v[:open+1])
			out.WriteString(rebase(v[open+1 : end]))
			v = v[end:]
		}
		h["Link"][i] = out.String()
	}
}
