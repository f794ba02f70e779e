package spec_test

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"

	"github.com/petstore/contract/spec"
)

func parsePath(tb testing.TB, text string) *spec.PathTemplate {
	tb.Helper()
	t, err := spec.ParsePath(text)
	if err != nil {
		tb.Fatalf("ParsePath(%q): %v", text, err)
	}
	return t
}

// TestPathTemplateParses: the segments, parameters and literal words of
// templates, odd ones included.
func TestPathTemplateParses(t *testing.T) {
	tests := []struct {
		text     string
		kinds    string // one letter a segment: l literal, p parameter, m mixed
		params   []string
		literals []string
		simple   bool
	}{
		{"/pets", "l", nil, []string{"pets"}, true},
		{"/pets/{petId}", "lp", []string{"petId"}, []string{"pets"}, true},
		{"/store/orders/{orderId}", "llp", []string{"orderId"}, []string{"store", "orders"}, true},
		{"/owners/{ownerId}/pets/{petId}", "lplp", []string{"ownerId", "petId"}, []string{"owners", "pets"}, true},
		{"/", "l", nil, nil, true},
		{"/pets/", "ll", nil, []string{"pets"}, true},
		{"/files/{name}.{ext}", "lm", []string{"name", "ext"}, []string{"files"}, false},
		{"/pets/{petId:[0-9]+}", "lm", []string{"petId"}, []string{"pets"}, false},
		{"/pets/x{petId}", "lm", []string{"petId"}, []string{"pets"}, false},
		{"/pets/{petId}x", "lm", []string{"petId"}, []string{"pets"}, false},
		{"/a/{id}/b/{id}", "lplp", []string{"id"}, []string{"a", "b"}, true},
		{"/files/{path:[a-z]+/[a-z]+}", "lm", []string{"path"}, []string{"files"}, false},
		{"/codes/{code:[A-Z]{3}}", "lm", []string{"code"}, []string{"codes"}, false},
	}
	letter := map[spec.SegmentKind]string{spec.SegmentLiteral: "l", spec.SegmentParam: "p", spec.SegmentMixed: "m"}
	for _, tt := range tests {
		tmpl := parsePath(t, tt.text)
		var kinds string
		for _, s := range tmpl.Segments() {
			kinds += letter[s.Kind]
		}
		if kinds != tt.kinds || !slices.Equal(tmpl.Params(), tt.params) || !slices.Equal(tmpl.Literals(), tt.literals) || tmpl.Simple() != tt.simple {
			t.Errorf("%s: segments %s, params %q, literals %q, simple %v; want %s, %q, %q, %v",
				tt.text, kinds, tmpl.Params(), tmpl.Literals(), tmpl.Simple(), tt.kinds, tt.params, tt.literals, tt.simple)
		}
		if tmpl.String() != tt.text {
			t.Errorf("%s: String() = %q", tt.text, tmpl.String())
		}
	}
}

// TestPathTemplateRefuses: what the router of the request validation
// cannot read is refused, saying why.
func TestPathTemplateRefuses(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"pets", "must begin with /"},
		{"", "must begin with /"},
		{"/pets/{petId", "{petId: unbalanced braces"},
		{"/pets/petId}", "petId}: unbalanced braces"},
		{"/pets/{}", "a parameter needs a name"},
		{"/pets/{:[0-9]+}", "a parameter needs a name"},
		{"/pets/{id:}", "a pattern after a colon"},
		{"/pets/{id:(a|b)}", "capturing group"},
		{"/pets/{id:[}", "error parsing regexp"},
	} {
		_, err := spec.ParsePath(tt.text)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParsePath(%q): %v, want an error saying %q", tt.text, err, tt.want)
		}
	}
}

