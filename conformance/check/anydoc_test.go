package check

import (
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/conformance/request"
	"github.com/petstore/contract/spec"
)

// oddities is a document whose operations the suite exercises in other
// ways than JSON objects, or only partly: a form body, a multipart body
// with a file, a required header and a query array, an answer in XML
// only, a JSON array as a body, and an XML body.
const oddities = `openapi: 3.0.3
info: {title: Oddities, version: 1.0.0}
servers: [{url: /odd}]
paths:
  /forms:
    post:
      operationId: submitForm
      requestBody:
        required: true
        content: {application/x-www-form-urlencoded: {schema: {type: object, required: [name, tags], properties: {name: {type: string}, tags: {type: array, items: {type: string}}}}}}
      responses: {'204': {description: Taken.}, '400': {description: Refused.}}
  /tagged:
    get:
      operationId: listTagged
      parameters:
        - {name: X-Request-Id, in: header, required: true, schema: {type: string}}
        - {name: tags, in: query, required: true, schema: {type: array, items: {type: string}}}
      responses:
        '200': {description: Tagged things., content: {application/json: {schema: {type: array, items: {type: string}}}}}
        '400': {description: Refused., content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
  /report:
    get:
      operationId: report
      responses:
        '200': {description: A report., content: {application/xml: {schema: {type: object}}}}
  /batch:
    post:
      operationId: batch
      requestBody:
        required: true
        content: {application/json-patch+json: {schema: {type: array, minItems: 1, items: {type: object, required: [op, path], properties: {op: {type: string, enum: [add, remove]}, path: {type: string}}}}}}
      responses: {'204': {description: Taken.}}
  /uploads:
    post:
      operationId: upload
      requestBody:
        required: true
        content: {multipart/form-data: {schema: {type: object, required: [file, title], properties: {file: {type: string, format: binary}, title: {type: string}}}}}
      responses: {'204': {description: Taken.}}
  /xml:
    post:
      operationId: postXML
      requestBody:
        required: true
        content: {application/xml: {schema: {type: object, properties: {name: {type: string}}}}}
      responses: {'204': {description: Taken.}}
components:
  schemas:
    Error:
      type: object
      required: [code, message, status]
      properties: {code: {type: string}, message: {type: string}, status: {type: integer}}
`

// odditiesServer serves the oddities as the document says, and refuses a
// tagged list without its header, and a body not in the media type its
// operation takes.
func odditiesServer() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		refuse := func(why string) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"code":"E400","message":` + strconv.Quote(why) + `,"status":400}`))
		}
		mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		switch r.URL.Path {
		case "/odd/forms":
			if r.ParseForm() != nil || mediaType != "application/x-www-form-urlencoded" || r.PostForm.Get("name") == "" || len(r.PostForm["tags"]) == 0 {
				refuse("not a form of a name and tags")
				return
			}
			w.WriteHeader(http.StatusNoContent)
		case "/odd/uploads":
			if r.ParseMultipartForm(1<<20) != nil || r.MultipartForm.File["file"] == nil || r.MultipartForm.Value["title"] == nil {
				refuse("not a multipart form of a file and a title")
				return
			}
			w.WriteHeader(http.StatusNoContent)
		case "/odd/batch":
			var patch []map[string]any
			if mediaType != "application/json-patch+json" || json.NewDecoder(r.Body).Decode(&patch) != nil || len(patch) == 0 || patch[0]["op"] == nil {
				refuse("not a JSON patch")
				return
			}
			w.WriteHeader(http.StatusNoContent)
		case "/odd/tagged":
			w.Header().Set("Content-Type", "application/json")
			if r.Header.Get("X-Request-Id") == "" {
				w.WriteHeader(http.StatusBadRequest)
				w.Write([]byte(`{"code":"E400","message":"X-Request-Id: required","status":400}`))
				return
			}
			w.Write([]byte(`["a","b"]`))
		case "/odd/report":
			w.Header().Set("Content-Type", "application/xml")
			w.Write([]byte(`<report><count>3</count></report>`))
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	})
}

// TestOperationsThatCannotAllBeExercised: the suite judges what it can of
// a document and says why not the rest. A required header is sent, made
// from its schema; one value of a query array is no fault; an answer in a
// media type other than JSON is judged by its status, headers and type; a
// form, a multipart form with a file and a JSON patch are sent in their
// media types; a body the suite does not make, XML, skips the checks of its
// operation, with the reason the coverage summary gives.
func TestOperationsThatCannotAllBeExercised(t *testing.T) {
	t.Parallel()
	c, err := spec.Read([]byte(oddities))
	if err != nil {
		t.Fatal(err)
	}
	h := judgeOver(t, odditiesServer(), Settings{Contract: c})
	ctx := checkContext(t)
	for _, id := range []string{"listTagged", "report", "submitForm", "upload", "batch"} {
		if err := h.CheckValidRequest(ctx, c.Operation(id)); err != nil {
			t.Errorf("%s: %v, want a pass", id, err)
		}
	}
	for _, ir := range request.InvalidRequests(c, c.Operation("listTagged")) {
		if strings.Contains(ir.Name, "tags") {
			t.Errorf("listTagged: %q is made an invalid request, but one value of a query array is an array of one", ir.Name)
		}
	}
	wantSkipped(t, "postXML", h.Served(c.Operation("postXML")), "postXML takes its body as application/xml, and the suite makes JSON bodies, and form and multipart bodies of objects, only")
}

// TestErrorsThatBreakTheirDocumentFail: the errors of a server of another
// document are held to the body that document describes: petmock of
// numbered widgets, whose Error is an integer code and a message, fails
// where its errors send the Petstore's string code instead, and where
// their message is empty.
func TestErrorsThatBreakTheirDocumentFail(t *testing.T) {
	t.Parallel()
	path := ct.WriteDocument(t, ct.NumberedWidgets)
	c := readFile(t, path)
	for _, tc := range []struct {
		name   string
		edit   func(e map[string]any, status int)
		rule   string
		member string // the member the verdict names
	}{
		{"a string code", func(e map[string]any, status int) { e["code"] = "E" + strconv.Itoa(status) }, "contract.response", "code"},
		{"an empty message", func(e map[string]any, _ int) { e["message"] = "" }, "errors.shape", "message"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			broken := ct.Intercept(ct.PetmockOf(t, path), func(_ *http.Request, rec *httptest.ResponseRecorder) {
				if rec.Code >= 400 {
					ct.EditJSON(rec, func(v any) any {
						if e, ok := v.(map[string]any); ok {
							tc.edit(e, rec.Code)
						}
						return v
					})
				}
			})
			h := judgeOver(t, broken, Settings{Contract: c})
			ctx := checkContext(t)
			failed := 0
			for _, chk := range genericChecks(h.contract, h.cfg.APIKey) {
				err := chk.run(h, ctx)
				var b *judge.Broken
				switch {
				case err == nil:
				case !errors.As(err, &b):
					t.Errorf("%s: %v, want a pass or a *Broken", chk.name, err)
				case b.Rule != tc.rule || !strings.Contains(b.Detail, tc.member):
					t.Errorf("%s: broke %s: %s; want %s naming %s", chk.name, b.Rule, b.Detail, tc.rule, tc.member)
				default:
					failed++
				}
			}
			if failed == 0 {
				t.Errorf("no check failed, want those that meet an error to break %s", tc.rule)
			}
		})
	}
}

// dynamicPlanets is a 3.1 document whose answer's schema binds its items
// with $dynamicRef in a way kin-openapi's validator cannot compile, as
// Scalar Galaxy's does.
const dynamicPlanets = `openapi: 3.1.0
info: {title: Dynamic, version: 1.0.0}
servers: [{url: /d}]
paths:
  /planets:
    get:
      operationId: listPlanets
      responses:
        '200':
          description: Planets.
          content:
            application/json:
              schema:
                $id: https://galaxy.example/schemas/PaginatedPlanets
                $defs:
                  itemType:
                    $dynamicAnchor: itemType
                    $ref: '#/components/schemas/Planet'
                $ref: '#/components/schemas/Paginated'
