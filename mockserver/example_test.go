package mockserver_test

import (
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"

	"github.com/petstore/contract/mockserver"
)

// A Server is an http.Handler: here it serves a catalogue of three pets
// made from seed 7, over a real connection, and answers a page of two.
func ExampleNew() {
	srv, err := mockserver.New(mockserver.Config{Catalogue: &mockserver.Catalogue{Seed: 7, Count: 3}})
	if err != nil {
		panic(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()

	req, _ := http.NewRequest("GET", hs.URL+"/v1/pets?limit=2", nil)
	req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status)
	fmt.Print(string(body))
	// Output:
	// 200 OK
	// [{"id":1,"name":"Winnie the Poodle","categoryId":1,"status":"pending"},{"id":2,"name":"Bob","categoryId":2,"status":"available"}]
}

// A Store keeps the items of one resource as the JSON text the API answers
// with, ordered by id, with an index for each filter; here a store of pets
// filtered by status.
func ExampleStore() {
	s := mockserver.NewStore("pets", 1)
	for _, p := range []struct{ name, status string }{{"Rex", "sold"}, {"Bo", "available"}, {"Zed", "sold"}} {
		s.Add(func(id int64) (mockserver.Entry, error) {
			text := fmt.Sprintf(`{"id":%d,"name":%q,"status":%q}`, id, p.name, p.status)
			return mockserver.Entry{ID: id, Text: []byte(text), Keys: []string{p.status}}, nil
		})
	}
	page, last, more := s.AppendPage(nil, mockserver.Page{
		After: math.MinInt64,
		Limit: 1,
		Where: []mockserver.Match{{Filter: 0, Key: "sold"}},
	})
	fmt.Println(string(page), last, more)
	s.Delete(1)
	page, _, _ = s.AppendPage(nil, mockserver.Page{After: math.MinInt64, Limit: 10})
	fmt.Println(string(page))
	// Output:
	// [{"id":1,"name":"Rex","status":"sold"}] 1 true
	// [{"id":2,"name":"Bo","status":"available"},{"id":3,"name":"Zed","status":"sold"}]
}