// TestPathTemplateMatches: paths below the base path, escaped as on the
// wire, and the values their parameters take, escaped as in the path.
func TestPathTemplateMatches(t *testing.T) {
	tests := []struct {
		template, path string
		want           map[string]string // nil: no match
	}{
		{"/pets", "/pets", map[string]string{}},
		{"/pets", "/pets/", nil},
		{"/pets", "/pet", nil},
		{"/pets", "pets", nil},
		{"/pets", "", nil},
		{"/pets/{petId}", "/pets/12", map[string]string{"petId": "12"}},
		{"/pets/{petId}", "/pets/", nil},
		{"/pets/{petId}", "/pets/12/", nil},
		{"/pets/{petId}", "/pets/12/photos", nil},
		{"/pets/{petId}", "/pets/a%2Fb", map[string]string{"petId": "a%2Fb"}},
		{"/pets/{petId}", "/pets/%20", map[string]string{"petId": "%20"}},
		{"/owners/{o}/pets/{p}", "/owners/1/pets/2", map[string]string{"o": "1", "p": "2"}},
		{"/owners/{o}/pets/{p}", "/owners/1/cats/2", nil},
		{"/a/{id}/b/{id}", "/a/1/b/2", map[string]string{"id": "2"}},
		{"/", "/", map[string]string{}},
		{"/", "/pets", nil},
		{"/pets/", "/pets/", map[string]string{}},
		{"/files/{name}.{ext}", "/files/a.b.c", map[string]string{"name": "a.b", "ext": "c"}},
		{"/files/{name}.{ext}", "/files/abc", nil},
		{"/files/{name}.{ext}", "/files/a/b.c", nil},
		{"/pets/{petId:[0-9]+}", "/pets/12", map[string]string{"petId": "12"}},
		{"/pets/{petId:[0-9]+}", "/pets/1a", nil},
		{"/pets/x{petId}", "/pets/x1", map[string]string{"petId": "1"}},
		{"/pets/x{petId}", "/pets/x", nil},
		{"/files/{path:[a-z]+/[a-z]+}", "/files/ab/cd", map[string]string{"path": "ab/cd"}},
		{"/codes/{code:[A-Z]{3}}", "/codes/ABC", map[string]string{"code": "ABC"}},
		{"/codes/{code:[A-Z]{3}}", "/codes/ABCD", nil},
		{"/a.b/{x}", "/aXb/1", nil},
	}
	for _, tt := range tests {
		got, ok := parsePath(t, tt.template).Match(tt.path)
		if ok != (tt.want != nil) || !maps.Equal(got, tt.want) {
			t.Errorf("%s: Match(%q) = %v, %v; want %v, %v", tt.template, tt.path, got, ok, tt.want, tt.want != nil)
		}
	}
}

// TestPathTemplateMatchesAsTheRouter: Match agrees with the router of the
// request validation, gorillamux, on every template and path of
// TestPathTemplateMatches and more.
func TestPathTemplateMatchesAsTheRouter(t *testing.T) {
	templates := []string{
		"/pets", "/pets/{petId}", "/owners/{o}/pets/{p}", "/a/{id}/b/{id}", "/", "/pets/",
		"/files/{name}.{ext}", "/pets/{petId:[0-9]+}", "/pets/x{petId}", "/files/{path:[a-z]+/[a-z]+}",
		"/codes/{code:[A-Z]{3}}", "/a.b/{x}", "/v/{a}-{b}-{c}",
	}
	paths := []string{
		"/pets", "/pets/", "/pet", "/pets/12", "/pets/12/", "/pets/12/photos", "/pets/a%2Fb", "/pets/%20",
		"/owners/1/pets/2", "/owners/1/cats/2", "/owners//pets/2", "/a/1/b/2", "/", "/files/a.b.c", "/files/abc",
		"/files/a/b.c", "/pets/1a", "/pets/x1", "/pets/x", "/files/ab/cd", "/codes/ABC", "/codes/ABCD", "/aXb/1",
		"/a.b/1", "/v/1-2-3", "/v/1-2-3-4", "/v/--", "//", "/pets//", "/pets/%41",
	}
	for _, text := range templates {
		tmpl := parsePath(t, text)
		router := routerOf(t, text)
		for _, p := range paths {
			got, ok := tmpl.Match(p)
			want, wantOK := routerMatch(t, router, p)
			if ok != wantOK || (ok && !maps.Equal(got, want)) {
				t.Errorf("%s: Match(%q) = %v, %v; the router finds %v, %v", text, p, got, ok, want, wantOK)
			}
		}
	}
}

