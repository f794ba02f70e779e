package check

import (
	"fmt"
	"maps"
	"net/url"
	"strings"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// The check of a Location: the interface names none, but a deployment
// that sends one on the answer that creates an item says where the item
// is, and that must be the item created, not another.

// checkLocation judges the Location of x, the answer that created the
// item of id in the collection of res with the path parameters params:
// where there is one, it must be the item's URL, whose path ends with the
// item path, a slash after it or not (the base path before it may be a
// proxy's). A Location that names another item, or the collection, breaks
// r.
func (h *Harness) checkLocation(x *judge.Exchange, res *spec.Resource, params map[string]string, id string, r judge.Rule) error {
	loc := x.Header.Get("Location")
	if loc == "" {
		return nil
	}
	from, _ := url.Parse(x.URL)
	u, err := from.Parse(loc)
	if err := x.Require(err == nil, r, fmt.Sprintf("Location %q is not a URL", loc)); err != nil {
		return err
	}
	values := maps.Clone(params)
	if values == nil {
		values = map[string]string{}
	}
	values[res.IDParam] = id
	tmpl, err := itemTemplate(res)
	if err != nil {
		return nil // the document's item path parsed once already
	}
	want := tmpl.Expand(values)
	return x.Require(strings.HasSuffix(strings.TrimSuffix(u.EscapedPath(), "/"), want), r, fmt.Sprintf("Location %q names no URL of the %s created, %s %s: its path does not end in %s", loc, spec.Singular(res.Name), res.IDProperty, id, want))
}

// itemTemplate returns the path template of the items of res: that of an
// operation of the item path, not of one that names the item by its body,
// as AppVeyor's PUT /environments of an environment read at
// /environments/{deploymentEnvironmentId}.
func itemTemplate(res *spec.Resource) (*spec.PathTemplate, error) {
	for _, op := range []*spec.Operation{res.Read, res.Replace, res.Update, res.Delete} {
		if op != nil && !res.ByBody(op) {
			return op.Template, nil
		}
	}
	return spec.ParsePath(res.ItemPath)
}

// idInLocation returns the id of the item the Location of x, an answer of
// a create of res below the collection of params, names: the item path's
// parameter of the path the Location ends in; "" where it names none.
// Beanstream's profile created answers a report of its own, and petmock's
// Location names the profile.
func idInLocation(x *judge.Exchange, res *spec.Resource, params map[string]string) string {
	loc := x.Header.Get("Location")
	if loc == "" || res.IDParam == "" {
		return ""
	}
	from, _ := url.Parse(x.URL)
	u, err := from.Parse(loc)
	if err != nil {
		return ""
	}
	tmpl, err := itemTemplate(res)
	if err != nil {
		return ""
	}
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	for i := 0; i < len(path); i++ {
		if path[i] != '/' {
			continue
		}
		got, ok := tmpl.Match(path[i:])
		if !ok {
			continue
		}
		for k, v := range params {
			if w, named := got[k]; named && w != v {
				return ""
			}
		}
		id, err := url.PathUnescape(got[res.IDParam])
		if err != nil {
			return ""
		}
		return id
	}
	return ""
}
