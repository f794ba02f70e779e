package spec

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// A mock serves every operation of a document at one host, its own; what
// it keeps of a server URL is the path, the base path every operation of
// the server is below. The document's first server gives the base path of
// its operations (Contract.Base); a path or an operation with servers of
// its own is served below the path of its first (Operation.Base), such
// as Twilio's every path, below https://messaging.twilio.com: served at
// the root. A server's URL is read as a client reads it from the document
// it fetched: its variables take their defaults, and a relative URL, such
// as /v1 or v1, or a protocol-relative one, such as //api.example.com/v1,
// is relative to the document's own address, the path of which is /v1.

// serverBase returns the base path of a server: the path of its URL, its
// variables given their defaults, without the slash it may end in; "" for
// the root.
func serverBase(s *openapi3.Server) (string, error) {
	if s == nil {
		return "", nil
	}
	raw := s.URL
	for name, v := range s.Variables {
		if v != nil {
			raw = strings.ReplaceAll(raw, "{"+name+"}", v.Default)
		}
	}
	ref, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("url %q: %v", s.URL, unwrapURLError(err))
	}
	// Relative to a document fetched from a host's root, as a client
	// resolves it against the document's own address.
	u := (&url.URL{Scheme: "http", Host: "document.host", Path: "/"}).ResolveReference(ref)
	return strings.TrimSuffix(u.Path, "/"), nil
}

// unwrapURLError returns what is wrong with a URL, without the URL that
// url.Parse's error repeats.
func unwrapURLError(err error) error {
	if ue, ok := err.(*url.Error); ok {
		return ue.Err
	}
	return err
}

// serversBase returns the base path of the first of servers, "" where
// there is none.
func serversBase(servers openapi3.Servers) (string, error) {
	if len(servers) == 0 {
		return "", nil
	}
	return serverBase(servers[0])
}

// basePath returns the base path of the document's first server, such as
// "/v1": every operation path is relative to it, but those of a path or an
// operation with servers of their own.
func basePath(doc *openapi3.T) (string, error) {
	base, err := serversBase(doc.Servers)
	if err != nil {
		return "", fmt.Errorf("servers.0.%w", err)
	}
	return base, nil
}

// operationBase returns the base path the operation of method of the
// path item of path is served below: that of its own servers, or else of
// its path's, or else base, the document's. With op nil, it is the base
// path of the path's operations without servers of their own.
func operationBase(base, path, method string, item *openapi3.PathItem, op *openapi3.Operation) (string, error) {
	switch {
	case op != nil && op.Servers != nil && len(*op.Servers) > 0:
		b, err := serversBase(*op.Servers)
		if err != nil {
			return "", fmt.Errorf("paths.%s.%s.servers.0.%w", path, strings.ToLower(method), err)
		}
		return b, nil
	case len(item.Servers) > 0:
		b, err := serversBase(item.Servers)
		if err != nil {
			return "", fmt.Errorf("paths.%s.servers.0.%w", path, err)
		}
		return b, nil
	}
	return base, nil
}

// Bases returns the base paths the operations of c are served below, each
// once: c.Base first, then those of the paths and operations with servers
// of their own, in the order of the operations.
func (c *Contract) Bases() []string {
	return slices.Clone(c.bases)
}

// PathBase returns the base path below which the operations of the path
// template path are served, but those with servers of their own: the base
// path of the path's servers, or else c.Base.
func (c *Contract) PathBase(path string) string {
	if b, ok := c.pathBases[path]; ok {
		return b
	}
	return c.Base
}

// readBases reads the base paths of the paths and operations of c.
func (c *Contract) readBases() error {
	c.bases = []string{c.Base}
	for path, item := range c.Doc.Paths.Map() {
		if len(item.Servers) == 0 {
			continue
		}
		b, err := operationBase(c.Base, path, "", item, nil)
		if err != nil {
			return err
		}
		if c.pathBases == nil {
			c.pathBases = map[string]string{}
		}
		c.pathBases[path] = b
	}
	for _, o := range c.Operations {
		if !slices.Contains(c.bases, o.Base) {
			c.bases = append(c.bases, o.Base)
		}
	}
	return nil
}

