package edge

import (
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
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
	// A query of an operation of a path parameter is read anew.
	a, _ := check("/v1/pets/7?x=1")
	b, _ := check("/v1/pets/7?x=1")
	if a != nil && b != nil && a.Query != nil && reflect.ValueOf(a.Query).UnsafePointer() == reflect.ValueOf(b.Query).UnsafePointer() {
		t.Error("a query of getPet, of a path parameter, was kept")
	}
}
