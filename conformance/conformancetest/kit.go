package conformancetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/fake"
)

// The kit breaks a server of any document, a proxy in front of petmock
// serving it, one way at a time, from what the document says alone: a
// create answered but not kept, a delete answered and not done, an id no
// item has answered 200, a limit ignored, every list empty, a required
// property dropped or null, values of the wrong type, a success of a
// status not documented, a wrong Content-Type, errors of the wrong shape.
// The judge must catch each fault wherever the document has what it
// breaks, and pass the correct variants, a pass-through and one that
// writes the same JSON otherwise.

// KitFault is one way to break a server of any document, or, among
// KitCorrect, to answer otherwise and correctly.
type KitFault struct {
	Name string
	// NotApplied says why the document of c has nothing the fault
	// breaks, such as no resource that deletes; "" where it has.
	NotApplied func(c *spec.Contract) string
	// Wrap wraps next, a server of the document of c.
	Wrap func(tb testing.TB, c *spec.Contract, next http.Handler) http.Handler
	// Rules are the rules a run that catches the fault breaks, one of
	// them at least; none for a correct variant.
	Rules []string
	// Labels is the label expression of the checks that catch it, so
	// that a run makes those only; "" makes them all.
	Labels string
}

// Kit is the generic faults, each breaking one rule of any document.
var Kit = []KitFault{
	{
		Name: "answers a create and keeps nothing",
		NotApplied: func(c *spec.Contract) string {
			return noResource(c, "no resource whose created items can be read or listed, and told by the id their create answers or sends", func(r *spec.Resource) bool {
				return r.CreateOp != nil && sendable(r.CreateOp) && (r.Read != nil || r.List != nil) && identifiable(c, r)
			})
		},
		Wrap: func(tb testing.TB, c *spec.Contract, next http.Handler) http.Handler {
			return hiding(tb, c, next, func(time.Time) bool { return true })
		},
		Rules:  []string{"resource.read-back", "resource.listed", "resource.kept", "resource.delete", "resource.replace", "resource.update", "create.read-back", "create.listed", "pagination.complete"},
		Labels: "mutating",
	},
	{
		Name: "answers a delete and keeps the item",
		NotApplied: func(c *spec.Contract) string {
			return noResource(c, "no resource that deletes an item it can read or list, of a create that answers or sends the id of what it made, or of none", func(r *spec.Resource) bool {
				return r.Delete != nil && (r.Read != nil || r.List != nil) && (r.CreateOp == nil || identifiable(c, r))
			})
		},
		Wrap: func(tb testing.TB, c *spec.Contract, next http.Handler) http.Handler {
			return byOperation(tb, c, next, func(op *spec.Operation, _ map[string]string, w http.ResponseWriter, r *http.Request) bool {
				if op.Resource == nil || op != op.Resource.Delete || !wouldServe(next, op.Resource, r) {
					return false
				}
				answerMade(w, c, op, op.Success)
				return true
			})
		},
		Rules:  []string{"resource.delete"},
		Labels: "resource",
	},
	{
		Name: "answers an id no item has with an item",
		NotApplied: func(c *spec.Contract) string {
			return noResource(c, "no resource whose read documents 404", func(r *spec.Resource) bool {
				return r.Read != nil && r.Read.Op.Responses.Status(http.StatusNotFound) != nil && r.Read.JSONSchema(r.Read.Success) != nil
			})
		},
		Wrap: func(tb testing.TB, c *spec.Contract, next http.Handler) http.Handler {
			return byOperation(tb, c, next, func(op *spec.Operation, _ map[string]string, w http.ResponseWriter, r *http.Request) bool {
				if op.Resource == nil || op != op.Resource.Read {
					return false
				}
				rec := httptest.NewRecorder()
				next.ServeHTTP(rec, r)
				if rec.Code == http.StatusNotFound {
					answerMade(w, c, op, op.Success)
					return true
				}
				replay(w, rec)
				return true
			})
		},
		Rules:  []string{"resource.not-found", "get.not-found", "resource.delete"},
		Labels: "not-found || resource || getPet",
	},
	{
		Name: "ignores the limit of a list",
		NotApplied: func(c *spec.Contract) string {
			return noResource(c, "no list with a limit", func(r *spec.Resource) bool { return r.List != nil && r.Paging.Limit != "" })
		},
		Wrap: func(tb testing.TB, c *spec.Contract, next http.Handler) http.Handler {
			return byOperation(tb, c, next, func(op *spec.Operation, _ map[string]string, w http.ResponseWriter, r *http.Request) bool {
				if op.Resource == nil || op != op.Resource.List || op.Resource.Paging.Limit == "" {
					return false
				}
				r = r.Clone(r.Context())
				q := r.URL.Query()
				q.Del(op.Resource.Paging.Limit)
				r.URL.RawQuery = q.Encode()
				next.ServeHTTP(w, r)
				return true
			})
		},
		Rules:  []string{"list.limit", "limit.honoured", "limit.default"},
		Labels: "list || limit || listPets",
	},
	{
		Name: "serves requests without a key",
		NotApplied: func(c *spec.Contract) string {
			return noOperation(c, "no operation that asks for a key", func(op *spec.Operation) bool { return op.AsksForKey() })
		},
		Wrap: func(tb testing.TB, c *spec.Contract, next http.Handler) http.Handler {
			return byOperation(tb, c, next, func(op *spec.Operation, _ map[string]string, w http.ResponseWriter, r *http.Request) bool {
				if !op.AsksForKey() || presentsAny(op, r) {
					return false
				}
				// Served as if the request had presented the key.
				keyed := r.Clone(r.Context())
				for _, s := range op.Requirements[0] {
					if !s.Unchecked() {
						s.Present(keyed, Key)
					}
				}
				next.ServeHTTP(w, keyed)
				return true
			})
		},
		Rules:  []string{"operation.auth"},
		Labels: "auth",
	},
	{
		Name: "answers an update and changes nothing",
		NotApplied: func(c *spec.Contract) string {
			// The suite's check of an update changes a property by a
			// merge of it: a JSON Patch it sends only where it knows
			// of no item, which changes nothing.
			return noResource(c, "no resource that updates an item it can read by a merge of what it sends, of a create that answers or sends the id of what it made", func(r *spec.Resource) bool {
				return r.Update != nil && sendable(r.Update) && r.Read != nil && r.CreateOp != nil && identifiable(c, r) && !spec.IsJSONPatch(c, r.Update.RequestSchema())
			})
		},
		Wrap: func(tb testing.TB, c *spec.Contract, next http.Handler) http.Handler {
			return byOperation(tb, c, next, func(op *spec.Operation, _ map[string]string, w http.ResponseWriter, r *http.Request) bool {
				if op.Resource == nil || op != op.Resource.Update || r.Body == nil {
					return false
				}
				// A merge patch, or a JSON Patch, of nothing.
				nothing := "{}"
				if spec.IsJSONPatch(c, op.RequestSchema()) {
					nothing = "[]"
				}
				unchanged := r.Clone(r.Context())
				unchanged.Body, unchanged.ContentLength = io.NopCloser(strings.NewReader(nothing)), int64(len(nothing))
				next.ServeHTTP(w, unchanged)
				return true
			})
		},
		Rules:  []string{"resource.update"},
		Labels: "resource",
	},
	{
		Name: "lists nothing",
		NotApplied: func(c *spec.Contract) string {
			return noResource(c, "no resource that creates items it lists", func(r *spec.Resource) bool {
				return r.CreateOp != nil && sendable(r.CreateOp) && r.List != nil
			})
		},
		Wrap: func(tb testing.TB, c *spec.Contract, next http.Handler) http.Handler {
			return byOperation(tb, c, next, func(op *spec.Operation, _ map[string]string, w http.ResponseWriter, r *http.Request) bool {
				if op.Resource == nil || op != op.Resource.List {
					return false
				}
				Intercept(next, func(_ *http.Request, rec *httptest.ResponseRecorder) {
					if rec.Code == http.StatusOK && isJSONAnswer(rec) {
						EditJSON(rec, func(v any) any {
							return withItems(c, op.Resource, v, func([]any) []any { return []any{} })
						})
						rec.Header().Del("Link")
					}
				}).ServeHTTP(w, r)
				return true
			})
		},
		Rules:  []string{"resource.listed", "create.listed", "pagination.complete", "status.found", "list.filter", "resource.delete"},
		Labels: "mutating || status",
	},
	{
		Name: "drops a required property of each answer",
		NotApplied: func(c *spec.Contract) string {
			return noOperation(c, "no success whose JSON schema requires a property", func(op *spec.Operation) bool { return requiresProperty(c, op, false) })
		},
		Wrap: func(tb testing.TB, c *spec.Contract, next http.Handler) http.Handler {
			return editSuccesses(tb, c, next, func(c *spec.Contract, s *openapi3.Schema, v any) any { return breakRequired(c, s, v, false) })
		},
		Rules:  []string{"contract.response"},
		Labels: "answers",
	},
	{
		Name: "answers null for a required property of each answer",
		NotApplied: func(c *spec.Contract) string {
			return noOperation(c, "no success whose JSON schema requires a property that may not be null", func(op *spec.Operation) bool { return requiresProperty(c, op, true) })
		},
		Wrap: func(tb testing.TB, c *spec.Contract, next http.Handler) http.Handler {
			return editSuccesses(tb, c, next, func(c *spec.Contract, s *openapi3.Schema, v any) any { return breakRequired(c, s, v, true) })
		},
		Rules:  []string{"contract.response"},
		Labels: "answers",
	},
	{
		Name: "answers values of the wrong type",
		NotApplied: func(c *spec.Contract) string {
			return noOperation(c, "no success in JSON whose schema refuses an array and an object alike", func(op *spec.Operation) bool {
				s := op.JSONSchema(op.Success)
				opts := spec.SchemaOptions(c.Doc)
				return s != nil && s.VisitJSON([]any{"not", "the", "object"}, opts...) != nil && s.VisitJSON(map[string]any{"not": "the value"}, opts...) != nil
			})
		},
		Wrap: func(tb testing.TB, _ *spec.Contract, next http.Handler) http.Handler {
			return RewriteResponse(func(_ *http.Request, rec *httptest.ResponseRecorder) {
				if rec.Code/100 != 2 || !isJSONAnswer(rec) {
					return
				}
				body := bytes.TrimSpace(rec.Body.Bytes())
				if len(body) == 0 || !json.Valid(body) {
					return
				}
				rec.Body.Reset()
				if body[0] == '{' {
					rec.Body.WriteString(`["not", "the", "object"]`)
					return
				}
				rec.Body.WriteString(`{"not": "the value"}`)
			})(tb, next)
		},
		Rules:  []string{"contract.response"},
		Labels: "answers",
	},
	{
		Name: "answers a success of a status not documented",
		NotApplied: func(c *spec.Contract) string {
			return noOperation(c, "no operation that documents a success, and a 2xx it does not, and no default", func(op *spec.Operation) bool {
				_, ok := undocumentedSuccess(op)
				return ok && op.Success != 0
			})
		},
		Wrap: func(tb testing.TB, c *spec.Contract, next http.Handler) http.Handler {
			return byOperation(tb, c, next, func(op *spec.Operation, _ map[string]string, w http.ResponseWriter, r *http.Request) bool {
				status, ok := undocumentedSuccess(op)
				if !ok {
					return false
				}
				Intercept(next, func(_ *http.Request, rec *httptest.ResponseRecorder) {
					if rec.Code/100 == 2 {
						rec.Code = status
					}
				}).ServeHTTP(w, r)
				return true
			})
		},
		Rules:  []string{"contract.response"},
		Labels: "answers",
	},
	{
		Name: "serves JSON as text/plain",
		NotApplied: func(c *spec.Contract) string {
			return noOperation(c, "no success in JSON only", func(op *spec.Operation) bool {
				resp := op.Response(op.Success)
				return op.JSONSchema(op.Success) != nil && resp != nil && resp.Content.Get("text/plain") == nil
			})
		},
		Wrap: func(tb testing.TB, _ *spec.Contract, next http.Handler) http.Handler {
			return RewriteResponse(func(_ *http.Request, rec *httptest.ResponseRecorder) {
				if rec.Code/100 == 2 && isJSONAnswer(rec) {
					rec.Header().Set("Content-Type", "text/plain")
				}
			})(tb, next)
		},
		Rules:  []string{"contract.response"},
		Labels: "answers",
	},
	{
		Name: "answers errors of another shape",
		NotApplied: func(c *spec.Contract) string {
			for _, op := range c.Operations {
				for _, status := range calledFor(op) {
					if sendable(op) && refusesOtherError(c, op, status) {
						return ""
					}
				}
			}
			return "no error the suite's requests call for has a body whose schema refuses another shape"
		},
		Wrap: func(tb testing.TB, c *spec.Contract, next http.Handler) http.Handler {
			router, err := spec.NewRouter(c.Doc)
			if err != nil {
				tb.Fatal(err)
			}
			return Intercept(next, func(r *http.Request, rec *httptest.ResponseRecorder) {
				if rec.Code < 400 {
					return
				}
				var op *spec.Operation
				if route, _, err := router.FindRoute(r); err == nil {
					op = c.RouteOperation(route)
				}
				if refusesOtherError(c, op, rec.Code) {
					rec.Header().Set("Content-Type", "application/json")
					rec.Body = bytes.NewBufferString(otherError)
				}
			})
		},
		Rules:  []string{"contract.response", "errors.shape"},
		Labels: "auth || invalid || not-found || resource || getPet || createPet",
	},
}

