package mockserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/edge"
)

// headersDocument requires headers of its answers, a success's and an
// error's alike, and has errors without a body, as Swagger Petstore's
// "400: Invalid ID supplied" is.
const headersDocument = `
  /pets:
    get:
      operationId: listPets
      responses:
        '200':
          description: the pets
          headers:
            X-Total-Count: {required: true, schema: {type: integer, minimum: 0}}
            X-Rate-Limit: {required: true, example: 100, schema: {type: integer}}
            X-Optional: {schema: {type: string}}
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Pet'}}
        '401':
          description: no valid key
          headers:
            X-Request-Id: {required: true, schema: {type: string, format: uuid}}
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
    post:
      operationId: createPet
      requestBody:
        required: true
        content:
          application/json:
            schema: {type: object, required: [name], properties: {name: {type: string}}}
      responses:
        '201':
          description: created
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
  /pets/{petId}:
    parameters:
      - {name: petId, in: path, required: true, schema: {type: integer}}
    get:
      operationId: getPet
      responses:
        '200':
          description: the pet
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Pet'}
        '400': {description: Invalid ID supplied}
        '404': {description: Pet not found}
  /report:
    get:
      operationId: getReport
      parameters:
        - {name: day, in: query, schema: {type: string, format: date}}
      responses:
        '200':
          description: the report
          headers:
            X-Generated: {required: true, schema: {type: string, format: date-time}}
          content:
            application/json:
              schema: {type: object, properties: {total: {type: integer}}}
        '400':
          description: a bad day
          headers:
            X-Petmock-Reason: {schema: {type: string, enum: [bad]}}
  /stats:
    get:
      operationId: getStats
      responses:
        '2XX':
          description: the stats, as Ably's answers of a range with a required Link
          headers:
            Link: {required: true, schema: {type: string, pattern: '^<.*>; rel="(first|current|last)"$'}}
          content:
            application/json:
              schema: {type: object}
`

// TestRequiredHeadersOnEveryStatus: a header a response requires is sent,
// made from its example or schema, with the answers of a resource, of an
// operation of no resource, of a range of statuses (2XX), and of an error
// alike; and an error the
// document gives no body tells its reason in X-Petmock-Reason, unless the
// response declares a header of that name.
func TestRequiredHeadersOnEveryStatus(t *testing.T) {
	c := document(t, headersDocument)
	_, base := plainServer(t, mockserver.Config{Contract: c})
	auth := []string{"X-API-Key", key}
	for _, tt := range []struct {
		path    string
		headers []string
		status  int
		want    []string // headers the answer must hold
		reason  bool
	}{
		{"/pets", auth, 200, []string{"X-Total-Count", "X-Rate-Limit"}, false},
		{"/pets", nil, 401, []string{"X-Request-Id"}, false},
		{"/pets/1", auth, 200, nil, false},
		{"/pets/abc", auth, 400, nil, true},
		{"/pets/987654", auth, 404, nil, true},
		{"/report", auth, 200, []string{"X-Generated"}, false},
		{"/report?day=yesterday", auth, 400, nil, false},
		{"/stats", auth, 200, []string{"Link"}, false},
	} {
		req, resp, body := fetch(t, http.MethodGet, base+"/v1"+tt.path, "", tt.headers...)
		what := "GET " + tt.path
		if resp.StatusCode != tt.status {
			t.Errorf("%s: %d, want %d\n%s", what, resp.StatusCode, tt.status, body)
			continue
		}
		for _, h := range tt.want {
			if resp.Header.Get(h) == "" {
				t.Errorf("%s: %d without %s, which the document requires", what, resp.StatusCode, h)
			}
		}
		if got := resp.Header.Get(edge.ReasonHeader); (got != "") != tt.reason {
			t.Errorf("%s: %s is %q; want a reason: %v", what, edge.ReasonHeader, got, tt.reason)
		} else if tt.reason && !strings.Contains(got, "petId") {
			t.Errorf("%s: %s is %q, which does not name the field at fault", what, edge.ReasonHeader, got)
		}
		if err := documented(t, c, req, resp.StatusCode, resp.Header, body); err != nil {
			t.Errorf("%s: %v", what, err)
		}
	}
	_, resp, _ := fetch(t, http.MethodGet, base+"/v1/pets", "", auth...)
	if got := resp.Header.Get("X-Rate-Limit"); got != "100" {
		t.Errorf("X-Rate-Limit is %q, want its example, 100", got)
	}
	if got := resp.Header.Get("Access-Control-Expose-Headers"); !strings.Contains(got, edge.ReasonHeader) {
		t.Errorf("Access-Control-Expose-Headers is %q: a browser app cannot read %s", got, edge.ReasonHeader)
	}
}
