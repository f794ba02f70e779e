package catalogue

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/spec"
)

// The items of a nested resource, such as the pets of
// /owners/{ownerId}/pets, belong to the parent the path of their create
// named: the store keeps that parent as one more filter key of each item,
// so that a list below one owner costs what a filtered list costs, and a
// read below another owner finds nothing. Where the item has a property of
// the parent parameter's name, such as ownerId, it holds the parent too,
// and a fixture's items are placed by it.

// parentOf returns the key of the parent the path of c names: the values
// of the parent params, each as a filter key of its value.
func (rs *Resource) parentOf(c *edge.Call) string {
	ps := rs.spec.ParentParams
	if len(ps) == 1 {
		return rs.parentValue(c, ps[0])
	}
	keys := make([]string, len(ps))
	for i, name := range ps {
		keys[i] = rs.parentValue(c, name)
	}
	return strings.Join(keys, "\x00")
}

// parentValue returns the key of the value of the path parameter name of
// c: the same key an item's property of that value has.
func (rs *Resource) parentValue(c *edge.Call, name string) string {
	v := c.Params[name]
	if u, err := url.PathUnescape(v); err == nil {
		v = u
	}
	if p := c.Op.Spec.Parameter("path", name); p != nil && p.Schema != nil {
		switch spec.TypeOf(p.Schema.Value) {
		case "integer", "number":
			return shape.NumberKey(v)
		}
	}
	return v
}

// namesParent reports whether an item has a property of the parent
// parameter's name, which says what parent it belongs to.
func (rs *Resource) namesParent() bool {
	ps := rs.spec.ParentParams
	if len(ps) != 1 {
		return false
	}
	_, ok := rs.spec.Property(ps[0])
	return ok
}

// ofParent reports whether the item it belongs to the parent c names.
func (rs *Resource) ofParent(it held, c *edge.Call) bool {
	return rs.parentKey < 0 || !rs.namedIn(c) || it.keys[rs.parentKey] == rs.parentOf(c)
}

// namedIn reports whether the path of c names a parent: an item read at
// a path of its own, such as /settings/{settingId} of the settings of
// /configs/{configId}/settings, is found whatever its parent, and so is
// one whose path of its own names it as the parent is named, as
// Billbee's /customers/addresses/{id} of /customers/{id}/addresses.
func (rs *Resource) namedIn(c *edge.Call) bool {
	if rs.flat != nil && c.Op.Spec.Path == rs.spec.ItemPath {
		return false
	}
	for _, name := range rs.spec.ParentParams {
		if _, ok := c.Params[name]; !ok {
			return false
		}
	}
	return true
}

// setParent sets the property of item of the parent parameter's name, if
// the item has one, to the parent c names, so that the item says where it
// belongs.
func (rs *Resource) setParent(item map[string]any, c *edge.Call) {
	ps := rs.spec.ParentParams
	if len(ps) != 1 || item == nil || !rs.namedIn(c) {
		return
	}
	prop, ok := rs.spec.Property(ps[0])
	if !ok {
		return
	}
	v := c.Params[ps[0]]
	if u, err := url.PathUnescape(v); err == nil {
		v = u
	}
	switch spec.TypeOf(prop.Schema) {
	case "integer", "number":
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			item[ps[0]] = json.Number(v)
		}
	case "string":
		item[ps[0]] = v
	}
}

// checkParent refuses a request below a parent that is not there, where
// the parent is an item of a resource, such as an owner of
// /owners/{ownerId}/pets that no owner has the id of.
func (rs *Resource) checkParent(c *edge.Call) *edge.Error {
	p := rs.parent
	if p == nil || len(p.spec.ParentParams) > 0 {
		return nil
	}
	id := c.Params[p.spec.IDParam]
	if v, err := url.PathUnescape(id); err == nil {
		id = v
	}
	if _, ok := p.lookup(id); !ok {
		return edge.NewError(http.StatusNotFound, p.spec.IDParam, "no %s has id %s", p.singular, id)
	}
	return nil
}