// KitCorrect are servers of any document that answer as petmock does,
// but for what a client cannot tell, or what the interface allows, such
// as writes shown a moment late: the judge must pass them.
var KitCorrect = []KitFault{
	{
		Name:       "passes every answer through",
		NotApplied: func(*spec.Contract) string { return "" },
		Wrap: func(_ testing.TB, _ *spec.Contract, next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { next.ServeHTTP(w, r) })
		},
	},
	{
		Name:       "shows each item created in reads and lists 300ms late, its pages short of the links that count it",
		NotApplied: func(*spec.Contract) string { return "" },
		Wrap: func(tb testing.TB, c *spec.Contract, next http.Handler) http.Handler {
			return EventuallyConsistent(tb, c, next, 300*time.Millisecond)
		},
	},
	{
		Name:       "writes its JSON with the keys of each object in reverse order, indented",
		NotApplied: func(*spec.Contract) string { return "" },
		Wrap: func(tb testing.TB, _ *spec.Contract, next http.Handler) http.Handler {
			return RewriteResponse(func(_ *http.Request, rec *httptest.ResponseRecorder) {
				if !isJSONAnswer(rec) {
					return
				}
				if out, ok := reformatted(rec.Body.Bytes()); ok {
					rec.Body = bytes.NewBuffer(out)
				}
			})(tb, next)
		},
	},
}

