// Package mockserver implements petmock: a stateful mock of the Petstore
// API that serves the contract in package spec.
//
// Every request is checked against the document at the edge, before any
// handler runs: routing, authentication, parameters and body. Handlers then
// assume valid input. Every answer is JSON, and every error is an Error body
// whose status is the HTTP status.
package mockserver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/petstore/contract/spec"
)

// Config configures a Server. Its zero value serves the default catalogue
// with DefaultAPIKey, on the real clock, without added latency or failures,
// and logs nothing.
type Config struct {
	// APIKeys are the bearer tokens the server accepts, on the API and the
	// admin API. Empty means DefaultAPIKey.
	APIKeys []string

	// Pets is the catalogue the store starts with, and the one
	// POST /__petmock/reset returns to. Nil means the default catalogue,
	// Generate(Catalogue{Seed: DefaultSeed}); a non-nil empty slice starts
	// empty.
	Pets []Pet

	// Logger receives one line per request: method, path, status and
	// duration. Nil means no logging.
	Logger *slog.Logger

	// Now returns the current time; nil means time.Now. Setting it to a
	// time after the sunset shows what clients get once getPet is removed.
	Now func() time.Time

	// Latency delays every answer under the base path.
	Latency Latency
	// FailRate is the share of requests under the base path answered 503,
	// from 0 to 1.
	FailRate float64
	// ChaosSeed seeds the draws of Latency and FailRate, so that a run
	// repeats.
	ChaosSeed uint64

	// JournalSize is how many requests GET /__petmock/requests keeps.
	// Zero means DefaultJournalSize; a negative size keeps none.
	JournalSize int

	// MaxPets caps the pets the store holds: past it, createPet is
	// refused with 507. Zero means DefaultMaxPets.
	MaxPets int
	// MaxStoreBytes caps the JSON text of all the pets together, since a
	// pet's name may be long. Zero means DefaultMaxStoreBytes.
	MaxStoreBytes int64
	// MaxFixtureBytes caps the body of PUT /__petmock/pets. Zero means
	// DefaultMaxFixtureBytes.
	MaxFixtureBytes int64
}

// Defaults of the store's limits.
const (
	DefaultMaxPets       = 2_000_000
	DefaultMaxStoreBytes = 512 << 20
)

// Server is the mock Petstore, an http.Handler.
type Server struct {
	store     *Store
	start     Mark // the starting catalogue, for reset
	router    routers.Router
	keys      keyring
	log       *slog.Logger
	now       func() time.Time
	chaos     *chaos
	journal   *journal // nil when off
	docs      *servedDocs
	base      string // base path, such as "/v1"
	statuses  []string
	petSchema *openapi3.Schema

	maxFixtureBytes int64

	ops            map[string]*operation // by operation id
	fast           *compiledRouter
	authentication openapi3filter.Options // checks the key
	validation     openapi3filter.Options // checks the rest

	defaultLimit  int
	defaultStatus string
}

// operation is what the server knows of one operation of the document.
type operation struct {
	handle      func(w http.ResponseWriter, r *http.Request, c *call) error
	op          *openapi3.Operation
	security    openapi3.SecurityRequirements
	bearer      bool         // security is exactly a bearer token
	queryParams []string     // names of the declared query parameters
	deprecation *deprecation // nil unless the operation is deprecated

	// params are the compiled parameter checks; paramsCompiled is false
	// when the parameters are not simple enough to compile.
	params         []paramCheck
	paramsCompiled bool
	// body is the compiled check of a JSON body; nil when there is none
	// or it is not simple enough.
	body *objectCheck
	// route is the route of the operation, for openapi3filter;
	// paramsRoute has the operation without its security, for validating
	// the parameters once the key has been checked.
	route, paramsRoute *routers.Route
}

// call is a validated request, as a handler receives it.
type call struct {
	params map[string]string // path parameters
	query  url.Values
	body   any // the decoded JSON body; nil for an operation without one
}