// routerOf returns the router of a document of one path, template, below
// the base path /v1.
func routerOf(tb testing.TB, template string) routers.Router {
	tb.Helper()
	doc := &openapi3.T{OpenAPI: "3.0.3", Info: &openapi3.Info{Title: "t", Version: "1"}, Servers: openapi3.Servers{{URL: "/v1"}}}
	doc.Paths = openapi3.NewPaths(openapi3.WithPath(template, &openapi3.PathItem{Get: &openapi3.Operation{Responses: openapi3.NewResponses()}}))
	router, err := spec.NewRouter(doc)
	if err != nil {
		tb.Fatalf("%s: %v", template, err)
	}
	return router
}

// routerMatch returns what router finds for path below /v1, escaped.
func routerMatch(tb testing.TB, router routers.Router, path string) (map[string]string, bool) {
	tb.Helper()
	u, err := url.Parse("http://h/v1" + path)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	_, params, err := router.FindRoute(&http.Request{Method: http.MethodGet, URL: u})
	if err != nil {
		return nil, false
	}
	return params, true
}

// TestPathTemplateExpands: values are escaped for a path segment by
// Expand, and taken as they are by ExpandRaw.
func TestPathTemplateExpands(t *testing.T) {
	tests := []struct {
		template     string
		values       map[string]string
		escaped, raw string
	}{
		{"/pets", nil, "/pets", "/pets"},
		{"/pets/{petId}", map[string]string{"petId": "12"}, "/pets/12", "/pets/12"},
		{"/pets/{petId}", map[string]string{"petId": "a/b c"}, "/pets/a%2Fb%20c", "/pets/a/b c"},
		{"/pets/{petId}", map[string]string{"petId": "%41"}, "/pets/%2541", "/pets/%41"},
		{"/pets/{petId}", map[string]string{}, "/pets/", "/pets/"},
		{"/owners/{o}/pets/{p}", map[string]string{"o": "1", "p": "2"}, "/owners/1/pets/2", "/owners/1/pets/2"},
		{"/files/{name}.{ext}", map[string]string{"name": "a b", "ext": "txt"}, "/files/a%20b.txt", "/files/a b.txt"},
		{"/pets/{petId:[0-9]+}", map[string]string{"petId": "7"}, "/pets/7", "/pets/7"},
		{"/codes/{code:[A-Z]{3}}", map[string]string{"code": "ABC"}, "/codes/ABC", "/codes/ABC"},
		{"/a/{id}/b/{id}", map[string]string{"id": "x"}, "/a/x/b/x", "/a/x/b/x"},
	}
	for _, tt := range tests {
		tmpl := parsePath(t, tt.template)
		if got := tmpl.Expand(tt.values); got != tt.escaped {
			t.Errorf("%s: Expand(%v) = %q, want %q", tt.template, tt.values, got, tt.escaped)
		}
		if got := tmpl.ExpandRaw(tt.values); got != tt.raw {
			t.Errorf("%s: ExpandRaw(%v) = %q, want %q", tt.template, tt.values, got, tt.raw)
		}
	}
}

// TestPathTemplateItemOf: an item path is its collection's segments and
// one whole parameter.
func TestPathTemplateItemOf(t *testing.T) {
	tests := []struct {
		item, collection string
		param            string // "" for not an item path of it
	}{
		{"/pets/{petId}", "/pets", "petId"},
		{"/store/orders/{orderId}", "/store/orders", "orderId"},
		{"/owners/{o}/pets/{p}", "/owners/{o}/pets", "p"},
		{"/pets/{petId}/photos", "/pets", ""},
		{"/pets/{petId}", "/pet", ""},
		{"/pets", "/pets", ""},
		{"/pets/{petId:[0-9]+}", "/pets", ""},
		{"/pets/x{petId}", "/pets", ""},
		{"/pets/{name}.{ext}", "/pets", ""},
		{"/owners/{x}/pets/{p}", "/owners/{o}/pets", ""},
		{"/{id}", "/", ""},
	}
	for _, tt := range tests {
		param, ok := parsePath(t, tt.item).ItemOf(parsePath(t, tt.collection))
		if ok != (tt.param != "") || param != tt.param {
			t.Errorf("%s.ItemOf(%s) = %q, %v; want %q, %v", tt.item, tt.collection, param, ok, tt.param, tt.param != "")
		}
	}
}

