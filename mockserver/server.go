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
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/petstore/contract/spec"
)

// Config configures a Server. Its zero value serves the default catalogue
// with DefaultAPIKey and logs nothing.
type Config struct {
	// APIKeys are the bearer tokens the server accepts. Empty means
	// DefaultAPIKey.
	APIKeys []string

	// Pets is the catalogue the store starts with. Nil means the default
	// catalogue, Generate(Catalogue{Seed: DefaultSeed}); a non-nil empty
	// slice starts empty.
	Pets []Pet

	// Logger receives one line per request: method, path, status and
	// duration. Nil means no logging.
	Logger *slog.Logger
}

// Server is the mock Petstore, an http.Handler.
type Server struct {
	store    *Store
	router   routers.Router
	keys     keyring
	log      *slog.Logger
	base     string // base path, such as "/v1"
	statuses []string

	ops        map[string]*operation // by operation id
	validation openapi3filter.Options

	defaultLimit  int
	defaultStatus string
}

// operation is what the server knows of one operation of the document.
type operation struct {
	handle      func(w http.ResponseWriter, r *http.Request, c *call) error
	queryParams []string     // names of the declared query parameters
	deprecation *deprecation // nil unless the operation is deprecated
}

// call is a validated request, as a handler receives it.
type call struct {
	params map[string]string // path parameters
	query  url.Values
	body   []byte // nil for an operation without a body
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
	store, err := NewStore(statuses, pets)
	if err != nil {
		return nil, fmt.Errorf("catalogue: %w", err)
	}
	s := &Server{
		store:    store,
		router:   router,
		keys:     keys,
		log:      cfg.Logger,
		base:     base,
		statuses: statuses,
	}
	s.validation = openapi3filter.Options{
		ExcludeRequestBody:  true, // read and checked separately, within MaxBodyBytes
		SkipSettingDefaults: true, // handlers apply defaults; the request is not rewritten
		AuthenticationFunc:  keys.authenticate,
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
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			h, ok := handlers[op.OperationID]
			if !ok {
				return fmt.Errorf("operation %s: no handler", op.OperationID)
			}
			o := &operation{handle: h}
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

	limit, err := queryDefault(doc, spec.ListPets, "limit")
	if err != nil {
		return err
	}
	s.defaultLimit = int(limit.(float64))
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
	if s.log == nil {
		s.serve(w, r)
		return
	}
	start := time.Now()
	rec := &statusRecorder{ResponseWriter: w}
	s.serve(rec, r)
	s.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
		slog.String("method", r.Method),
		slog.String("path", r.URL.Path),
		slog.Int("status", rec.status),
		slog.Duration("duration", time.Since(start)),
	)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			if s.log != nil {
				s.log.Error("handler panicked", "method", r.Method, "path", r.URL.Path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			}
			writeError(w, newError(http.StatusInternalServerError, CodeInternal, "server: internal error"))
		}
	}()
	setCORS(w.Header(), r)
	if isPreflight(r) {
		s.preflight(w, r)
		return
	}
	if err := s.dispatch(w, r); err != nil {
		writeError(w, s.asError(err))
	}
}

// dispatch runs the request pipeline: route, deprecation headers,
// authentication and parameters, body, then the handler.
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request) error {
	route, params, err := s.findRoute(r)
	if err != nil {
		return err
	}
	op := s.ops[route.Operation.OperationID]
	if op.deprecation != nil {
		op.deprecation.setHeaders(w.Header(), r, "")
	}

	// The body is kept away from openapi3filter, which would read all of
	// it, whatever its size, before even checking the key.
	bodiless := *r
	bodiless.Body = http.NoBody
	in := &openapi3filter.RequestValidationInput{
		Request:    &bodiless,
		PathParams: params,
		Route:      route,
		Options:    &s.validation,
	}
	if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
		return requestError(err)
	}
	c := &call{params: params, query: in.GetQueryParams()}
	for _, name := range op.queryParams {
		if len(c.query[name]) > 1 {
			return badRequest(name, "must be given at most once")
		}
	}
	if rb := route.Operation.RequestBody; rb != nil {
		if c.body, err = s.validateBody(r.Context(), in, rb.Value, r); err != nil {
			return err
		}
	}
	return op.handle(w, r, c)
}

// validateBody reads the body within MaxBodyBytes and checks it against
// the document.
func (s *Server) validateBody(ctx context.Context, in *openapi3filter.RequestValidationInput, rb *openapi3.RequestBody, r *http.Request) ([]byte, error) {
	body, e := readBody(r)
	if e != nil {
		return nil, e
	}
	if len(body) == 0 {
		if rb.Required {
			return nil, badRequest("body", "is required")
		}
		return nil, nil
	}
	if ct := r.Header.Get("Content-Type"); rb.Content.Get(ct) == nil {
		if ct == "" {
			ct = "none"
		}
		return nil, newError(http.StatusUnsupportedMediaType, CodeUnsupportedMediaType,
			"content-type: must be %s, not %s", strings.Join(slices.Sorted(maps.Keys(rb.Content)), " or "), ct)
	}
	withBody := *in.Request
	withBody.Body = io.NopCloser(bytes.NewReader(body))
	withBody.ContentLength = int64(len(body))
	bodyIn := *in
	bodyIn.Request = &withBody
	if err := openapi3filter.ValidateRequestBody(ctx, &bodyIn, rb); err != nil {
		return nil, requestError(err)
	}
	return body, nil
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
		return nil, nil, newError(http.StatusMethodNotAllowed, CodeMethodNotAllowed,
			"method: %s is not allowed on %s; use %s", r.Method, r.URL.Path, allow).withHeader("Allow", allow)
	default:
		return nil, nil, newError(http.StatusNotFound, CodeNotFound, "path: %s is not an operation of this API", r.URL.Path)
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
	return newError(http.StatusInternalServerError, CodeInternal, "server: internal error")
}

// statusRecorder remembers the status of an answer, for the request log.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (w *statusRecorder) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusRecorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }
