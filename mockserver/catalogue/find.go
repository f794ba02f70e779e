package catalogue

import (
	"fmt"
	"net/http"

	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/mockserver/store"
)

// Find answers a find, such as GET /pet/findByStatus?status=sold:
// the items held whose properties have the values its query asks for, a
// filter left out taking its parameter's default, in pages as a list
// without a limit has them.
func (rs *Resource) Find(w http.ResponseWriter, r *http.Request, c *edge.Call) error {
	pg := store.Page{After: c.After, Limit: pageWithoutLimit}
	var asked []string
	for _, f := range rs.finds[c.Op.Spec.ID] {
		if m, values, ok := queryMatch(f.Filter, f.key, c.Query); ok {
			pg.Where = append(pg.Where, m)
			asked = append(asked, values...)
			continue
		}
		v := c.First(f.Name())
		if v == "" {
			d := f.Param.Schema.Value.Default
			if d == nil {
				continue
			}
			v = defaultText(d)
		}
		pg.Where = append(pg.Where, store.Match{Filter: f.key, Key: queryKey(f.Filter, v)})
		asked = append(asked, f.Name(), v)
	}
	return rs.writePage(w, r, c, pg, asked)
}

// defaultText writes the default of a query parameter as a query gives
// it.
func defaultText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return shape.NumberKey(fmt.Sprint(v))
	}
	return fmt.Sprint(v)
}
