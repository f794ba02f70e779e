package mockserver

import (
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// redactor keeps keys out of what the journal shows. Credential headers
// and token parameters are hidden whole; anywhere else, the accepted keys
// are, wherever they stand, as written or URL-encoded.
type redactor struct {
	replacer *strings.Replacer
}

const redacted = "[redacted]"

// credentialHeaders are hidden whole, whatever they hold.
var credentialHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key"}

// tokenParams are query parameters that carry keys (RFC 6750 section 2.3
// and common practice); their values are hidden whole.
var tokenParams = regexp.MustCompile(`(?i)(^|&)(access_token|api_key|apikey|key|token)=[^&]*`)

func newRedactor(keys []string) *redactor {
	var pairs []string
	for _, k := range keys {
		pairs = append(pairs, k, redacted)
		if esc := url.QueryEscape(k); esc != k {
			pairs = append(pairs, esc, redacted)
		}
	}
	return &redactor{replacer: strings.NewReplacer(pairs...)}
}

func (r *redactor) text(s string) string { return r.replacer.Replace(s) }

func (r *redactor) query(q string) string {
	return tokenParams.ReplaceAllString(r.text(q), "${1}${2}="+redacted)
}

// header copies h without its secrets.
func (r *redactor) header(h http.Header) http.Header {
	out := make(http.Header, len(h))
	for name, values := range h {
		if slices.Contains(credentialHeaders, name) {
			out[name] = []string{redacted}
			continue
		}
		vs := make([]string, len(values))
		for i, v := range values {
			vs[i] = r.text(v)
		}
		out[name] = vs
	}
	return out
}
