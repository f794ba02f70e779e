package store_test

import (
	"fmt"
	"math"
	"os"
	"strings"

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

// A PageView is a page of one state of the store. A list asks it whether
// the page may be too long to build in a buffer; if so, it measures the
// page for its headers and writes it item by item, still from the state
// the view was taken of, whatever was written since.
func ExamplePageView() {
	s := store.New("pets", 0)
	for _, name := range []string{"Rex", "Bo", strings.Repeat("n", 200)} {
		s.Add(func(id int64) (store.Entry, error) {
			return store.Entry{ID: id, Text: fmt.Appendf(nil, `{"id":%d,"name":%q}`, id, name)}, nil
		})
	}
	v := s.View(store.Page{After: math.MinInt64, Limit: 2})
	s.Delete(1)
	fmt.Println(v.MayExceed(64<<10), v.MayExceed(256))
	size, last, more := v.Measure()
	fmt.Println(size, last, more)
	v.WriteTo(os.Stdout)
	fmt.Println()
	// Output:
	// false true
	// 44 2 true
	// [{"id":1,"name":"Rex"},{"id":2,"name":"Bo"}]
}
