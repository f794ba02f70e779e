package spec_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"reflect"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// styled returns a parameter id of the place in, of a schema of kind
// ("array", "object" of the members role and firstName, or "" for an
// integer), written in style (the place's default for "") and explode
// (the style's default for nil).
func styled(in, style string, explode *bool, kind string) *openapi3.Parameter {
	s := &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeInteger}}
	switch kind {
	case openapi3.TypeArray:
		s = &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeArray}, Items: openapi3.NewSchemaRef("", openapi3.NewIntegerSchema())}
	case openapi3.TypeObject:
		s = openapi3.NewObjectSchema().WithProperty("role", openapi3.NewStringSchema()).WithProperty("firstName", openapi3.NewStringSchema())
	}
	return &openapi3.Parameter{Name: "id", In: in, Style: style, Explode: explode, Schema: openapi3.NewSchemaRef("", s)}
}

var (
	exploded    = func() *bool { b := true; return &b }()
	notExploded = func() *bool { b := false; return &b }()
)

// The values of the examples of OpenAPI's table of styles, as made from a
// document, and as read back: text.
var (
	primitive = json.Number("5")
	array     = []any{json.Number("3"), json.Number("4"), json.Number("5")}
	object    = map[string]any{"role": "admin", "firstName": "Alex"}

	primitiveText = "5"
	arrayText     = []any{"3", "4", "5"}
	objectText    = map[string]any{"role": "admin", "firstName": "Alex"}
)

// TestParamText: a value of a path or header parameter is written as
// OpenAPI's table of styles shows (members in order of name), and read
// back to its text.
func TestParamText(t *testing.T) {
	for _, tc := range []struct {
		style   string
		explode *bool
		kind    string
		value   any
		text    string
		read    any
	}{
		{"", nil, "", primitive, "5", primitiveText},
		{"", nil, openapi3.TypeArray, array, "3,4,5", arrayText},
		{"", nil, openapi3.TypeObject, object, "firstName,Alex,role,admin", objectText},
		{"simple", exploded, "", primitive, "5", primitiveText},
		{"simple", exploded, openapi3.TypeArray, array, "3,4,5", arrayText},
		{"simple", exploded, openapi3.TypeObject, object, "firstName=Alex,role=admin", objectText},
		{"label", nil, "", primitive, ".5", primitiveText},
		{"label", nil, openapi3.TypeArray, array, ".3,4,5", arrayText},
		{"label", nil, openapi3.TypeObject, object, ".firstName,Alex,role,admin", objectText},
		{"label", exploded, "", primitive, ".5", primitiveText},
		{"label", exploded, openapi3.TypeArray, array, ".3.4.5", arrayText},
		{"label", exploded, openapi3.TypeObject, object, ".firstName=Alex.role=admin", objectText},
		{"matrix", nil, "", primitive, ";id=5", primitiveText},
		{"matrix", nil, openapi3.TypeArray, array, ";id=3,4,5", arrayText},
		{"matrix", nil, openapi3.TypeObject, object, ";id=firstName,Alex,role,admin", objectText},
		{"matrix", exploded, "", primitive, ";id=5", primitiveText},
		{"matrix", exploded, openapi3.TypeArray, array, ";id=3;id=4;id=5", arrayText},
		{"matrix", exploded, openapi3.TypeObject, object, ";firstName=Alex;role=admin", objectText},
		{"", nil, openapi3.TypeArray, []any{}, "", []any{}},
		{"label", nil, openapi3.TypeArray, []any{}, ".", []any{}},
		{"matrix", exploded, openapi3.TypeArray, []any{}, ";id=", []any{}},
		{"matrix", exploded, openapi3.TypeObject, map[string]any{}, ";", map[string]any{}},
		{"", nil, "", json.Number("1e2"), "100", "100"},
	} {
		for _, in := range []string{openapi3.ParameterInPath, openapi3.ParameterInHeader} {
			p := styled(in, tc.style, tc.explode, tc.kind)
			what := fmt.Sprintf("%s id of style %q, explode %v, %s %v", in, tc.style, spec.StyleOf(p).Explode, tc.kind, tc.value)
			text := spec.ParamText(p, tc.value)
			if text != tc.text {
				t.Errorf("%s: ParamText = %q, want %q", what, text, tc.text)
			}
			read, err := spec.ParamValue(p, text)
			if err != nil || !reflect.DeepEqual(read, tc.read) {
				t.Errorf("%s: ParamValue(%q) = %#v, %v; want %#v", what, text, read, err, tc.read)
			}
		}
	}
}

