package answercheck_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/answercheck"
)

// shop is a document with what the Petstore's lacks: a required header,
// a header of an integer schema, and a media type besides JSON.
const shop = `openapi: 3.0.3
info: {title: Shop, version: 1.0.0}
servers: [{url: /api}]
paths:
  /orders/{id}:
    get:
      operationId: getOrder
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses:
        '204':
          description: No order, with a body a 204 cannot have.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Order'}
        '200':
          description: An order.
          headers:
            X-Request-Id: {required: true, schema: {type: string}}
            X-Rate-Limit: {schema: {type: integer}}
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Order'}
            application/xml:
              schema: {$ref: '#/components/schemas/Order'}
            text/xml; charset=utf-8:
              schema: {type: string}
        '101':
          description: Switches to a socket, whose messages are orders.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Order'}
        '404':
          description: No such order.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
components:
  schemas:
    Order:
      type: object
      required: [id, total]
      properties:
        id: {type: integer}
        total: {type: number}
    Error:
      type: object
      required: [code, message, status]
      properties:
        code: {type: string}
        message: {type: string}
        status: {type: integer}
`

func newChecker(tb testing.TB, doc string, strict bool) (*spec.Contract, *answercheck.Checker) {
	tb.Helper()
	var c *spec.Contract
	var err error
	if doc == "" {
		c, err = spec.Default()
	} else {
		c, err = spec.Read([]byte(doc))
	}
	if err != nil {
		tb.Fatal(err)
	}
	k, err := answercheck.New(c, strict)
	if err != nil {
		tb.Fatal(err)
	}
	return c, k
}

// rules lists the rules of vs, in order.
func rules(vs []answercheck.Violation) []string {
	out := []string{}
	for _, v := range vs {
		out = append(out, v.Rule)
	}
	return out
}

// TestCheck: an answer the document describes breaks nothing; one that
// breaks it breaks each rule it breaks, in the order a reader fixes them,
// and each message names what is wrong.
func TestCheck(t *testing.T) {
	_, k := newChecker(t, shop, false)
	asJSON := func(extra ...string) http.Header {
		h := http.Header{"Content-Type": {"application/json"}}
		for i := 0; i+1 < len(extra); i += 2 {
			h.Set(extra[i], extra[i+1])
		}
		return h
	}
	for _, tc := range []struct {
		name   string
		method string
		status int
		header http.Header
		body   string
		unread bool
		want   []string
		says   string // in the first message
	}{
		{"an order", "GET", 200, asJSON("X-Request-Id", "r1"), `{"id":7,"total":9.5}`, false, nil, ""},
		{"an order as XML", "GET", 200, http.Header{"Content-Type": {"application/xml"}, "X-Request-Id": {"r1"}}, `<order/>`, false, nil, ""},
		{"an order as XML of a media type documented with its charset", "GET", 200, http.Header{"Content-Type": {"text/xml; charset=utf-8"}, "X-Request-Id": {"r1"}}, `<order/>`, false, nil, ""},
		{"a documented error", "GET", 404, asJSON(), `{"code":"not_found","message":"no order 7","status":404}`, false, nil, ""},
		{"an undocumented status", "GET", 418, asJSON(), `{"code":"teapot","message":"no","status":418}`, false,
			[]string{answercheck.RuleStatus}, "status 418 is not documented for getOrder (documented: 101, 200, 204, 404)"},
		{"a missing required header", "GET", 200, asJSON(), `{"id":7,"total":9.5}`, false,
			[]string{answercheck.RuleHeader}, `getOrder answered 200: response header "X-Request-Id" missing`},
		{"a header of the wrong type", "GET", 200, asJSON("X-Request-Id", "r1", "X-Rate-Limit", "many"), `{"id":7,"total":9.5}`, false,
			[]string{answercheck.RuleHeader}, `X-Rate-Limit`},
		{"a body without a required member", "GET", 200, asJSON("X-Request-Id", "r1"), `{"id":7}`, false,
			[]string{answercheck.RuleBody}, `getOrder answered 200: response body doesn't match schema`},
		{"a body that is no JSON", "GET", 200, asJSON("X-Request-Id", "r1"), `{"id":7,`, false,
			[]string{answercheck.RuleBody}, "the body is not valid JSON"},
		{"an undocumented media type", "GET", 200, http.Header{"Content-Type": {"text/plain"}, "X-Request-Id": {"r1"}}, `7`, false,
			[]string{answercheck.RuleMediaType}, "text/plain"},
		{"a wrong header and a wrong body", "GET", 200, asJSON(), `{"id":"seven","total":1}`, false,
			[]string{answercheck.RuleHeader, answercheck.RuleBody}, "X-Request-Id"},
		{"an error whose status is another", "GET", 404, asJSON(), `{"code":"not_found","message":"no order","status":400}`, false,
			[]string{answercheck.RuleErrorShape}, "status is 400, but the HTTP status is 404"},
		{"an error that is no Error", "GET", 404, http.Header{"Content-Type": {"text/plain"}}, `not found`, false,
			[]string{answercheck.RuleMediaType, answercheck.RuleErrorShape}, "text/plain"},
		{"an unread body with its headers", "GET", 200, asJSON("X-Request-Id", "r1"), `{"id":`, true, nil, ""},
		{"an unread body without a required header", "GET", 200, asJSON(), `{"id":`, true,
			[]string{answercheck.RuleHeader}, "X-Request-Id"},
		{"HEAD, whose answer has no body", "HEAD", 404, asJSON(), ``, false, nil, ""},
		{"a 204 without a body, whose document gives it one", "GET", 204, http.Header{}, ``, false, nil, ""},
		{"a 101 without a body, whose document gives it one", "GET", 101, asJSON(), ``, false, nil, ""},
	} {
		req := httptest.NewRequest(tc.method, "http://shop.example/api/orders/7", nil)
		got, err := k.Check(req, answercheck.Answer{Status: tc.status, Header: tc.header, Body: []byte(tc.body), Unread: tc.unread})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if want := tc.want; !slices.Equal(rules(got), append([]string{}, want...)) {
			t.Errorf("%s: %s /api/orders/7 answered %d %s: broke %v, want %v (%v)", tc.name, tc.method, tc.status, tc.body, rules(got), want, got)
			continue
		}
		if tc.says != "" && !strings.Contains(got[0].Message, tc.says) {
			t.Errorf("%s: the message %q does not say %q", tc.name, got[0].Message, tc.says)
		}
	}
}

