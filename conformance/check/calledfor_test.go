package check

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/conformance/request"
	"github.com/petstore/contract/spec"
)

// numberedNotes is ct.Notes with an error body of its own, an integer code
// and a message, which an error its operation does not document is held
// to.
var numberedNotes = strings.Replace(ct.Notes, "  schemas:\n", `  schemas:
    Error:
      type: object
      required: [code, message]
      properties: {code: {type: integer}, message: {type: string}}
`, 1)

// notesCheck is one check of a run of notes.
type notesCheck struct {
	name string
	run  check
}

// notesChecks are the checks of notes that meet the statuses it leaves
// out: without a key and with a wrong one, an invalid note, a deleted note
// read, a valid request of each operation.
func notesChecks(c *spec.Contract) []notesCheck {
	op := c.Operation
	text := func(name string) request.InvalidRequest {
		i := slices.IndexFunc(request.InvalidRequests(c, op("addNote")), func(ir request.InvalidRequest) bool { return ir.Name == name })
		return request.InvalidRequests(c, op("addNote"))[i]
	}
	return []notesCheck{
		{"listNotes without a key", func(h *Harness, ctx context.Context) error { return h.CheckRefused(ctx, op("listNotes"), "") }},
		{"getNote with a wrong key", func(h *Harness, ctx context.Context) error { return h.CheckRefused(ctx, op("getNote"), h.InvalidKey()) }},
		{"addNote without its text", func(h *Harness, ctx context.Context) error {
			return h.CheckInvalidRequest(ctx, op("addNote"), text("body: text left out"))
		}},
		{"addNote of a text too long", func(h *Harness, ctx context.Context) error {
			return h.CheckInvalidRequest(ctx, op("addNote"), text("body: text longer than 200 characters"))
		}},
		{"a note deleted", func(h *Harness, ctx context.Context) error { return h.CheckItemDeleted(ctx, c.Resource("notes")) }},
		{"getNote answers", func(h *Harness, ctx context.Context) error { return h.CheckValidRequest(ctx, op("getNote")) }},
		{"listNotes answers", func(h *Harness, ctx context.Context) error { return h.CheckValidRequest(ctx, op("listNotes")) }},
	}
}

// bareErrors answers each error HTTP requires with an empty body, and an
// invalid request with 400 where notes documents 422: what a server may
// answer where the document says nothing of it.
func bareErrors(next http.Handler) http.Handler {
	return ct.Intercept(next, func(_ *http.Request, rec *httptest.ResponseRecorder) {
		switch rec.Code {
		case http.StatusUnprocessableEntity, http.StatusBadRequest:
			rec.Code = http.StatusBadRequest
		case http.StatusUnauthorized, http.StatusNotFound:
		default:
			return
		}
		rec.Header().Del("Content-Type")
		rec.Body.Reset()
	})
}

// TestStatusesHTTPRequires: a status the document leaves out but HTTP
// requires is accepted where the suite's request called for it, by
// default and in a strict run alike: 401 to a request without a valid key,
// 400 to an invalid one, 404 of an item deleted. Its body is any where the
// document describes no error body, as petmock's problem details or an
// empty one.
func TestStatusesHTTPRequires(t *testing.T) {
	t.Parallel()
	path := ct.WriteDocument(t, ct.Notes)
	c := readFile(t, path)
	for _, srv := range []struct {
		name string
		h    func(t *testing.T) http.Handler
	}{
		{"petmock", func(t *testing.T) http.Handler { return ct.PetmockOf(t, path) }},
		{"a server of empty error bodies, 400 for 422", func(t *testing.T) http.Handler { return bareErrors(ct.PetmockOf(t, path)) }},
	} {
		for _, strict := range []bool{false, true} {
			t.Run(srv.name+strictName(strict), func(t *testing.T) {
				t.Parallel()
				h := judgeOver(t, srv.h(t), Settings{Contract: c, Strict: strict})
				ctx := checkContext(t)
				for _, chk := range notesChecks(c) {
					if err := chk.run(h, ctx); err != nil {
						t.Errorf("%s: %v, want a pass", chk.name, err)
					}
				}
			})
		}
	}
}

// strictName names a strict run in a test's name.
func strictName(strict bool) string {
	if strict {
		return ", strict"
	}
	return ""
}

