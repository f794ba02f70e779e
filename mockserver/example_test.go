package mockserver_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver"
)

// A Server is an http.Handler: here it serves a catalogue of three pets
// made from seed 7, over a real connection, and answers a page of two.
func ExampleNew() {
	srv, err := mockserver.New(mockserver.Config{Catalogue: &catalogue.Seeded{Seed: 7, Count: 3}})
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

// The steering changes a server's answers while it runs: here the next
// request to listPets is made to answer 503, as POST /__petmock/forced
// does, and the forced answer is taken.
func ExampleServer_Steering() {
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		panic(err)
	}
	if err := srv.Steering().Force(503, 1, "listPets"); err != nil {
		panic(err)
	}
	req := httptest.NewRequest("GET", "http://petmock/v1/pets", nil)
	req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, req)
	fmt.Print(w.Code, " ", w.Body)
	fmt.Println(len(srv.Steering().Forced()), "forced answers left")
	// Output:
	// 503 {"code":"unavailable","message":"forced: answer forced by the admin API (POST /__petmock/forced); the last of them","status":503}
	// 0 forced answers left
}
