// Package admin is petmock's control plane: the admin API under
// /__petmock/, described by an OpenAPI document of its own (openapi.yaml,
// served at /__petmock/openapi.yaml), and the console, a web page that
// shows and steers a running mock through it.
//
// New returns the whole petmock handler: the admin API, the console, and
// the API of a mockserver.Server for every other request. Every request of
// the admin API is checked against its document by the edge that checks
// the API's own (mockserver.Edge): routing, the key, parameters and JSON
// bodies, before a handler runs, so that its errors read like the API's.
// The handlers then call the server's control interface (Control), and
// hold only what is HTTP: bodies and their bounds, uploads, the event
// stream, pages of the catalogue, and the console's files.
package admin

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/mockserver/journal"
	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
)

// Prefix is where the admin API lives, outside the API's base path.
const Prefix = "/__petmock/"

// Control is what the admin API asks of a server: the control interface
// of *mockserver.Server.
type Control interface {
	// ServeHTTP answers the API, and the document it serves.
	http.Handler
	Contract() *spec.Contract
	NewEdge(c *spec.Contract, cfg mockserver.EdgeConfig) (*mockserver.Edge, error)
	PublishedKey() bool
	Notes() []string

	Items() *catalogue.Resources
	Steering() *steer.Steering
	Journal() *journal.Journal
	Violations() *journal.Journal
	Backend() string
	Subscribe() *mockserver.Subscription
	DocumentStatus() mockserver.DocumentStatus
}

var _ Control = (*mockserver.Server)(nil)

// Config configures the handler New returns. Its zero value answers only
// petmock's own page, at an IP address or a loopback name (see access.go),
// reads fixtures of up to DefaultMaxFixtureBytes, and logs nothing of its
// own.
type Config struct {
	// Origins are the origins of other pages that may use the admin API
	// from a browser, such as "http://localhost:5173", as petmock
	// --admin-origin names them; "*" allows any. None by default: the
	// console is petmock's own page.
	Origins []string
	// Hosts are the names, besides IP addresses and loopback names, that
	// the admin API and the console answer as Host, as petmock
	// --allow-host names them; "*" answers any, which lets a page that
	// rebinds its name to petmock's address steer it.
	Hosts []string

	// MaxFixtureBytes caps the body of PUT /__petmock/fixture and
	// /__petmock/{resource}, and the bytes of all such bodies read at
	// once: a fixture that would take the bytes in flight past it is
	// refused with 503. Zero means DefaultMaxFixtureBytes.
	MaxFixtureBytes int64
	// StoreCheck is how often an event stream looks at the stores for a
	// change no event announced: a write of the API. Zero means a second.
	StoreCheck time.Duration
	// MaxStreams caps the event streams (GET /__petmock/events) open at
	// once, and MaxStreamsPerClient those of one remote address: past
	// either, a stream is refused with 503 and Retry-After. Zero means
	// DefaultMaxStreams and DefaultMaxStreamsPerClient.
	MaxStreams, MaxStreamsPerClient int
	// Logger receives what the admin API notices beside the request log,
	// which the server writes: an export cut short. Nil means nothing.
	Logger *slog.Logger
}

// DefaultMaxFixtureBytes is the largest fixture the admin API reads by
// default.
const DefaultMaxFixtureBytes = 256 << 20

// maxBodyBytes is the largest body of an admin request other than a
// fixture.
const maxBodyBytes = 64 << 10

// handler is petmock's whole handler: the admin API, the console, and the
// server's API.
type handler struct {
	srv Control
	log *slog.Logger
	// access decides which hosts and origins the admin API answers.
	access *access
	// made makes admin and mux, once, on the first request of the admin
	// API or the console, as makeAdmin says; madeErr is why it could not.
	made    sync.Once
	madeErr error
	// admin answers the requests under Prefix: the edge checks each one,
	// and mux hands it to its endpoint.
	admin http.Handler
	mux   *http.ServeMux
	// atRoot is whether GET / is the console too: unless the document
	// has an operation there, under a base path of "/".
	atRoot bool

	// uploads and streams count what is read and open at once, shared
	// with the handler this one took over from (see NewAfter).
	uploads    *uploads
	streams    *streams
	storeCheck time.Duration
	// keys slows down the addresses whose keys keep failing, shared
	// likewise.
	keys *keyGuard
}

// New returns petmock's handler for srv: the admin API and the console
// under /__petmock/, the console at / unless the document has an operation
// there, and srv for everything else.
func New(srv Control, cfg Config) (http.Handler, error) {
	return NewAfter(nil, srv, cfg)
}

// NewAfter is New for a server that took over from the server of prev, a
// handler New or NewAfter returned, for a new version of the document
// (see mockserver.Server.TakeOver): the event streams prev has open and
// the fixtures it reads count against the same caps as the new handler's,
// and go on, and the caps are prev's, whatever cfg says of them. A nil
// prev is New's.
func NewAfter(prev http.Handler, srv Control, cfg Config) (http.Handler, error) {
	c := srv.Contract()
	access, err := newAccess(cfg)
	if err != nil {
		return nil, err
	}
	keys := newKeyGuard()
	if p, ok := prev.(*handler); ok {
		keys = p.keys
	}
	h := &handler{
		srv:        srv,
		log:        cfg.Logger,
		access:     access,
		atRoot:     !slices.ContainsFunc(c.Operations, func(op *spec.Operation) bool { return op.Base+op.Path == "/" }),
		storeCheck: cfg.StoreCheck,
		keys:       keys,
	}
	if p, ok := prev.(*handler); ok {
		h.uploads, h.streams = p.uploads, p.streams
	} else {
		h.uploads = &uploads{max: cmp.Or(max(cfg.MaxFixtureBytes, 0), DefaultMaxFixtureBytes)}
		h.streams = &streams{
			max:       cmp.Or(max(cfg.MaxStreams, 0), DefaultMaxStreams),
			perClient: cmp.Or(max(cfg.MaxStreamsPerClient, 0), DefaultMaxStreamsPerClient),
		}
	}
	if h.storeCheck <= 0 {
		h.storeCheck = time.Second
	}
	return h, nil
}

