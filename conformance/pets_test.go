package conformance

import (
	"encoding/json"
	"math"
	"net/http"
	"reflect"
	"testing"
)

func TestExactInt(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"12", 12, true},
		{"-7", -7, true},
		{"9223372036854775807", math.MaxInt64, true},
		{"-9223372036854775808", math.MinInt64, true},
		{"1.0", 1, true},
		{"1e2", 100, true},
		{"1E+2", 100, true},
		{"1.5", 0, false},
		{"9223372036854775808", 0, false},
		{"9.223372036854776e18", 0, false}, // MaxInt64 rounded through a float64
		{"9223372036854776000", 0, false},
		{"1e999999999", 0, false},
		{"abc", 0, false},
	}
	for _, tc := range tests {
		got, ok := exactInt(json.Number(tc.in))
		if got != tc.want || ok != tc.ok {
			t.Errorf("exactInt(%s) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestPetSame(t *testing.T) {
	avail, sold := "available", "sold"
	base := pet{ID: "1", Name: "Rex", CategoryID: "9223372036854775807", Status: &avail}
	tests := []struct {
		name  string
		other pet
		same  bool
	}{
		{"equal", pet{ID: "1", Name: "Rex", CategoryID: "9223372036854775807", Status: &avail}, true},
		{"the same numbers written otherwise", pet{ID: "1.0", Name: "Rex", CategoryID: "9223372036854775807", Status: &avail}, true},
		{"a rounded categoryId", pet{ID: "1", Name: "Rex", CategoryID: "9223372036854776000", Status: &avail}, false},
		{"another name", pet{ID: "1", Name: "rex", CategoryID: "9223372036854775807", Status: &avail}, false},
		{"another status", pet{ID: "1", Name: "Rex", CategoryID: "9223372036854775807", Status: &sold}, false},
		{"no status", pet{ID: "1", Name: "Rex", CategoryID: "9223372036854775807"}, false},
	}
	for _, tc := range tests {
		if same, diff := base.same(tc.other); same != tc.same {
			t.Errorf("%s: same = %v (%s), want %v", tc.name, same, diff, tc.same)
		}
	}
}

func TestFirstDuplicate(t *testing.T) {
	if id, dup := firstDuplicate([]pet{{ID: "1"}, {ID: "2"}, {ID: "3"}}); dup {
		t.Errorf("firstDuplicate of unique ids = %d, true", id)
	}
	if id, dup := firstDuplicate([]pet{{ID: "1"}, {ID: "2"}, {ID: "2.0"}}); !dup || id != 2 {
		t.Errorf("firstDuplicate = %d, %v; want 2, true", id, dup)
	}
}

func TestParseLinks(t *testing.T) {
	tests := []struct {
		in   []string
		want []link
	}{
		{[]string{`<http://h/v1/pets?cursor=A&limit=2>; rel="next"`}, []link{{"http://h/v1/pets?cursor=A&limit=2", []string{"next"}}}},
		{[]string{`</v1/pets?a=1,2>; rel=next, <http://h/v1/pets?status=sold>; rel="successor-version"`},
			[]link{{"/v1/pets?a=1,2", []string{"next"}}, {"http://h/v1/pets?status=sold", []string{"successor-version"}}}},
		{[]string{`<x>; title="a, b; c"; REL="Next Prev"`}, []link{{"x", []string{"next", "prev"}}}},
		{[]string{"not a link", `<a>; rel="x"`}, []link{{"a", []string{"x"}}}},
		{nil, nil},
	}
	for _, tc := range tests {
		if got := parseLinks(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseLinks(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
	h := http.Header{"Link": {`<a>; rel="successor-version"`, `<b>; rel="next"`}}
	if got := linkTarget(h, "next"); got != "b" {
		t.Errorf(`linkTarget(next) = %q, want "b"`, got)
	}
	if got := linkTarget(h, "prev"); got != "" {
		t.Errorf(`linkTarget(prev) = %q, want ""`, got)
	}
}