// New returns a Server for cfg.
func New(cfg Config) (*Server, error) {
	doc, err := spec.Load()
	if err != nil {
		return nil, err
	}
	router, err := spec.NewRouter(doc)
	if err != nil {
		return nil, err
	}
	base, err := spec.BasePath(doc)
	if err != nil {
		return nil, err
	}
	keys, err := newKeyring(cfg.APIKeys)
	if err != nil {
		return nil, err
	}
	statuses, err := spec.PetStatuses(doc)
	if err != nil {
		return nil, err
	}
	pets := cfg.Pets
	if pets == nil {
		if pets, err = Generate(Catalogue{Seed: DefaultSeed, Statuses: statuses}); err != nil {
			return nil, err
		}
	}
	limits := Limits{MaxPets: cfg.MaxPets, MaxBytes: cfg.MaxStoreBytes}
	if limits.MaxPets <= 0 {
		limits.MaxPets = DefaultMaxPets
	}
	if limits.MaxBytes <= 0 {
		limits.MaxBytes = DefaultMaxStoreBytes
	}
	if len(pets) > limits.MaxPets {
		return nil, fmt.Errorf("catalogue: %d pets, more than the store may hold (%d)", len(pets), limits.MaxPets)
	}
	store, err := NewStore(statuses, pets)
	if err != nil {
		return nil, fmt.Errorf("catalogue: %w", err)
	}
	if limits.full(store.Len(), store.Bytes()) {
		return nil, fmt.Errorf("catalogue: %d bytes of pets, more than the store may hold (%d)", store.Bytes(), limits.MaxBytes)
	}
	store.SetLimits(limits)
	ch, err := newChaos(cfg.Latency, cfg.FailRate, cfg.ChaosSeed)
	if err != nil {
		return nil, err
	}
	docs, err := newServedDocs(doc, base)
	if err != nil {
		return nil, err
	}
	journalSize := cfg.JournalSize
	if journalSize == 0 {
		journalSize = DefaultJournalSize
	}
	s := &Server{
		store:    store,
		start:    store.Mark(),
		router:   router,
		keys:     keys,
		log:      cfg.Logger,
		now:      cfg.Now,
		chaos:    ch,
		journal:  newJournal(journalSize, keysOrDefault(cfg.APIKeys)),
		docs:     docs,
		base:     base,
		statuses: statuses,
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.maxFixtureBytes = cfg.MaxFixtureBytes
	if s.maxFixtureBytes <= 0 {
		s.maxFixtureBytes = DefaultMaxFixtureBytes
	}
	s.authentication = openapi3filter.Options{AuthenticationFunc: keys.authenticate}
	s.validation = openapi3filter.Options{
		ExcludeRequestBody:  true, // read and checked separately, within MaxBodyBytes
		SkipSettingDefaults: true, // handlers apply defaults; the request is not rewritten
		// The key is checked before, with s.authentication, so that Prefer
		// can force an answer between the key and the rest.
		AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
		SchemaValidationOptions: []openapi3.SchemaValidationOption{
			openapi3.DisableSchemaErrorDetails(),
		},
	}
	if err := s.bind(doc); err != nil {
		return nil, err
	}
	return s, nil
}

// bind reads from the document what the handlers need, and binds a handler
// to every operation. It fails if an operation has no handler.
func (s *Server) bind(doc *openapi3.T) error {
	handlers := map[string]func(http.ResponseWriter, *http.Request, *call) error{
		spec.ListPets:  s.listPets,
		spec.CreatePet: s.createPet,
		spec.GetPet:    s.getPet,
	}
	s.ops = make(map[string]*operation, len(handlers))
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			h, ok := handlers[op.OperationID]
			if !ok {
				return fmt.Errorf("operation %s: no handler", op.OperationID)
			}
			o := &operation{handle: h, op: op, security: doc.Security}
			if op.Security != nil {
				o.security = *op.Security
			}
			o.bearer = bearerOnly(doc, o.security)
			o.params, o.paramsCompiled = compileParams(op)
			if rb := op.RequestBody; rb != nil && rb.Value != nil {
				if mt := rb.Value.Content.Get("application/json"); mt != nil && len(rb.Value.Content) == 1 {
					o.body, _ = compileObject(mt.Schema)
				}
			}
			paramsOnly := *op
			paramsOnly.Security = &openapi3.SecurityRequirements{}
			o.route = &routers.Route{Spec: doc, Path: path, PathItem: item, Method: method, Operation: op}
			o.paramsRoute = &routers.Route{Spec: doc, Path: path, PathItem: item, Method: method, Operation: &paramsOnly}
			for _, p := range op.Parameters {
				if p.Value.In == openapi3.ParameterInQuery {
					o.queryParams = append(o.queryParams, p.Value.Name)
				}
			}
			if op.Deprecated {
				d, err := newDeprecation(doc, op.OperationID, s.base)
				if err != nil {
					return err
				}
				o.deprecation = d
			}
			s.ops[op.OperationID] = o
		}
	}

	s.fast = compileRouter(doc, s.base, s.ops)

	limit, err := queryDefault(doc, spec.ListPets, "limit")
	if err != nil {
		return err
	}
	s.defaultLimit = int(limit.(float64))
	pet := doc.Components.Schemas["Pet"]
	if pet == nil || pet.Value == nil {
		return errors.New("schema Pet is missing")
	}
	s.petSchema = pet.Value
	newPet := doc.Components.Schemas["NewPet"]
	if newPet == nil || newPet.Value == nil {
		return errors.New("schema NewPet is missing")
	}
	s.defaultStatus, _ = newPet.Value.Extensions["x-petmock-default-status"].(string)
	if s.defaultStatus != "" && !slices.Contains(s.statuses, s.defaultStatus) {
		return fmt.Errorf("x-petmock-default-status %q is not a PetStatus", s.defaultStatus)
	}
	return nil
}

