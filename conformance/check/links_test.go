package check

import (
	"net/http"
	"reflect"
	"testing"
)

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