// TestAddQuery: a value of a query parameter is written as OpenAPI's
// table of styles shows, and read back to its text; an exploded empty
// array is not sent at all.
func TestAddQuery(t *testing.T) {
	for _, tc := range []struct {
		style   string
		explode *bool
		kind    string
		value   any
		query   string
		read    any
	}{
		{"", nil, "", primitive, "id=5", primitiveText},
		{"", nil, openapi3.TypeArray, array, "id=3&id=4&id=5", arrayText},
		{"", nil, openapi3.TypeObject, object, "firstName=Alex&role=admin", objectText},
		{"form", notExploded, "", primitive, "id=5", primitiveText},
		{"form", notExploded, openapi3.TypeArray, array, "id=3%2C4%2C5", arrayText},
		{"form", notExploded, openapi3.TypeObject, object, "id=firstName%2CAlex%2Crole%2Cadmin", objectText},
		{"spaceDelimited", nil, openapi3.TypeArray, array, "id=3+4+5", arrayText},
		{"spaceDelimited", exploded, openapi3.TypeArray, array, "id=3&id=4&id=5", arrayText},
		{"pipeDelimited", nil, openapi3.TypeArray, array, "id=3%7C4%7C5", arrayText},
		{"deepObject", nil, openapi3.TypeObject, object, "id%5BfirstName%5D=Alex&id%5Brole%5D=admin", objectText},
		{"form", notExploded, openapi3.TypeArray, []any{}, "id=", []any{}},
		{"", nil, openapi3.TypeArray, []any{}, "", nil},
	} {
		p := styled(openapi3.ParameterInQuery, tc.style, tc.explode, tc.kind)
		what := fmt.Sprintf("query id of style %q, explode %v, %s %v", tc.style, spec.StyleOf(p).Explode, tc.kind, tc.value)
		q := url.Values{}
		spec.AddQuery(q, p, tc.value)
		if got := q.Encode(); got != tc.query {
			t.Errorf("%s: AddQuery wrote %q, want %q", what, got, tc.query)
		}
		read, ok, err := spec.QueryValue(q, p)
		if err != nil || ok != (tc.read != nil) || ok && !reflect.DeepEqual(read, tc.read) {
			t.Errorf("%s: QueryValue(%q) = %#v, %v, %v; want %#v", what, q.Encode(), read, ok, err, tc.read)
		}
	}
}

// TestStyleErrors: what a style cannot have written is an error that
// names the parameter, and a parameter absent is no error.
func TestStyleErrors(t *testing.T) {
	for _, tc := range []struct {
		style   string
		explode *bool
		kind    string
		text    string
		want    string
	}{
		{"label", nil, "", "5", `id: "5" does not begin with a dot, as the label style writes it`},
		{"matrix", nil, openapi3.TypeArray, "3,4", `id: "3,4" does not begin with ;id=, as the matrix style writes it`},
		{"matrix", exploded, openapi3.TypeObject, "role=admin", `id: "role=admin" does not begin with ;, as the matrix style writes it`},
		{"", nil, openapi3.TypeObject, "role,admin,firstName", `id: "role,admin,firstName" does not pair names with values: 3 items`},
		{"", exploded, openapi3.TypeObject, "role=admin,firstName", `id: member "firstName" is not name=value`},
	} {
		p := styled(openapi3.ParameterInPath, tc.style, tc.explode, tc.kind)
		if _, err := spec.ParamValue(p, tc.text); err == nil || err.Error() != tc.want {
			t.Errorf("ParamValue(%q) of style %q: error %v, want %s", tc.text, tc.style, err, tc.want)
		}
	}
	for _, tc := range []struct {
		style   string
		explode *bool
		kind    string
		query   string
		want    string
	}{
		{"", nil, "", "id=1&id=2", "id: given 2 times, want once"},
		{"form", notExploded, openapi3.TypeArray, "id=1&id=2", "id: given 2 times, want once"},
		{"deepObject", nil, openapi3.TypeObject, "id[role]=a&id[role]=b", "id[role]: given 2 times, want once"},
		{"", nil, openapi3.TypeObject, "role=a&role=b", "role: given 2 times, want once"},
	} {
		p := styled(openapi3.ParameterInQuery, tc.style, tc.explode, tc.kind)
		q, _ := url.ParseQuery(tc.query)
		if _, _, err := spec.QueryValue(q, p); err == nil || err.Error() != tc.want {
			t.Errorf("QueryValue(%q) of style %q: error %v, want %s", tc.query, tc.style, err, tc.want)
		}
	}
	if v, ok, err := spec.QueryValue(url.Values{"other": {"1"}}, styled(openapi3.ParameterInQuery, "", nil, "")); ok || err != nil {
		t.Errorf("QueryValue of a parameter not sent = %v, %v, %v; want none", v, ok, err)
	}
}

// styles are the styles of the fuzz targets, by a byte: the place's
// default and each of OpenAPI's.
var styles = []string{"", "simple", "label", "matrix", "form", "spaceDelimited", "pipeDelimited", "deepObject"}

// fuzzed returns the parameter a fuzz target's bytes pick.
func fuzzed(in string, style, explode, kind byte) *openapi3.Parameter {
	var e *bool
	switch explode % 3 {
	case 1:
		e = exploded
	case 2:
		e = notExploded
	}
	return styled(in, styles[int(style)%len(styles)], e, []string{"", openapi3.TypeArray, openapi3.TypeObject}[kind%3])
}