// calledFor returns the errors a run asks op for on purpose, which it
// then judges: a refusal of a request without a key, where op requires
// one; a 400 or the 4xx op documents of a request that breaks its schema;
// and a 404 of an item not there, of an operation on one item.
func calledFor(op *spec.Operation) []int {
	var out []int
	if len(op.Requirements) > 0 && !slices.ContainsFunc(op.Requirements, func(r spec.Requirement) bool { return len(r) == 0 }) {
		out = append(out, http.StatusUnauthorized, http.StatusForbidden)
	}
	takesInput := op.RequestSchema() != nil || slices.ContainsFunc(op.Parameters, func(p *openapi3.Parameter) bool { return p.In == openapi3.ParameterInQuery })
	for _, s := range op.Statuses {
		switch s {
		case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusMethodNotAllowed,
			http.StatusNotAcceptable, http.StatusGone, http.StatusRequestEntityTooLarge, http.StatusUnsupportedMediaType,
			http.StatusTooManyRequests:
			continue
		}
		if s >= 400 && s < 500 && takesInput {
			out = append(out, s)
		}
	}
	if op.Resource != nil && (op.Role == spec.RoleRead || op.Role == spec.RoleDelete) && op.Documents(http.StatusNotFound) {
		out = append(out, http.StatusNotFound)
	}
	return out
}