// TestStatusesNotCalledForFail: a status the document leaves out breaks
// contract.response where the suite's request did not call for it, by
// default and in a strict run alike; and where the request called for it,
// a body that breaks the document's own error body still fails.
func TestStatusesNotCalledForFail(t *testing.T) {
	t.Parallel()
	plain, numbered := ct.WriteDocument(t, ct.Notes), ct.WriteDocument(t, numberedNotes)
	answer := func(match func(r *http.Request) bool, status int, body string) ct.Fault {
		return func(_ testing.TB, next http.Handler) http.Handler {
			return ct.Intercept(next, func(r *http.Request, rec *httptest.ResponseRecorder) {
				if match(r) {
					rec.Code = status
					rec.Body.Reset()
					rec.Body.WriteString(body)
				}
			})
		}
	}
	keyed := func(r *http.Request) bool { return r.Header.Get("X-Note-Key") == ct.Key }
	keyedRead := func(r *http.Request) bool {
		return keyed(r) && r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/n/notes/")
	}
	for _, tc := range []struct {
		name, doc string
		fault     ct.Fault
		check     string
		rule      string
		says      string
	}{
		{"401 to the run's key", plain, answer(keyedRead, 401, ""),
			"getNote answers", "contract.response", "status 401 is not documented for getNote"},
		{"500 to a request without a key", plain, answer(func(r *http.Request) bool { return !keyed(r) }, 500, ""),
			"listNotes without a key", "contract.response", "status 500 is not documented for listNotes"},
		{"400 to a valid request", plain, answer(keyedRead, 400, ""),
			"getNote answers", "contract.response", "status 400 is not documented for getNote"},
		{"404 of the list", plain, answer(func(r *http.Request) bool { return r.URL.Path == "/n/notes" && r.Method == http.MethodGet }, 404, ""),
			"listNotes answers", "operation.exists", "the operation listNotes, which the document describes, is missing"},
		{"an empty 401 where the document has an error body", numbered, answer(func(r *http.Request) bool { return !keyed(r) }, 401, ""),
			"listNotes without a key", "contract.response", "the body is not valid JSON"},
		{"a 401 of a string code where the document's is an integer", numbered, answer(func(r *http.Request) bool { return !keyed(r) }, 401, `{"code":"unauthorized","message":"no key"}`),
			"listNotes without a key", "contract.response", "code"},
	} {
		for _, strict := range []bool{false, true} {
			t.Run(tc.name+strictName(strict), func(t *testing.T) {
				t.Parallel()
				c := readFile(t, tc.doc)
				h := judgeOver(t, tc.fault(t, ct.PetmockOf(t, tc.doc)), Settings{Contract: c, Strict: strict})
				i := slices.IndexFunc(notesChecks(c), func(n notesCheck) bool { return n.name == tc.check })
				err := notesChecks(c)[i].run(h, checkContext(t))
				if b := wantBroken(t, tc.check, err, tc.rule); b != nil && !strings.Contains(b.Detail, tc.says) {
					t.Errorf("%s: the verdict does not say %q: %s", tc.check, tc.says, b.Detail)
				}
			})
		}
	}
}

// TestOperationOfErrorsOnly: an operation that documents no success, only
// "405: Invalid input", answered with that 405 is not missing, and its
// check of a valid request is skipped, saying why; answered with a 404 it
// does not document, it is missing.
func TestOperationOfErrorsOnly(t *testing.T) {
	t.Parallel()
	path := ct.WriteDocument(t, ct.Notes)
	c := readFile(t, path)
	op := c.Operation("sendNotes")
	h := judgeOver(t, ct.PetmockOf(t, path), Settings{Contract: c})
	wantSkipped(t, "sendNotes answering 405", h.CheckValidRequest(checkContext(t), op), "sendNotes documents no success, only 405, and answered 405")

	missing := judgeOver(t, ct.RewriteRequest(func(r *http.Request) {
		if r.URL.Path == "/n/outbox" {
			r.URL.Path = "/n/elsewhere"
		}
	})(t, ct.PetmockOf(t, path)), Settings{Contract: c})
	wantBroken(t, "sendNotes answering 404", missing.CheckValidRequest(checkContext(t), op), "operation.exists")
}