// makeAdmin makes the admin API: its document, made concrete for the
// served document's resources and key (see concrete), the edge that checks
// its requests, and the routes to its endpoints. It costs more than all
// petmock does to answer its first request, and the API does not need it:
// it is made on the first request of the admin API or the console.
func (h *handler) makeAdmin() error {
	admin, err := concrete(h.srv.Contract())
	if err != nil {
		return fmt.Errorf("admin document: %w", err)
	}
	edge, err := h.srv.NewEdge(admin, mockserver.EdgeConfig{MaxBodyBytes: maxBodyBytes, Unread: isFixture, Admit: h.access.admit, Guard: h.keys.guard})
	if err != nil {
		return fmt.Errorf("admin document: %w", err)
	}
	h.mux = http.NewServeMux()
	for _, rt := range h.routes() {
		h.mux.HandleFunc(rt.pattern, func(w http.ResponseWriter, r *http.Request) {
			d := r.Context().Value(routedKey{}).(*routed)
			d.err = rt.endpoint(w, r, d.call)
		})
	}
	// Every request the edge lets through has an endpoint, as a test
	// holds the document to the routes: this is in case one had not.
	h.mux.HandleFunc(Prefix, func(w http.ResponseWriter, r *http.Request) {
		d := r.Context().Value(routedKey{}).(*routed)
		d.err = fmt.Errorf("admin: %s %s: no endpoint for operation %s", r.Method, r.URL.Path, d.call.Operation.ID)
	})
	h.admin = edge.Handler(h.dispatch)
	return nil
}

// serveAdmin answers a request of the admin API or the console, making the
// admin API first if it is the first.
func (h *handler) serveAdmin(w http.ResponseWriter, r *http.Request) {
	h.made.Do(func() { h.madeErr = h.makeAdmin() })
	if h.madeErr != nil {
		if h.log != nil {
			h.log.Error("the admin API could not be made", "err", h.madeErr)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		json.NewEncoder(w).Encode(map[string]string{"code": "internal", "message": h.madeErr.Error()})
		return
	}
	h.admin.ServeHTTP(w, r)
}

// endpoint answers one operation of the admin API, once the edge has
// checked the request.
type endpoint func(w http.ResponseWriter, r *http.Request, c *mockserver.Call) error

// route is an endpoint and its ServeMux pattern.
type route struct {
	pattern  string
	endpoint endpoint
}

// routes are the endpoints of the admin API. Each pattern is an operation
// of openapi.yaml, its path below Prefix; TestRoutesAreTheDocument holds
// them to it.
func (h *handler) routes() []route {
	return []route{
		{"GET /__petmock/{$}", h.consolePage},
		{"GET /__petmock/console/{file}", h.consoleFile},
		{"GET /__petmock/openapi.yaml", h.document},
		{"GET /__petmock/health", h.health},
		{"GET /__petmock/contract", h.contract},
		{"GET /__petmock/events", h.events},
		{"POST /__petmock/reset", h.reset},
		{"POST /__petmock/empty", h.empty},
		{"PUT /__petmock/fixture", h.loadFixture},
		{"GET /__petmock/requests", h.journal},
		{"DELETE /__petmock/requests", h.clearJournal},
		{"GET /__petmock/violations", h.violations},
		{"DELETE /__petmock/violations", h.clearViolations},
		{"GET /__petmock/settings", h.settings},
		{"PATCH /__petmock/settings", h.changeSettings},
		{"GET /__petmock/forced", h.forced},
		{"POST /__petmock/forced", h.force},
		{"DELETE /__petmock/forced", h.clearForced},
		{"DELETE /__petmock/forced/{id}", h.removeForced},
		{"GET /__petmock/expectations", h.expectations},
		{"PUT /__petmock/expectations", h.expect},
		{"DELETE /__petmock/expectations", h.clearExpectations},
		{"GET /__petmock/expectations/{id}", h.expectation},
		{"DELETE /__petmock/expectations/{id}", h.removeExpectation},
		{"GET /__petmock/states", h.states},
		{"DELETE /__petmock/states", h.resetStates},
		{"PUT /__petmock/states/{name}", h.setState},
		{"GET /__petmock/verification", h.verification},
		{"DELETE /__petmock/verification", h.resetVerification},
		{"GET /__petmock/catalogue/{resource}", h.browse},
		{"GET /__petmock/{resource}", h.exportItems},
		{"PUT /__petmock/{resource}", h.replaceItems},
	}
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch path := r.URL.Path; {
	case strings.HasPrefix(path, Prefix):
		h.serveAdmin(w, r)
	case path == "/" && h.atRoot:
		// The console at / is the one at /__petmock/, and answers as it
		// does.
		page := *r
		u := *r.URL
		u.Path, u.RawPath = Prefix, ""
		page.URL = &u
		h.serveAdmin(w, &page)
	default:
		h.srv.ServeHTTP(w, r)
	}
}

// routedKey keys a routed request in its context.
type routedKey struct{}

// routed carries a request the edge checked to its endpoint, through the
// ServeMux, and the endpoint's error back.
type routed struct {
	call *mockserver.Call
	err  error
}

// dispatch hands a request the edge checked to its endpoint.
func (h *handler) dispatch(w http.ResponseWriter, r *http.Request, c *mockserver.Call) error {
	d := &routed{call: c}
	h.mux.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), routedKey{}, d)))
	return d.err
}
