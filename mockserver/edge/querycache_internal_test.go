package edge

import (
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// TestQueriesKept asks listPets the same queries twice: a query that
// passed is kept and the second request is given what the first read, the
// very map; a query refused, one of a cursor and one too long are not
// kept, and a second request of each is judged anew.
func TestQueriesKept(t *testing.T) {
	g := testServer(t)
	check := func(target string) (*Call, error) {
		t.Helper()
		r := httptest.NewRequest("GET", "http://petmock"+target, nil)
		op, params, err := g.Route(r)
		if err != nil {
			t.Fatal(err)
		}
		return g.Check(r, op, params, nil, false)
	}
	long := "/v1/pets?limit=20&x=" + strings.Repeat("y", maxQueryKept)
	for _, tc := range []struct {
		target string
		kept   bool
		valid  bool
	}{
		{"/v1/pets?limit=20", true, true},
		{"/v1/pets?status=sold&limit=5", true, true},
		{"/v1/pets?limit=0", false, false},
		{"/v1/pets?limit=20&limit=21", false, false},
		{"/v1/pets?cursor=AQAAAAAAAAAU&limit=20", false, true},
		{long, false, true},
	} {
		first, err1 := check(tc.target)
		second, err2 := check(tc.target)
		if (err1 == nil) != tc.valid || (err2 == nil) != tc.valid {
			t.Errorf("%s: errors %v and %v, want valid: %v", tc.target, err1, err2, tc.valid)
			continue
		}
		if !tc.valid {
			continue
		}
		if kept := reflect.ValueOf(first.Query).UnsafePointer() == reflect.ValueOf(second.Query).UnsafePointer(); kept != tc.kept {
			t.Errorf("%s: kept %v, want %v", tc.target, kept, tc.kept)
		}
		if !reflect.DeepEqual(first.Query, second.Query) || first.After != second.After {
			t.Errorf("%s: the second request read %v after %d, the first %v after %d", tc.target, second.Query, second.After, first.Query, first.After)
		}
	}
}

// TestQueriesKeptOnlyWhereTheTextDecides keeps the queries of an
// operation whose parameters are all simple ones of the query, and never
// those of one of a path parameter or of a header parameter, whose
// validity the query's text alone does not decide.
func TestQueriesKeptOnlyWhereTheTextDecides(t *testing.T) {
	const src = `openapi: 3.0.3
info: {title: Kept queries, version: '1'}
servers: [{url: /v1}]
paths:
  /plain:
    get:
      operationId: plain
      parameters: [{name: limit, in: query, schema: {type: integer, maximum: 10}}]
      responses: {'204': {description: Done.}}
  /owners/{ownerId}/pets:
    get:
      operationId: ownersPets
      parameters:
        - {name: ownerId, in: path, required: true, schema: {type: integer, maximum: 10}}
        - {name: limit, in: query, schema: {type: integer, maximum: 10}}
      responses: {'204': {description: Done.}}
  /tagged:
    get:
      operationId: tagged
      parameters:
        - {name: X-Tag, in: header, required: true, schema: {type: string}}
        - {name: limit, in: query, schema: {type: integer, maximum: 10}}
      responses: {'204': {description: Done.}}
`
	c, err := spec.Read([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	g := gateOf(t, c)
	for _, tc := range []struct {
		target string
		kept   bool
	}{
		{"/v1/plain?limit=3", true},
		{"/v1/owners/2/pets?limit=3", false},
		{"/v1/owners/11/pets?limit=3", false},
		{"/v1/tagged?limit=3", false},
	} {
		var op *Operation
		for range 2 {
			r := httptest.NewRequest("GET", "http://petmock"+tc.target, nil)
			r.Header.Set("X-Tag", "a")
			var params map[string]string
			if op, params, err = g.Route(r); err != nil {
				t.Fatal(err)
			}
			g.Check(r, op, params, nil, false)
		}
		if kept := op.queries.Load() != nil; kept != tc.kept {
			t.Errorf("%s: a query kept: %v, want %v", tc.target, kept, tc.kept)
		}
	}
	// The same query of another owner is judged anew: 11 is past the
	// maximum, whatever the query.
	r := httptest.NewRequest("GET", "http://petmock/v1/owners/11/pets?limit=3", nil)
	op, params, _ := g.Route(r)
	if _, err := g.Check(r, op, params, nil, false); err == nil {
		t.Error("ownerId 11, past its maximum, passed")
	}
}
