package store_test

import (
	"fmt"
	"math"

	"github.com/petstore/contract/mockserver/store"
)

// A Store keeps the items of one resource as the JSON text the API answers
// with, ordered by id, with an index for each filter; here a store of pets
// filtered by status.
func ExampleStore() {
	s := store.New("pets", 1)
	for _, p := range []struct{ name, status string }{{"Rex", "sold"}, {"Bo", "available"}, {"Zed", "sold"}} {
		s.Add(func(id int64) (store.Entry, error) {
			text := fmt.Sprintf(`{"id":%d,"name":%q,"status":%q}`, id, p.name, p.status)
			return store.Entry{ID: id, Text: []byte(text), Keys: []string{p.status}}, nil
		})
	}
	page, last, more := s.AppendPage(nil, store.Page{
		After: math.MinInt64,
		Limit: 1,
		Where: []store.Match{{Filter: 0, Key: "sold"}},
	})
	fmt.Println(string(page), last, more)
	s.Delete(1)
	page, _, _ = s.AppendPage(nil, store.Page{After: math.MinInt64, Limit: 10})
	fmt.Println(string(page))
	// Output:
	// [{"id":1,"name":"Rex","status":"sold"}] 1 true
	// [{"id":2,"name":"Bo","status":"available"},{"id":3,"name":"Zed","status":"sold"}]
}