// FuzzPathTemplate: a path expanded from values matches its template,
// gives back values that expand to the same path, and is matched as the
// router of the request validation matches it; for a simple template,
// the values unescape to those expanded.
func FuzzPathTemplate(f *testing.F) {
	templates := []string{
		"/pets/{petId}", "/owners/{o}/pets/{p}", "/files/{name}.{ext}", "/pets/{petId:[0-9]+}",
		"/v/{a}-{b}", "/pets/x{petId}y", "/",
	}
	parsed := make([]*spec.PathTemplate, len(templates))
	found := make([]routers.Router, len(templates))
	for i, text := range templates {
		parsed[i] = parsePath(f, text)
		found[i] = routerOf(f, text)
	}
	f.Add(uint8(0), "12", "x")
	f.Add(uint8(1), "a/b", "c d")
	f.Add(uint8(2), "a.b", "c.d")
	f.Add(uint8(3), "12", "")
	f.Add(uint8(4), "-", "--")
	f.Add(uint8(5), "%41", "?#")
	f.Add(uint8(6), "", "")
	f.Fuzz(func(t *testing.T, which uint8, a, b string) {
		i := int(which) % len(templates)
		tmpl := parsed[i]
		values := map[string]string{}
		for j, name := range tmpl.Params() {
			values[name] = []string{a, b}[j%2]
		}
		path := tmpl.Expand(values)
		got, ok := tmpl.Match(path)
		want, wantOK := routerMatch(t, found[i], path)
		if ok != wantOK || (ok && !maps.Equal(got, want)) {
			t.Fatalf("%s: Match(%q) = %v, %v; the router finds %v, %v", templates[i], path, got, ok, want, wantOK)
		}
		empty := slices.Contains(slices.Collect(maps.Values(values)), "")
		if !ok {
			if tmpl.Simple() && !empty {
				t.Fatalf("%s: %q, expanded from %v, does not match", templates[i], path, values)
			}
			return
		}
		if back := tmpl.ExpandRaw(got); back != path {
			t.Fatalf("%s: ExpandRaw(Match(%q)) = %q", templates[i], path, back)
		}
		if !tmpl.Simple() {
			return
		}
		for name, v := range values {
			if u, err := url.PathUnescape(got[name]); err != nil || u != v {
				t.Fatalf("%s: %s = %q from %q, unescaped %q, %v; want %q", templates[i], name, got[name], path, u, err, v)
			}
		}
	})
}

// ExamplePathTemplate matches a request's path and expands a template
// with values to escape.
func ExamplePathTemplate() {
	t, err := spec.ParsePath("/owners/{ownerId}/pets/{petId}")
	if err != nil {
		panic(err)
	}
	fmt.Println(t.Params(), t.Literals(), t.Simple())
	values, ok := t.Match("/owners/ann%20lee/pets/12")
	fmt.Println(values["ownerId"], values["petId"], ok)
	fmt.Println(t.Expand(map[string]string{"ownerId": "ann lee", "petId": "12"}))
	_, ok = t.Match("/owners/ann/cats/12")
	fmt.Println(ok)

	pets, _ := spec.ParsePath("/owners/{ownerId}/pets")
	fmt.Println(t.ItemOf(pets))
	// Output:
	// [ownerId petId] [owners pets] true
	// ann%20lee 12 true
	// /owners/ann%20lee/pets/12
	// false
	// petId true
}
