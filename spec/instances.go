package spec

import (
	"context"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Instances returns the contract with each path that has the path
// parameter param, such as /catalogue/{resource}, replaced by one path for
// each of values, such as /catalogue/pets: its operations then take no
// such parameter, and each id ends in a dot and the value, such as
// browse.pets, so that ids stay unique. A path so made that the document
// has already is left out, and the document's own is kept.
//
// The paths made share their parts with the template's, read once: a
// contract of a hundred thousand instances is made in a fraction of a
// second, where writing them out and reading them back took minutes.
func (c *Contract) Instances(param string, values []string) (*Contract, error) {
	placeholder := "{" + param + "}"
	doc := *c.Doc
	doc.Paths = openapi3.NewPaths()
	for path, item := range c.Doc.Paths.Map() {
		if !strings.Contains(path, placeholder) {
			doc.Paths.Set(path, item)
			continue
		}
		for _, v := range values {
			p := strings.ReplaceAll(path, placeholder, v)
			if c.Doc.Paths.Value(p) != nil {
				continue
			}
			doc.Paths.Set(p, instance(item, param, v))
		}
	}
	out, err := newContract(context.Background(), &doc, c.text, c.order)
	if err != nil {
		return nil, err
	}
	out.Warnings, out.Strict, out.ConvertedFrom = c.Warnings, c.Strict, c.ConvertedFrom
	return out, nil
}

// instance returns the path item with the path parameter param given the
// value v: its operations and itself without that parameter, and each
// operation's id, if it has one, ending in "." and v.
func instance(item *openapi3.PathItem, param, v string) *openapi3.PathItem {
	out := *item
	out.Parameters = withoutParam(item.Parameters, param)
	for method, op := range item.Operations() {
		o := *op
		if o.OperationID != "" {
			o.OperationID += "." + v
		}
		o.Parameters = withoutParam(op.Parameters, param)
		out.SetOperation(method, &o)
	}
	return &out
}

// withoutParam returns params without the path parameter name.
func withoutParam(params openapi3.Parameters, name string) openapi3.Parameters {
	return slices.DeleteFunc(slices.Clone(params), func(ref *openapi3.ParameterRef) bool {
		return ref != nil && ref.Value != nil && ref.Value.In == openapi3.ParameterInPath && ref.Value.Name == name
	})
}