// otherError is an error body of another shape than a document's error
// schema, which refuses it where it requires a member or is no array.
const otherError = `["not", "the", "error", "the", "document", "describes"]`

// refusesOtherError reports whether the error body of op's status, or of
// a request of no operation where op is nil, has a JSON schema that
// refuses otherError.
func refusesOtherError(c *spec.Contract, op *spec.Operation, status int) bool {
	b := c.ErrorBody(op, status)
	if b.Schema == nil {
		return false
	}
	var v any
	json.Unmarshal([]byte(otherError), &v)
	return b.Schema.VisitJSON(v, append(spec.SchemaOptions(c.Doc), openapi3.VisitAsResponse())...) != nil
}

// noResource returns why, unless a resource of c does what has says.
// identifiable reports whether the suite can tell the item a create of r
// made: by the id its answer holds (inside its wrapper, where it has one),
// by the Location that names it, which petmock sends where r has an item
// path, or by the one its body sends. Of a create that does neither, such as a
// sign-in answered 200 with a token, the suite judges no behaviour, and
// faults of its items cannot show.
func identifiable(c *spec.Contract, r *spec.Resource) bool {
	s := r.CreateOp.JSONSchema(r.CreateOp.Success)
	if w := r.Wrapped[r.CreateOp]; w != nil && s == w.Schema {
		s = w.Inner(c)
	}
	if s != nil && slices.ContainsFunc(c.Properties(s), func(p spec.Property) bool { return p.Name == r.IDProperty }) {
		return true
	}
	if r.IDParam != "" {
		// petmock, which the kit's servers wrap, names the item created
		// in the create's Location, which the suite reads the id from.
		return true
	}
	if !r.IDSent {
		return false
	}
	// The suite sends an id of its own where the create answers nothing
	// or requires it, and leaves out an optional one, which the
	// deployment then gives (request.Maker.WithoutOwnID).
	body := r.Create
	if w := r.BodyWrapped[r.CreateOp]; w != nil {
		body = w.Inner(c)
	}
	return s == nil || slices.Contains(spec.RequiredNames(body), r.IDProperty)
}

