package request

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/petstore/contract/spec"
)

// styles is a document of one operation with a parameter of each style a
// value can be written in, each array's items of an enumeration, so that
// an array sent as its JSON text is refused.
const styles = `openapi: 3.0.3
info: {title: Styles, version: 1.0.0}
servers: [{url: /s}]
paths:
  /things/{simple}/{label}/{matrix}:
    get:
      operationId: findThings
      parameters:
        - {name: simple, in: path, required: true, schema: {$ref: '#/components/schemas/Colours'}}
        - {name: label, in: path, required: true, style: label, schema: {$ref: '#/components/schemas/Colours'}}
        - {name: matrix, in: path, required: true, style: matrix, explode: true, schema: {$ref: '#/components/schemas/Colours'}}
        - {name: status, in: query, required: true, schema: {$ref: '#/components/schemas/Colours'}}
        - {name: joined, in: query, required: true, explode: false, schema: {$ref: '#/components/schemas/Colours'}}
        - {name: piped, in: query, required: true, style: pipeDelimited, schema: {$ref: '#/components/schemas/Colours'}}
        - {name: spaced, in: query, required: true, style: spaceDelimited, schema: {$ref: '#/components/schemas/Colours'}}
        - {name: point, in: query, required: true, style: deepObject, explode: true, schema: {$ref: '#/components/schemas/Point'}}
        - {name: count, in: query, required: true, schema: {type: integer}}
        - {name: X-Colours, in: header, required: true, schema: {$ref: '#/components/schemas/Colours'}}
      responses:
        '204': {description: Found.}
components:
  schemas:
    Colours: {type: array, minItems: 2, items: {type: string, enum: [red, green, blue]}}
    Point:
      type: object
      required: [x, y]
      properties: {x: {type: integer}, y: {type: integer}}
`

// TestParametersFollowTheirStyle: a value made for a parameter goes on
// the wire as its style and explode say, such as status=red&status=green
// for a query array by default, never as its JSON text; and a request so
// written is one the document's own validator reads as valid.
func TestParametersFollowTheirStyle(t *testing.T) {
	c, err := spec.Read([]byte(styles))
	if err != nil {
		t.Fatal(err)
	}
	op := c.Operation("findThings")
	param := func(name string) *openapi3.Parameter {
		for _, p := range op.Parameters {
			if p.Name == name {
				return p
			}
		}
		t.Fatalf("no parameter %s", name)
		return nil
	}
	colours := []any{"red", "green"}
	point := map[string]any{"x": json.Number("3"), "y": json.Number("-4")}

	q := url.Values{}
	for _, tc := range []struct {
		name string
		v    any
		want string // the parameter's part of the query, encoded
	}{
		{"status", colours, "status=red&status=green"},
		{"joined", colours, "joined=red%2Cgreen"},
		{"piped", colours, "piped=red%7Cgreen"},
		{"spaced", colours, "spaced=red+green"},
		{"point", point, "point%5Bx%5D=3&point%5By%5D=-4"},
		{"count", json.Number("7"), "count=7"},
	} {
		one := url.Values{}
		spec.AddQuery(one, param(tc.name), tc.v)
		if got := one.Encode(); got != tc.want {
			t.Errorf("query %s of %v: %s, want %s", tc.name, tc.v, got, tc.want)
		}
		spec.AddQuery(q, param(tc.name), tc.v)
	}
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"simple", colours, "red,green"},
		{"label", colours, ".red,green"},
		{"matrix", colours, ";matrix=red;matrix=green"},
		{"X-Colours", colours, "red,green"},
	} {
		if got := spec.ParamText(param(tc.name), tc.v); got != tc.want {
			t.Errorf("%s of %v: %q, want %q", tc.name, tc.v, got, tc.want)
		}
	}
	for _, tc := range []struct {
		p    *openapi3.Parameter
		want string
	}{
		{&openapi3.Parameter{Name: "p", In: "query", Explode: new(bool)}, "p=x%2C3%2Cy%2C-4"},
		{&openapi3.Parameter{Name: "p", In: "query"}, "x=3&y=-4"},
	} {
		one := url.Values{}
		spec.AddQuery(one, tc.p, point)
		if got := one.Encode(); got != tc.want {
			t.Errorf("an object in the query, explode %v: %s, want %s", tc.p.Explode == nil, got, tc.want)
		}
	}
	for _, tc := range []struct {
		p    *openapi3.Parameter
		want string
	}{
		{&openapi3.Parameter{Name: "p", In: "path"}, "x,3,y,-4"},
		{&openapi3.Parameter{Name: "p", In: "path", Explode: openapi3.Ptr(true)}, "x=3,y=-4"},
		{&openapi3.Parameter{Name: "p", In: "path", Style: "label", Explode: openapi3.Ptr(true)}, ".x=3.y=-4"},
		{&openapi3.Parameter{Name: "p", In: "path", Style: "matrix"}, ";p=x,3,y,-4"},
		{&openapi3.Parameter{Name: "p", In: "path", Style: "matrix", Explode: openapi3.Ptr(true)}, ";x=3;y=-4"},
	} {
		if got := spec.ParamText(tc.p, point); got != tc.want {
			t.Errorf("an object in the path, style %q, explode %v: %q, want %q", tc.p.Style, tc.p.Explode != nil, got, tc.want)
		}
	}

	// The document's validator reads the request so written as valid.
	path := expandPath(op.Template, map[string]string{
		"simple": spec.ParamText(param("simple"), colours),
		"label":  spec.ParamText(param("label"), colours),
		"matrix": spec.ParamText(param("matrix"), colours),
	})
	req := httptest.NewRequest(http.MethodGet, "http://example.test/s"+path+"?"+q.Encode(), nil)
	req.Header.Set("X-Colours", spec.ParamText(param("X-Colours"), colours))
	router, err := spec.NewRouter(c.Doc)
	if err != nil {
		t.Fatal(err)
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		t.Fatalf("GET %s: %v", req.URL, err)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{MultiError: true}}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		t.Errorf("GET %s, headers %v: the document's validator refuses it: %v", req.URL, req.Header, err)
	}
}