// FuzzParamValue: whatever a path or header carries, a value read from it
// is written back as text that reads as the same value, in every style.
func FuzzParamValue(f *testing.F) {
	for _, seed := range []string{"5", "3,4,5", ".3.4.5", ";id=3;id=4", ";role=admin;firstName=Alex", "role,admin", "a=b,c=d", "", ".", ";", ";id=", "=,=", ",,", "..;id=;"} {
		for style := range len(styles) {
			f.Add(seed, byte(style), byte(0), byte(1))
		}
	}
	f.Fuzz(func(t *testing.T, text string, style, explode, kind byte) {
		for _, in := range []string{openapi3.ParameterInPath, openapi3.ParameterInHeader} {
			p := fuzzed(in, style, explode, kind)
			v, err := spec.ParamValue(p, text)
			if err != nil {
				continue
			}
			again := spec.ParamText(p, v)
			w, err := spec.ParamValue(p, again)
			if err != nil || !reflect.DeepEqual(v, w) {
				t.Errorf("%+v: %q reads %#v, written %q, which reads %#v, %v", spec.StyleOf(p), text, v, again, w, err)
			}
		}
	})
}

// FuzzQueryValue: whatever a query carries, a value read from it is
// written back as a query that reads as the same value, in every style.
func FuzzQueryValue(f *testing.F) {
	for _, seed := range []string{"id=5", "id=3&id=4", "id=3,4,5", "id=3+4", "id=3|4", "id[role]=admin&id[x]=", "role=admin&firstName=Alex&other=1", "id=", "", "id=a&id=b", "id[=1&id]=2&id[]=3"} {
		for style := range len(styles) {
			f.Add(seed, byte(style), byte(0), byte(2))
		}
	}
	f.Fuzz(func(t *testing.T, raw string, style, explode, kind byte) {
		q, _ := url.ParseQuery(raw)
		p := fuzzed(openapi3.ParameterInQuery, style, explode, kind)
		v, ok, err := spec.QueryValue(q, p)
		if !ok || err != nil {
			return
		}
		again := url.Values{}
		spec.AddQuery(again, p, v)
		w, ok, err := spec.QueryValue(again, p)
		if !ok || err != nil || !reflect.DeepEqual(v, w) {
			t.Errorf("%+v: %q reads %#v, written %q, which reads %#v, %v, %v", spec.StyleOf(p), raw, v, again.Encode(), w, ok, err)
		}
	})
}

// TestStyleOfIsKinOpenAPIs holds StyleOf to what kin-openapi's
// Parameter.SerializationMethod says, of every place, style and explode,
// and to asking it without an allocation.
func TestStyleOfIsKinOpenAPIs(t *testing.T) {
	yes, no := true, false
	styles := []string{"", openapi3.SerializationSimple, openapi3.SerializationLabel, openapi3.SerializationMatrix,
		openapi3.SerializationForm, openapi3.SerializationSpaceDelimited, openapi3.SerializationPipeDelimited, openapi3.SerializationDeepObject}
	for _, in := range []string{openapi3.ParameterInPath, openapi3.ParameterInHeader, openapi3.ParameterInQuery, openapi3.ParameterInCookie, "body"} {
		for _, style := range styles {
			for _, explode := range []*bool{nil, &yes, &no} {
				p := &openapi3.Parameter{Name: "p", In: in, Style: style, Explode: explode}
				want := spec.Style{Name: openapi3.SerializationSimple}
				if m, err := p.SerializationMethod(); err == nil {
					want = spec.Style{Name: m.Style, Explode: m.Explode}
				}
				if got := spec.StyleOf(p); got != want {
					t.Errorf("in %s, style %q, explode %v: %+v, want %+v", in, style, explode, got, want)
				}
			}
		}
	}
	p := &openapi3.Parameter{Name: "status", In: openapi3.ParameterInQuery}
	if n := testing.AllocsPerRun(100, func() { spec.StyleOf(p) }); n > 0 {
		t.Errorf("StyleOf allocates %.0f times, want none", n)
	}
}

// TestContentParamText: a parameter of JSON content, rather than a
// schema, as Stream's ids, is written as its JSON, in a path and in a
// query alike.
func TestContentParamText(t *testing.T) {
	for _, in := range []string{openapi3.ParameterInPath, openapi3.ParameterInQuery} {
		p := &openapi3.Parameter{Name: "id", In: in, Content: openapi3.Content{"application/json": &openapi3.MediaType{Schema: &openapi3.SchemaRef{Value: &openapi3.Schema{Type: &openapi3.Types{"string"}}}}}}
		if got := spec.ParamText(p, "abc"); got != `"abc"` {
			t.Errorf("%s: ParamText = %s, want \"abc\", quoted", in, got)
		}
		q := url.Values{}
		spec.AddQuery(q, p, json.Number("16"))
		if got := q.Get("id"); got != "16" {
			t.Errorf("%s: AddQuery wrote %q, want 16", in, got)
		}
	}
}
