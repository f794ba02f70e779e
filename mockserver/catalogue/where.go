package catalogue

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver/store"
)

// Where returns what the filters of the list of a resource, given in query
// as the list takes them (such as status=sold), select in its store, for
// the store's Scan and Count; a filter left out or empty selects
// everything. A value a filter does not allow is refused with a 400 that
// names the filter.
func (set *Resources) Where(resource string, query url.Values) ([]store.Match, error) {
	rs := set.byName[resource]
	if rs == nil {
		return nil, edge.NewError(http.StatusNotFound, "resource", "%s is no resource of the document (it has %s)", resource, resourceList(set.list))
	}
	var where []store.Match
	for i, f := range rs.spec.Filters {
		v := query.Get(f.Name())
		if v == "" {
			continue
		}
		if enum := f.Enum(); len(enum) > 0 && !slices.Contains(enum, v) {
			return nil, edge.BadRequest(f.Name(), "%s: want one of %s", v, strings.Join(enum, ", "))
		}
		where = append(where, store.Match{Filter: i, Key: queryKey(f, v)})
	}
	return where, nil
}
