package catalogue

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/spec"
)

// nextLink returns the RFC 8288 Link to the page after the item with id
// last, with the same limit and filters: filters are name, value pairs.
func nextLink(r *http.Request, path string, paging spec.Paging, limit int, filters []string, last int64) string {
	b := make([]byte, 0, 128)
	b = append(b, '<')
	b = edge.AppendOrigin(b, r)
	b = append(b, path...)
	b = append(b, '?')
	b = append(b, paging.Cursor...)
	b = append(b, '=')
	b = append(b, edge.EncodeCursor(last)...) // base64url: nothing to escape
	if paging.Limit != "" {
		b = append(b, '&')
		b = append(b, url.QueryEscape(paging.Limit)...)
		b = append(b, '=')
		b = strconv.AppendInt(b, int64(limit), 10)
	}
	for i := 0; i+1 < len(filters); i += 2 {
		b = append(b, '&')
		b = append(b, url.QueryEscape(filters[i])...)
		b = append(b, '=')
		b = append(b, url.QueryEscape(filters[i+1])...)
	}
	b = append(b, `>; rel="next"`...)
	return string(b)
}

// nextQuery returns the name, value pairs of the next link: the filters
// asked, then every other parameter the operation of c declares that its
// query holds but the cursor and the limit, in order of name, so that the
// next page is asked for as the first was, a parameter the list requires
// (Asana's workspace) included. What it does not declare, such as a key
// sent in the query, is not written into an answer.
func nextQuery(c *edge.Call, paging spec.Paging, asked []string) []string {
	given := func(name string) bool {
		for i := 0; i < len(asked); i += 2 {
			if asked[i] == name {
				return true
			}
		}
		return false
	}
	var names []string
	for name := range c.Query {
		if name != paging.Cursor && name != paging.Limit && !given(name) && c.Op.Spec.Parameter("query", name) != nil {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return asked
	}
	slices.Sort(names)
	out := slices.Clip(asked)
	for _, name := range names {
		for _, v := range c.Query[name] {
			out = append(out, name, v)
		}
	}
	return out
}