components:
  schemas:
    Planet: {type: object, properties: {name: {type: string}, moon: {$ref: '#/components/schemas/Moon'}}}
    Moon: {type: object, properties: {name: {type: string}}}
    Paginated:
      $id: https://galaxy.example/schemas/Paginated
      $defs: {itemType: {$dynamicAnchor: itemType, not: {}}}
      type: object
      properties:
        data: {type: array, items: {$dynamicRef: '#itemType'}}
`

// TestUncheckableSchemaSkips: an answer whose schema the validator cannot
// compile is not blamed on the server: the check that met it is skipped,
// saying why.
func TestUncheckableSchemaSkips(t *testing.T) {
	t.Parallel()
	c, err := spec.Read([]byte(dynamicPlanets))
	if err != nil {
		t.Fatal(err)
	}
	server := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"data":[{"name":"Mars"}]}`))
	})
	h := judgeOver(t, server, Settings{Contract: c})
	wantSkipped(t, "listPlanets", h.CheckValidRequest(checkContext(t), c.Operation("listPlanets")), "the validator cannot read the schema")
}

// twoBases is a document whose one path has a server of its own, below
// another base path than the document's.
const twoBases = `openapi: 3.0.3
info: {title: Two bases, version: 1.0.0}
servers: [{url: https://api.example.com/v1}]
paths:
  /things:
    get:
      operationId: listThings
      responses: {'200': {description: Things., content: {application/json: {schema: {type: array, items: {type: string}}}}}}
  /files:
    servers: [{url: https://files.example.com/storage/v2}]
    get:
      operationId: listFiles
      responses: {'200': {description: Files., content: {application/json: {schema: {type: array, items: {type: string}}}}}}
`

// TestOperationsBelowTheirOwnBase: an operation whose path has a server
// of its own is sent below that server's base path, in place of the
// document's at the end of the base URL, and found there.
func TestOperationsBelowTheirOwnBase(t *testing.T) {
	t.Parallel()
	path := ct.WriteDocument(t, twoBases)
	c := readFile(t, path)
	if op := c.Operation("listFiles"); op == nil || op.Base != "/storage/v2" {
		t.Fatalf("listFiles is below %q, want /storage/v2", c.Operation("listFiles").Base)
	}
	h := judgeOver(t, ct.PetmockOf(t, path), Settings{Contract: c})
	for _, id := range []string{"listThings", "listFiles"} {
		if err := h.CheckValidRequest(checkContext(t), c.Operation(id)); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
}
