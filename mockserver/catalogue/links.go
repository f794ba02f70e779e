package catalogue

import (
	"net/http"
	"net/url"
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
