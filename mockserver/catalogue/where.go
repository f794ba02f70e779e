package catalogue

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/mockserver/store"
	"github.com/petstore/contract/spec"
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

// queryMatch returns what the filter f at key, given in query as the list
// takes it, selects in its store, and the values asked, as name, value
// pairs for the next link; false when query does not give it. A filter
// given several values, repeated (id=1&id=2) or as a list its style
// writes (id=1,2), selects the items of any of them.
func queryMatch(f spec.Filter, key int, query map[string][]string) (store.Match, []string, bool) {
	v, ok, err := spec.QueryValue(query, f.Param)
	if !ok || err != nil { // err: refused by the gate before
		return store.Match{}, nil, false
	}
	var asked []string
	for _, text := range query[f.Name()] {
		asked = append(asked, f.Name(), text)
	}
	list, isList := v.([]any)
	if !isList {
		text, _ := v.(string)
		if text == "" {
			return store.Match{}, nil, false
		}
		return store.Match{Filter: key, Key: queryKey(f, text)}, asked, true
	}
	var keys []string
	for _, item := range list {
		if text, _ := item.(string); text != "" {
			keys = append(keys, queryKey(f, text))
		}
	}
	switch len(keys) {
	case 0:
		return store.Match{}, nil, false
	case 1:
		return store.Match{Filter: key, Key: keys[0]}, asked, true
	}
	return store.Match{Filter: key, Any: keys}, asked, true
}