func noResource(c *spec.Contract, why string, has func(*spec.Resource) bool) string {
	for _, r := range c.Resources {
		if has(r) {
			return ""
		}
	}
	return why
}

// noOperation returns why, unless an operation of c that the suite can
// send does what has says.
func noOperation(c *spec.Contract, why string, has func(*spec.Operation) bool) string {
	for _, op := range c.Operations {
		if sendable(op) && has(op) {
			return ""
		}
	}
	return why
}

// presentsAny reports whether r presents a credential of any scheme op's
// security names, right or wrong.
func presentsAny(op *spec.Operation, r *http.Request) bool {
	for _, req := range op.Requirements {
		for _, s := range req {
			in, name, _ := s.Credential("")
			switch in {
			case spec.InQuery:
				if r.URL.Query().Has(name) {
					return true
				}
			case spec.InCookie:
				if _, err := r.Cookie(name); err == nil {
					return true
				}
			default:
				if r.Header.Get(name) != "" {
					return true
				}
			}
		}
	}
	return false
}

// sendable reports whether a client can send a request of op as its
// document writes it: its path holds no query string or fragment.
func sendable(op *spec.Operation) bool {
	return !strings.ContainsAny(op.Path, "?#")
}

// wouldServe reports whether next would serve r, a request on an item of
// res, as the read of that item with r's credentials answers: a fault that
// answers in place of next leaves next its refusals, of a missing key or
// an item not there. Without a read, it asks no more than a credential.
func wouldServe(next http.Handler, res *spec.Resource, r *http.Request) bool {
	if res.Read == nil {
		return r.Header.Get("Authorization") != "" || r.Header.Get("Cookie") != "" || len(r.URL.Query()) > 0
	}
	probe := r.Clone(r.Context())
	probe.Method, probe.Body, probe.ContentLength = http.MethodGet, http.NoBody, 0
	probe.Header.Del("Content-Type")
	rec := httptest.NewRecorder()
	next.ServeHTTP(rec, probe)
	return rec.Code == http.StatusOK
}

