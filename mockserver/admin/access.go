package admin

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/petstore/contract/mockserver/edge"
)

// The control plane answers its own page only. A web page the developer
// visits while petmock runs could otherwise read the journal and change
// the settings with the published key: cross-origin, through CORS, or
// same-origin, by DNS rebinding, where a name of the attacker's comes to
// point at 127.0.0.1. So the admin API and the console refuse
//
//   - a request whose Host is none of petmock's names: an IP address, a
//     loopback name (localhost, *.localhost) or a name given in
//     Config.Hosts (petmock --allow-host). A page that rebinds its own
//     name sends that name, and gets 421;
//   - a request from a browser page of another origin, which the browser
//     names in Origin, unless Config.Origins lists it (petmock
//     --admin-origin): 403, preflights included, and no CORS header, so
//     the browser neither sends the request nor shows the answer.
//
// An IP address is always taken as Host: a page can only make a browser
// send one as Host by being served from that address, and then its origin
// is petmock's own. The API keeps its CORS for apps on dev servers, and
// takes any Host, as docs/hardening.md explains.

// Codes of the admin API's refusals of other pages, which the API never
// sends.
const (
	CodeForbiddenOrigin = "forbidden_origin"
	CodeMisdirected     = "misdirected_request"
)

// access decides which hosts and origins the control plane answers.
type access struct {
	anyHost   bool
	hosts     []string // lower case, without a port
	anyOrigin bool
	origins   []string // as Origin sends them: scheme://host[:port], lower case
}

// newAccess checks and keeps the hosts and origins of cfg.
func newAccess(cfg Config) (*access, error) {
	a := &access{}
	for _, h := range cfg.Hosts {
		if h == "*" {
			a.anyHost = true
			continue
		}
		name, err := ParseHost(h)
		if err != nil {
			return nil, err
		}
		a.hosts = append(a.hosts, name)
	}
	for _, o := range cfg.Origins {
		if o == "*" {
			a.anyOrigin = true
			continue
		}
		origin, err := ParseOrigin(o)
		if err != nil {
			return nil, err
		}
		a.origins = append(a.origins, origin)
	}
	return a, nil
}

// ParseHost returns a host name as the control plane compares it with a
// request's Host, from what a user typed, such as "petmock.test" or
// "petmock.test:4010": in lower case, without the port, which must be a
// number.
func ParseHost(s string) (string, error) {
	name, ok := splitHost(s)
	if !ok || name == "" || strings.ContainsAny(name, "/?#@ \t") {
		return "", fmt.Errorf("host %q: want a name such as petmock.test, or * for any", s)
	}
	return name, nil
}

// ParseOrigin returns an origin as a browser sends it in Origin, such as
// "http://localhost:5173", from what a user typed: a scheme of http or
// https, a host and maybe a port, with no path, in lower case.
func ParseOrigin(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("origin %q: want scheme://host[:port], such as http://localhost:5173", s)
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), nil
}

// admit refuses a request of another host or origin; see above.
func (a *access) admit(r *http.Request) error {
	name, ok := splitHost(r.Host)
	if !ok {
		return &edge.Error{Status: http.StatusMisdirectedRequest, Code: CodeMisdirected, Message: fmt.Sprintf(
			"host: %q is no host[:port] whose port is a number, which petmock's control plane answers, such as 127.0.0.1:4010", r.Host)}
	}
	if !a.hostAllowed(name) {
		return &edge.Error{Status: http.StatusMisdirectedRequest, Code: CodeMisdirected, Message: fmt.Sprintf(
			"host: %q is not a name petmock's control plane answers to, which keeps pages that rebind their name to this address out; "+
				"start petmock with --allow-host %s to answer it", name, name)}
	}
	origin := r.Header.Get("Origin")
	if origin == "" || a.originAllowed(r, origin) {
		return nil
	}
	return &edge.Error{Status: http.StatusForbidden, Code: CodeForbiddenOrigin, Message: fmt.Sprintf(
		"origin: a page of %q may not use petmock's control plane; start petmock with --admin-origin %s to allow it", origin, origin)}
}

// hostAllowed reports whether the control plane answers name, the name
// of a request's Host as splitHost reads it.
func (a *access) hostAllowed(name string) bool {
	switch {
	case a.anyHost, name == "":
		// An HTTP/1.0 request may leave Host out; a browser never does.
		return true
	case net.ParseIP(name) != nil, name == "localhost", strings.HasSuffix(name, ".localhost"):
		return true
	}
	return slices.Contains(a.hosts, name)
}

// splitHost returns the name of a host[:port] in lower case, without the
// port, the brackets of an IPv6 address or a final dot, and whether it is
// one: a port, when there is one, is a number up to 65535,
// so that 127.0.0.1:4010.evil.example, a name of a page's choosing that
// net.SplitHostPort reads as 127.0.0.1 with an odd port, is none. An IPv6
// address with a port is in brackets; without one, it may be bare.
func splitHost(host string) (string, bool) {
	name, port := host, ""
	switch i := strings.LastIndexByte(host, ':'); {
	case strings.HasPrefix(host, "["):
		end := strings.IndexByte(host, ']')
		if end < 0 {
			return "", false
		}
		name, rest := host[1:end], host[end+1:]
		if rest != "" {
			p, ok := strings.CutPrefix(rest, ":")
			if !ok || !isPort(p) {
				return "", false
			}
		}
		if net.ParseIP(name) == nil {
			return "", false
		}
		return strings.ToLower(name), true
	case i < 0:
	case strings.Count(host, ":") > 1:
		if net.ParseIP(host) == nil {
			return "", false
		}
	default:
		name, port = host[:i], host[i+1:]
		if !isPort(port) {
			return "", false
		}
	}
	if strings.ContainsAny(name, ":[]") {
		return "", false
	}
	return strings.TrimSuffix(strings.ToLower(name), "."), true
}

// isPort reports whether p is a port of a Host: empty, as RFC 3986 allows
// after a colon, or a number up to 65535.
func isPort(p string) bool {
	if p == "" {
		return true
	}
	if len(p) > 5 || strings.ContainsFunc(p, func(r rune) bool { return r < '0' || r > '9' }) {
		return false
	}
	n := 0
	for _, c := range p {
		n = n*10 + int(c-'0')
	}
	return n <= 65535
}

// originAllowed reports whether a page of origin may use the control
// plane: petmock's own page, or one of the allowed origins.
func (a *access) originAllowed(r *http.Request, origin string) bool {
	origin = strings.ToLower(origin)
	if a.anyOrigin || slices.Contains(a.origins, origin) {
		return true
	}
	// The console's own requests: a browser names the origin of the page
	// in Origin on a POST, PATCH or DELETE of its own origin too.
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return origin == strings.ToLower(scheme+"://"+r.Host) || origin == strings.ToLower(edge.AbsoluteURL(r, ""))
}