// NewRouter returns a router that finds the operation of a request by its
// path and its method, whatever the scheme and host: each operation below
// its base path (see Operation.Base). A request outside every base path or
// with an unknown path gets routers.ErrPathNotFound; a known path with
// another method gets routers.ErrMethodNotAllowed. The routes it finds are
// the document's: their Path is the path template as the document writes
// it, below the base path, and their PathItem the document's.
func NewRouter(doc *openapi3.T) (routers.Router, error) {
	base, err := basePath(doc)
	if err != nil {
		return nil, err
	}
	// The router of a document of no servers, whose every path is its
	// base path and the path template: gorillamux, given servers, would
	// ask the request for their hosts.
	hostless := *doc
	hostless.Servers = nil
	hostless.Paths = openapi3.NewPaths()
	r := &baseRouter{doc: doc, paths: map[string]string{}}
	for _, path := range doc.Paths.InMatchingOrder() {
		item := doc.Paths.Value(path)
		ops := item.Operations()
		if len(ops) == 0 {
			b, err := operationBase(base, path, "", item, nil)
			if err != nil {
				return nil, err
			}
			r.add(&hostless, escapedTemplate(b+path), path, bare(item))
			continue
		}
		for _, method := range methodsOf(ops) {
			b, err := operationBase(base, path, method, item, ops[method])
			if err != nil {
				return nil, err
			}
			full := escapedTemplate(b + path)
			at := hostless.Paths.Value(full)
			if at == nil {
				at = bare(item)
				r.add(&hostless, full, path, at)
			}
			if r.paths[full] == path && at.GetOperation(method) == nil {
				at.SetOperation(method, ops[method])
			}
		}
	}
	if r.Router, err = gorillamux.NewRouter(&hostless); err != nil {
		return nil, err
	}
	r.rank(&hostless)
	return r, nil
}

// escapedTemplate returns the path template t with the characters of its
// text outside the parameters' braces that a path cannot hold as they are
// escaped, as a client sends them, and which gorillamux matches: Loket's
// /conceptemployees/{id}/dossier" is asked for as .../dossier%22, which
// the template as written never matched. What a path may hold (RFC 3986's
// pchar: letters, digits, -._~, !$&'()*+,;= and :@) stays as written, as
// clients send it: Azure Batch's /certificates(thumbprintAlgorithm=...).
func escapedTemplate(t string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c == '{':
			depth++
		case c == '}' && depth > 0:
			depth--
		case depth > 0 || pathChar(c):
		default:
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// pathChar reports whether c may stand in a path as it is: a character of
// RFC 3986's pchar, or the slash between segments.
func pathChar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("-._~!$&'()*+,;=:@/%", c) >= 0
}

// bare returns a path item of item's parameters and no operations or
// servers.
func bare(item *openapi3.PathItem) *openapi3.PathItem {
	return &openapi3.PathItem{Parameters: item.Parameters}
}

// baseRouter is gorillamux's router of a document's paths below their
// base paths, whose routes it gives back as the document's.
//
// gorillamux takes the first template that matches a path, in the order
// kin-openapi sorts them: fewer parameters first, then by their text,
// last to first. Of two templates of as many parameters that match one
// path, so that order may take the one of less text, as Adobe AEM's
// /{path}/{name} over /{intermediatePath}/{authorizableId}.ks.html for
// /home/alice.ks.html, whose keystore operation was then never reached;
// or one without the request's method, a 405, where the other takes it.
// The template of more text is the more specific, as OpenAPI reads a
// concrete path before a templated one: where one of more text than the
// route gorillamux found matches too, with the method, it is the route.
type baseRouter struct {
	routers.Router
	doc *openapi3.T
	// paths maps a path of the router, the base path and the template, to
	// the template of the document.
	paths map[string]string
	// bySegments lists the paths of the router of each count of segments,
	// the most text first, for the rivals of the route gorillamux finds.
	bySegments map[int][]ranked
	literal    map[string]int // of each path of the router, its text
	hostless   *openapi3.T    // the router's document, of its paths
}