// TestCheckNamesFewSchemaErrors: a body of many bad items names the first
// few of its errors, and how many more there are.
func TestCheckNamesFewSchemaErrors(t *testing.T) {
	_, k := newChecker(t, "", false)
	items := strings.Repeat(`{"id":1},`, 20)
	req := httptest.NewRequest("GET", "http://petstore.example/v1/pets", nil)
	got, err := k.Check(req, answercheck.Answer{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte("[" + strings.TrimSuffix(items, ",") + "]")})
	if err != nil || len(got) != 1 {
		t.Fatalf("broke %v, %v; want one violation", got, err)
	}
	if m := got[0].Message; strings.Count(m, "; ") != answercheck.MaxReportedSchemaErrors+1 || !strings.HasSuffix(m, "more") {
		t.Errorf("the message names %d errors: %s", strings.Count(m, "; "), m)
	}
}

// TestCheckStrict: a header that is petmock's choice binds a strict
// checker only, and the document itself is left as it was.
func TestCheckStrict(t *testing.T) {
	c, loose := newChecker(t, "", false)
	strict, err := answercheck.New(c, true)
	if err != nil {
		t.Fatal(err)
	}
	header := http.Header{"Content-Type": {"application/json"}, "Deprecation": {"yes"}}
	body := []byte(`{"id":7,"name":"Rex","categoryId":1}`)
	for _, tt := range []struct {
		name string
		k    *answercheck.Checker
		want []string
	}{
		{"loose", loose, []string{}},
		{"strict", strict, []string{answercheck.RuleHeader}},
	} {
		req := httptest.NewRequest("GET", "http://petstore.example/v1/pets/7", nil)
		got, err := tt.k.Check(req, answercheck.Answer{Status: 200, Header: header, Body: body})
		if err != nil || !slices.Equal(rules(got), tt.want) {
			t.Errorf("%s: a Deprecation of another pattern broke %v, %v; want %v", tt.name, rules(got), err, tt.want)
		}
	}
	if c.Operation(spec.GetPet).Op.Responses.Status(200).Value.Headers["Deprecation"] == nil {
		t.Error("the document lost its Deprecation header")
	}
}

// TestCheckOperation: an answer to an operation found already is checked
// as Check checks it; an operation of another document is not checked.
func TestCheckOperation(t *testing.T) {
	c, k := newChecker(t, "", false)
	other, _ := newChecker(t, shop, false)
	req := httptest.NewRequest("GET", "http://petstore.example/v1/pets/7", nil)
	a := answercheck.Answer{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"id":"7"}`)}
	got := k.CheckOperation(c.Operation(spec.GetPet), map[string]string{"petId": "7"}, req, a)
	if !slices.Equal(rules(got), []string{answercheck.RuleBody}) {
		t.Errorf("getPet answered %s: broke %v, want %s", a.Body, got, answercheck.RuleBody)
	}
	if got := k.CheckOperation(other.Operation("getOrder"), nil, req, a); got != nil {
		t.Errorf("an operation of another document broke %v, want nothing checked", got)
	}
}

// TestCheckNoOperation: a request of no operation says so.
func TestCheckNoOperation(t *testing.T) {
	_, k := newChecker(t, "", false)
	req := httptest.NewRequest("GET", "http://petstore.example/v1/owners", nil)
	if _, err := k.Check(req, answercheck.Answer{Status: 200}); !errors.Is(err, answercheck.ErrNoOperation) {
		t.Errorf("GET /v1/owners: %v, want ErrNoOperation", err)
	}
}

// dynamic is a 3.1 document whose answer's schema binds its items with
// $dynamicRef, which the validator cannot compile.
const dynamic = `openapi: 3.1.0
info: {title: Dynamic, version: 1.0.0}
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

// TestCheckUncompiled: a body whose schema the validator cannot compile
// breaks no rule of the document but says that it was not judged.
func TestCheckUncompiled(t *testing.T) {
	_, k := newChecker(t, dynamic, false)
	req := httptest.NewRequest("GET", "http://galaxy.example/planets", nil)
	got, err := k.Check(req, answercheck.Answer{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"data":[{"name":"Mars"}]}`)})
	if err != nil || !slices.Equal(rules(got), []string{answercheck.RuleUncheckable}) {
		t.Errorf("broke %v, %v; want %s", got, err, answercheck.RuleUncheckable)
	}
}
