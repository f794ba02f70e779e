package edge

import (
	"net"
	"net/http"
	"strings"
)

// The Link and Location URLs petmock answers, and the servers of the
// document it serves, are absolute, so that a browser app served from
// another origin can follow them as they are. Their origin is the one the
// client used: behind a development proxy or a tunnel, the one the proxy
// names in Forwarded (RFC 7239) or X-Forwarded-Proto and X-Forwarded-Host,
// rather than petmock's own address. petmock is a development tool on a
// trusted network, so it believes whoever sends these headers; it only
// makes sure that they name a scheme and a host, and nothing that could
// put another URL, a path or a quote into an answer, and that they hold
// no key, which an answer header would then repeat (echo.go).

// AbsoluteURL returns the URL of path at the origin r was sent to: the one
// a proxy names in Forwarded or X-Forwarded-Proto and X-Forwarded-Host, or
// else the connection's and the Host header's.
func AbsoluteURL(r *http.Request, path string) string {
	return string(append(AppendOrigin(make([]byte, 0, 64+len(path)), r), path...))
}

// AppendOrigin appends the scheme and host r was sent to, such as
// "http://127.0.0.1:4010".
func AppendOrigin(b []byte, r *http.Request) []byte {
	scheme, host := Origin(r)
	b = append(b, scheme...)
	b = append(b, "://"...)
	return append(b, host...)
}

// Origin returns the scheme and host r was sent to. Each comes from the
// first element of Forwarded, or else from the first value of its
// X-Forwarded header, or else from the connection and the Host header. A
// forwarded scheme other than http or https, or a host that is not a
// plain host[:port], is ignored.
func Origin(r *http.Request) (scheme, host string) {
	scheme, host = "http", r.Host
	if r.TLS != nil {
		scheme = "https"
	}
	h := r.Header
	if len(h["Forwarded"])+len(h["X-Forwarded-Proto"])+len(h["X-Forwarded-Host"]) == 0 {
		return scheme, host
	}
	fwdProto, fwdHost := forwarded(h.Get("Forwarded"))
	if p, ok := validProto(fwdProto); ok {
		scheme = p
	} else if p, ok := validProto(firstValue(h.Get("X-Forwarded-Proto"))); ok {
		scheme = p
	}
	if ValidHost(fwdHost) {
		host = fwdHost
	} else if xh := firstValue(h.Get("X-Forwarded-Host")); ValidHost(xh) {
		host = xh
	}
	return scheme, host
}

// forwarded returns the proto and host parameters of the first element
// of a Forwarded header, the one the proxy nearest the client added.
// Values may be quoted strings; a quoted comma or semicolon does not end
// a parameter.
func forwarded(v string) (proto, host string) {
	start, quoted, escaped := 0, false, false
	for i := 0; i <= len(v); i++ {
		if i < len(v) {
			c := v[i]
			switch {
			case escaped:
				escaped = false
				continue
			case quoted && c == '\\':
				escaped = true
				continue
			case c == '"':
				quoted = !quoted
				continue
			case quoted || (c != ';' && c != ','):
				continue
			}
		}
		name, value, _ := strings.Cut(strings.TrimSpace(v[start:i]), "=")
		if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
			value = value[1 : len(value)-1]
		}
		switch {
		case strings.EqualFold(name, "proto") && proto == "":
			proto = value
		case strings.EqualFold(name, "host") && host == "":
			host = value
		}
		if i == len(v) || v[i] == ',' {
			return proto, host
		}
		start = i + 1
	}
	return proto, host
}

// firstValue returns the first of the comma-separated values of an
// X-Forwarded header, the one the proxy nearest the client added.
func firstValue(v string) string {
	first, _, _ := strings.Cut(v, ",")
	return strings.TrimSpace(first)
}

// validProto returns p in lower case if it is http or https.
func validProto(p string) (string, bool) {
	switch {
	case strings.EqualFold(p, "http"):
		return "http", true
	case strings.EqualFold(p, "https"):
		return "https", true
	}
	return "", false
}

// ValidHost reports whether h is a plain host[:port]: a name or an IPv4
// address of letters, digits, dots, hyphens and underscores (as Docker
// names its services), or an IPv6 address in brackets, and a port of
// digits.
func ValidHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	name, port := h, ""
	if strings.HasPrefix(h, "[") {
		end := strings.IndexByte(h, ']')
		if end < 0 {
			return false
		}
		if ip := net.ParseIP(h[1:end]); ip == nil || !strings.Contains(h[1:end], ":") {
			return false
		}
		name, port = "", h[end+1:]
		if port != "" {
			if port[0] != ':' {
				return false
			}
			port = port[1:]
			if port == "" {
				return false
			}
		}
	} else if i := strings.LastIndexByte(h, ':'); i >= 0 {
		name, port = h[:i], h[i+1:]
		if name == "" || port == "" {
			return false
		}
	}
	if len(port) > 5 || strings.IndexFunc(port, func(c rune) bool { return c < '0' || c > '9' }) >= 0 {
		return false
	}
	return strings.IndexFunc(name, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_')
	}) < 0
}