// byOperation serves each request by serve, given its operation and path
// parameters, and by next where serve declines, or where the request is
// of no operation.
func byOperation(tb testing.TB, c *spec.Contract, next http.Handler, serve func(op *spec.Operation, params map[string]string, w http.ResponseWriter, r *http.Request) bool) http.Handler {
	tb.Helper()
	router, err := spec.NewRouter(c.Doc)
	if err != nil {
		tb.Fatal(err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if route, params, err := router.FindRoute(r); err == nil {
			if op := c.RouteOperation(route); op != nil && serve(op, params, w, r) {
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// answerMade answers status with a body made from the schema op
// documents for it, or none.
func answerMade(w http.ResponseWriter, c *spec.Contract, op *spec.Operation, status int) {
	s := op.JSONSchema(status)
	if s == nil || status == http.StatusNoContent {
		w.WriteHeader(status)
		return
	}
	gen := &fake.Generator{Contract: c, Faker: fake.NewFaker(1), Examples: true}
	v, err := gen.Valid(s, fake.Hint{})
	if err != nil {
		v = gen.Value(s, fake.Hint{})
	}
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", op.JSONContentType(status))
	w.WriteHeader(status)
	w.Write(b)
}

// replay sends the answer rec recorded.
func replay(w http.ResponseWriter, rec *httptest.ResponseRecorder) {
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.Header().Del("Content-Length")
	w.WriteHeader(rec.Code)
	w.Write(rec.Body.Bytes())
}

// isJSONAnswer reports whether rec holds an answer in JSON.
func isJSONAnswer(rec *httptest.ResponseRecorder) bool {
	mediaType, _, _ := mime.ParseMediaType(rec.Header().Get("Content-Type"))
	return mediaType == "application/json" || strings.HasSuffix(mediaType, "+json")
}

// undocumentedSuccess returns a 2xx that op does not document, one a body
// may come with, or false where op documents a default response, which
// takes any status.
func undocumentedSuccess(op *spec.Operation) (int, bool) {
	if op == nil || op.Op.Responses.Default() != nil {
		return 0, false
	}
	for _, s := range []int{http.StatusOK, http.StatusCreated, http.StatusAccepted} {
		if !op.Documents(s) {
			return s, true
		}
	}
	return 0, false
}

// editSuccesses wraps next into a server whose JSON successes edit
// changes, given the schema the operation documents for them.
func editSuccesses(tb testing.TB, c *spec.Contract, next http.Handler, edit func(c *spec.Contract, s *openapi3.Schema, v any) any) http.Handler {
	var router routers.Router
	router, err := spec.NewRouter(c.Doc)
	if err != nil {
		tb.Fatal(err)
	}
	return Intercept(next, func(r *http.Request, rec *httptest.ResponseRecorder) {
		if rec.Code/100 != 2 || !isJSONAnswer(rec) {
			return
		}
		route, _, err := router.FindRoute(r)
		if err != nil {
			return
		}
		op := c.RouteOperation(route)
		if op == nil {
			return
		}
		if s := op.JSONSchema(rec.Code); s != nil {
			EditJSON(rec, func(v any) any { return edit(c, s, v) })
		}
	})
}

// requiresProperty reports whether the JSON success of op has a schema
// that requires a property of the object it answers, or of the items of
// the array it answers; with notNull, one that may not be null.
func requiresProperty(c *spec.Contract, op *spec.Operation, notNull bool) bool {
	s := op.JSONSchema(op.Success)
	if s != nil && spec.TypeOf(s) == "array" && s.Items != nil {
		s = s.Items.Value
	}
	return s != nil && requiredOf(c, s, notNull) != ""
}

// requiredOf returns the first property s requires, one that may not be
// null with notNull, or "".
func requiredOf(c *spec.Contract, s *openapi3.Schema, notNull bool) string {
	for _, p := range c.Properties(s) {
		if p.Required {
			if notNull && (p.Schema.Nullable || p.Schema.Type != nil && p.Schema.Type.Includes("null")) {
				continue
			}
			return p.Name
		}
	}
	return ""
}

// breakRequired drops, or sets to null, a property s requires of v, or
// of every item of v where v is an array of objects.
func breakRequired(c *spec.Contract, s *openapi3.Schema, v any, null bool) any {
	switch v := v.(type) {
	case []any:
		if s.Items == nil || s.Items.Value == nil {
			return v
		}
		for i := range v {
			v[i] = breakRequired(c, s.Items.Value, v[i], null)
		}
	case map[string]any:
		if name := requiredOf(c, s, null); name != "" {
			if null {
				v[name] = nil
			} else {
				delete(v, name)
			}
		}
	}
	return v
}

// reformatted returns the JSON text b holds written otherwise: the keys
// of each object in reverse order, indented, numbers as they were.
func reformatted(b []byte) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out bytes.Buffer
	if err := writeReversed(&out, dec, ""); err != nil {
		return nil, false
	}
	return out.Bytes(), true
}

// writeReversed writes the next JSON value of dec to out, each object's
// members in reverse order, indented from indent.
func writeReversed(out *bytes.Buffer, dec *json.Decoder, indent string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			var members []string
			for dec.More() {
				key, err := dec.Token()
				if err != nil {
					return err
				}
				var v bytes.Buffer
				if err := writeReversed(&v, dec, indent+"  "); err != nil {
					return err
				}
				k, _ := json.Marshal(key)
				members = append(members, indent+"  "+string(k)+": "+v.String())
			}
			dec.Token() // }
			slices.Reverse(members)
			if len(members) == 0 {
				out.WriteString("{}")
				return nil
			}
			fmt.Fprintf(out, "{\n%s\n%s}", strings.Join(members, ",\n"), indent)
		case '[':
			var items []string
			for dec.More() {
				var v bytes.Buffer
				if err := writeReversed(&v, dec, indent+"  "); err != nil {
					return err
				}
				items = append(items, indent+"  "+v.String())
			}
			dec.Token() // ]
			if len(items) == 0 {
				out.WriteString("[]")
				return nil
			}
			fmt.Fprintf(out, "[\n%s\n%s]", strings.Join(items, ",\n"), indent)
		}
	case json.Number:
		out.WriteString(t.String())
	default:
		b, _ := json.Marshal(t)
		out.Write(b)
	}
	return nil
}