func queryDefault(doc *openapi3.T, operationID, name string) (any, error) {
	op := spec.Operation(doc, operationID)
	if op == nil {
		return nil, fmt.Errorf("operation %s is missing", operationID)
	}
	p := op.Parameters.GetByInAndName(openapi3.ParameterInQuery, name)
	if p == nil || p.Schema == nil || p.Schema.Value.Default == nil {
		return nil, fmt.Errorf("%s: parameter %s has no default", operationID, name)
	}
	return p.Schema.Value.Default, nil
}

// Store returns the server's store.
func (s *Server) Store() *Store { return s.store }

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	underBase := strings.HasPrefix(r.URL.Path, s.base+"/")
	journal := s.journal != nil && underBase
	if s.log == nil && !journal {
		s.serve(w, r, nil)
		return
	}
	start := time.Now()
	rec := &recorder{ResponseWriter: w, keep: journal}
	s.serve(rec, r, rec)
	elapsed := time.Since(start)
	if s.log != nil {
		// The record is built by hand: Logger.LogAttrs would walk the
		// stack for a source position that nobody reads.
		if h := s.log.Handler(); h.Enabled(r.Context(), slog.LevelInfo) {
			line := slog.NewRecord(start.Add(elapsed), slog.LevelInfo, "request", 0)
			line.AddAttrs(
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.Int("status", rec.status),
				slog.Duration("duration", elapsed),
			)
			h.Handle(r.Context(), line)
		}
	}
	if journal {
		s.journal.add(entry{
			start:      start,
			elapsed:    elapsed,
			method:     r.Method,
			path:       r.URL.Path,
			query:      r.URL.RawQuery,
			status:     rec.status,
			reqHeader:  r.Header,
			reqBody:    keepBody(rec.reqBody),
			respHeader: w.Header(),
			respBody:   rec.body,
		})
	}
}

// serve answers a request: the API under the base path, the admin API,
// the document, or a 404. rec, when not nil, is told the request body.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, rec *recorder) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			if s.log != nil {
				s.log.Error("handler panicked", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			}
			writeError(w, newError(http.StatusInternalServerError, "server", "internal error"))
		}
	}()
	setCORS(w.Header(), r)
	if isPreflight(r) {
		s.preflight(w, r)
		return
	}
	var err error
	switch path := r.URL.Path; {
	case strings.HasPrefix(path, AdminPrefix):
		err = s.serveAdmin(w, r)
	case path == docYAMLPath || path == docJSONPath:
		err = s.serveDoc(w, r)
	default:
		err = s.serveAPI(w, r, rec)
	}
	if err != nil {
		writeError(w, s.asError(err))
	}
}

// serveAPI runs the request pipeline of the API: route, deprecation
// headers, the key, Prefer, injected latency and failures, the sunset,
// forced answers, parameters, body, and at last the handler.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, rec *recorder) error {
	op, params, err := s.route(r)
	if err != nil {
		return err
	}
	if op.deprecation != nil {
		op.deprecation.setHeaders(w.Header(), r, "")
	}
	switch {
	case op.bearer:
		if e := s.keys.check(r.Header.Values("Authorization")); e != nil {
			return e
		}
	case len(op.security) > 0:
		in := validationInput(r, op.route, params, nil, nil)
		in.Options = &s.authentication
		if err := openapi3filter.ValidateSecurityRequirements(r.Context(), in, op.security); err != nil {
			return requestError(err)
		}
	}
	var prefs preferences
	if values := r.Header.Values("Prefer"); len(values) > 0 {
		var e *Error
		if prefs, e = parsePrefer(values); e != nil {
			return e
		}
	}
	// Latency and failures come after the key, so that a request without
	// one learns nothing else, and stray requests do not draw from the
	// seeded source.
	if err := s.injectChaos(r, &prefs); err != nil {
		return err
	}
	// A removed operation is gone, whatever else a client prefers.
	var answer *Error
	if d := op.deprecation; d != nil {
		now := prefs.now
		if now.IsZero() {
			now = s.now()
		}
		if !now.Before(d.sunsetTime) {
			answer = d.gone(op.op.OperationID)
		}
	}
	if answer == nil && prefs.code != 0 {
		var applied bool
		if answer, applied = forced(op.op, prefs.code); applied {
			prefs.applied = append(prefs.applied, "code="+strconv.Itoa(prefs.code))
		}
	}
	if len(prefs.applied) > 0 {
		w.Header().Set("Preference-Applied", strings.Join(prefs.applied, ", "))
	}
	if answer != nil {
		return answer
	}

	c := &call{params: params}
	if len(op.queryParams) > 0 && r.URL.RawQuery != "" {
		c.query, _ = url.ParseQuery(r.URL.RawQuery) // a malformed pair is dropped, as openapi3filter does
		for _, name := range op.queryParams {
			if len(c.query[name]) > 1 {
				return badRequest(name, "must be given at most once")
			}
		}
	}
	if !op.paramsCompiled || !paramsOK(op.params, c.query, params) {
		in := validationInput(r, op.paramsRoute, params, c.query, nil)
		in.Options = &s.validation
		if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
			return requestError(err)
		}
	}
	if rb := op.op.RequestBody; rb != nil {
		if c.body, err = s.validateBody(r, op, params, rb.Value, rec); err != nil {
			return err
		}
	}
	return op.handle(w, r, c)
}

// validationInput is the input of openapi3filter for r, with body, which
// may be nil, as its body. The body a client sent is kept away from
// openapi3filter, which would read all of it, whatever its size, before
// even checking the key.
func validationInput(r *http.Request, route *routers.Route, params map[string]string, query url.Values, body []byte) *openapi3filter.RequestValidationInput {
	req := *r
	req.Body = http.NoBody
	if body != nil {
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
	}
	return &openapi3filter.RequestValidationInput{Request: &req, PathParams: params, QueryParams: query, Route: route}
}

// route finds the operation of a request, with the compiled router when
// it can tell, and with openapi3filter's otherwise.
func (s *Server) route(r *http.Request) (*operation, map[string]string, error) {
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	if op, params, ok := s.fast.find(method, r.URL); ok {
		return op, params, nil
	}
	route, params, err := s.findRoute(r)
	if err != nil {
		return nil, nil, err
	}
	return s.ops[route.Operation.OperationID], params, nil
}

// injectChaos delays the answer, by Prefer: delay= or else by the
// configured latency, and fails it with 503 at the configured rate.
func (s *Server) injectChaos(r *http.Request, prefs *preferences) error {
	var delay time.Duration
	var fail bool
	if s.chaos.enabled() {
		delay, fail = s.chaos.draw()
	}
	if prefs.hasDelay {
		delay = prefs.delay
		prefs.applied = append(prefs.applied, "delay="+strconv.FormatInt(prefs.delay.Milliseconds(), 10))
	}
	if !sleep(r.Context(), delay) {
		return newError(http.StatusServiceUnavailable, "request", "cancelled by the client during the delay")
	}
	if fail {
		return newError(http.StatusServiceUnavailable, "server", "injected failure (fail rate %v)", s.chaos.failRate).
			withHeader("Retry-After", "1")
	}
	return nil
}

// findRoute finds the operation of a request. A HEAD request is routed as
// a GET; net/http drops the body of its answer.
func (s *Server) findRoute(r *http.Request) (*routers.Route, map[string]string, error) {
	rr := r
	if r.Method == http.MethodHead {
		get := *r
		get.Method = http.MethodGet
		rr = &get
	}
	route, params, err := s.router.FindRoute(rr)
	switch {
	case err == nil:
		return route, params, nil
	case errors.Is(err, routers.ErrMethodNotAllowed):
		allow := s.allowedMethods(r)
		return nil, nil, newError(http.StatusMethodNotAllowed, "method",
			"%s is not allowed on %s; use %s", r.Method, r.URL.Path, allow).withHeader("Allow", allow)
	default:
		return nil, nil, newError(http.StatusNotFound, "path", "%s is not an operation of this API", r.URL.Path)
	}
}

// allowedMethods lists the methods the path of r accepts, for Allow.
func (s *Server) allowedMethods(r *http.Request) string {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := *r
		probe.Method = m
		if _, _, err := s.router.FindRoute(&probe); err == nil {
			allow = append(allow, m)
			if m == http.MethodGet {
				allow = append(allow, http.MethodHead)
			}
		}
	}
	return strings.Join(append(allow, http.MethodOptions), ", ")
}

// asError turns what a handler returned into the *Error to answer with.
func (s *Server) asError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if s.log != nil {
		s.log.Error("internal error", "err", err)
	}
	return newError(http.StatusInternalServerError, "server", "internal error")
}