// TestInvalidRequestOfNoDocumented4xx: a request that breaks the schema of
// an operation that documents no 4xx for it, such as a limit that is not
// an integer, is judged by a strict run alone: it must get 400, as from
// petmock, and a success fails strict.invalid-request; by default the
// check is skipped, saying why.
func TestInvalidRequestOfNoDocumented4xx(t *testing.T) {
	t.Parallel()
	path := ct.WriteDocument(t, ct.Notes)
	c := readFile(t, path)
	op := c.Operation("listNotes")
	cases := request.InvalidRequests(c, op)
	i := slices.IndexFunc(cases, func(ir request.InvalidRequest) bool { return ir.Name == "query: limit a string instead of a number" })
	if i < 0 {
		t.Fatalf("no invalid limit among %v", cases)
	}
	bad := cases[i]
	ignoring := ct.RewriteRequest(func(r *http.Request) {
		q := r.URL.Query()
		q.Del("limit")
		r.URL.RawQuery = q.Encode()
	})

	petmock := judgeOver(t, ct.PetmockOf(t, path), Settings{Contract: c})
	wantSkipped(t, "by default", petmock.CheckInvalidRequest(checkContext(t), op, bad), "listNotes documents no 4xx for a request that breaks its schema")
	strict := judgeOver(t, ct.PetmockOf(t, path), Settings{Contract: c, Strict: true})
	if err := strict.CheckInvalidRequest(checkContext(t), op, bad); err != nil {
		t.Errorf("strict, petmock: %v, want a pass", err)
	}
	lenient := judgeOver(t, ignoring(t, ct.PetmockOf(t, path)), Settings{Contract: c, Strict: true})
	wantBroken(t, "strict, a server that ignores a bad limit", lenient.CheckInvalidRequest(checkContext(t), op, bad), "strict.invalid-request")
}

// sinks is a document of forms as Twilio's are: an optional body whose
// one required member, left out, leaves an empty form, which is no body;
// and a form of two required members, one of which left out still breaks
// the schema.
const sinks = `openapi: 3.0.3
info: {title: Sinks, version: 1.0.0}
servers: [{url: /s}]
paths:
  /sinks/validate:
    post:
      operationId: validateSink
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: {type: object, required: [TestId], properties: {TestId: {type: string}}}
      responses:
        '201': {description: Validated., content: {application/json: {schema: {type: object}}}}
        '400': {description: Bad., content: {application/json: {schema: {type: object}}}}
  /sinks:
    post:
      operationId: createSink
      requestBody:
        content:
          application/x-www-form-urlencoded:
            schema: {type: object, required: [Name, Kind], properties: {Name: {type: string}, Kind: {type: string}}}
      responses:
        '201': {description: Created., content: {application/json: {schema: {type: object}}}}
        '400': {description: Bad., content: {application/json: {schema: {type: object}}}}
`

// TestEmptyFormOfAnOptionalBody: leaving out the one required member of
// an optional form body sends no body, which breaks nothing: the check is
// skipped, saying so, against petmock, which takes it; leaving out one of
// two still breaks the schema, and petmock's 400 passes.
func TestEmptyFormOfAnOptionalBody(t *testing.T) {
	t.Parallel()
	path := ct.WriteDocument(t, sinks)
	c := readFile(t, path)
	h := judgeOver(t, ct.PetmockOf(t, path), Settings{Contract: c, Strict: true})
	find := func(op, name string) request.InvalidRequest {
		t.Helper()
		cases := request.InvalidRequests(c, c.Operation(op))
		i := slices.IndexFunc(cases, func(ir request.InvalidRequest) bool { return ir.Name == name })
		if i < 0 {
			t.Fatalf("%s: no %q among %v", op, name, cases)
		}
		return cases[i]
	}
	wantSkipped(t, "the one member left out", h.CheckInvalidRequest(checkContext(t), c.Operation("validateSink"), find("validateSink", "body: TestId left out")), "leaves an empty form, which is no body")
	if err := h.CheckInvalidRequest(checkContext(t), c.Operation("createSink"), find("createSink", "body: Name left out")); err != nil {
		t.Errorf("one of two members left out: %v, want a pass", err)
	}
}