// ranked is a path of the router, parsed, with its text outside its
// parameters.
type ranked struct {
	full     string
	template *PathTemplate
	literal  int
}

// rank fills bySegments and literal from paths, of hostless, the
// router's document.
func (r *baseRouter) rank(hostless *openapi3.T) {
	r.hostless = hostless
	r.bySegments = map[int][]ranked{}
	r.literal = map[string]int{}
	for full := range r.paths {
		t, err := ParsePath(full)
		if err != nil {
			continue
		}
		n := 0
		for _, s := range t.Segments() {
			n += literalLength(s.Text)
		}
		r.literal[full] = n
		k := len(t.Segments())
		r.bySegments[k] = append(r.bySegments[k], ranked{full: full, template: t, literal: n})
	}
	for _, list := range r.bySegments {
		slices.SortFunc(list, func(a, b ranked) int {
			if c := cmp.Compare(b.literal, a.literal); c != 0 {
				return c
			}
			return strings.Compare(a.full, b.full)
		})
	}
}

// literalLength counts the characters of a segment outside its
// parameters' braces.
func literalLength(segment string) int {
	n, depth := 0, 0
	for _, c := range segment {
		switch {
		case c == '{':
			depth++
		case c == '}' && depth > 0:
			depth--
		case depth == 0:
			n++
		}
	}
	return n
}

// rival returns the path of the router, of more text than least, that
// matches req's path and has its method, with its parameters; "" where
// there is none.
func (r *baseRouter) rival(req *http.Request, least int) (string, map[string]string) {
	path := req.URL.EscapedPath()
	for _, c := range r.bySegments[strings.Count(path, "/")] {
		if c.literal <= least {
			break
		}
		item := r.hostless.Paths.Value(c.full)
		if item == nil || item.GetOperation(req.Method) == nil {
			continue
		}
		if params, ok := c.template.Match(path); ok {
			return c.full, params
		}
	}
	return "", nil
}

// add adds the path item at full, the path path of the document below its
// base path, to the document of the router, unless a path of the document
// took that place first.
func (r *baseRouter) add(hostless *openapi3.T, full, path string, item *openapi3.PathItem) {
	if _, taken := r.paths[full]; taken {
		return
	}
	r.paths[full] = path
	hostless.Paths.Set(full, item)
}

// FindRoute finds the route of a request, as the document's.
func (r *baseRouter) FindRoute(req *http.Request) (*routers.Route, map[string]string, error) {
	if p := req.URL.EscapedPath(); strings.ContainsAny(p, "[]") {
		// A path may carry brackets raw, as browsers send them, or
		// escaped, as the templates have them (escapedTemplate).
		u := *req.URL
		u.RawPath = strings.NewReplacer("[", "%5B", "]", "%5D").Replace(p)
		cp := *req
		cp.URL = &u
		req = &cp
	}
	route, params, err := r.Router.FindRoute(req)
	switch {
	case err == nil:
		if full, p := r.rival(req, r.literal[route.Path]); full != "" {
			route, params = r.route(full, req.Method), p
		}
	case errors.Is(err, routers.ErrMethodNotAllowed):
		full, p := r.rival(req, -1)
		if full == "" {
			return nil, nil, err
		}
		route, params = r.route(full, req.Method), p
	default:
		return nil, nil, err
	}
	path := r.paths[route.Path]
	out := *route
	out.Spec, out.Path, out.PathItem, out.Server = r.doc, path, r.doc.Paths.Value(path), nil
	return &out, params, nil
}

// route returns the route of the router's path full for method.
func (r *baseRouter) route(full, method string) *routers.Route {
	item := r.hostless.Paths.Value(full)
	return &routers.Route{Spec: r.hostless, Path: full, PathItem: item, Method: method, Operation: item.GetOperation(method)}
}
