package admin_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

// New serves petmock whole: here the admin API's health of a catalogue of
// three pets, and its answer to a path it does not have, an Error body as
// the API's are.
func ExampleNew() {
	srv, err := mockserver.New(mockserver.Config{Catalogue: &catalogue.Seeded{Seed: 7, Count: 3}})
	if err != nil {
		panic(err)
	}
	h, err := admin.New(srv, admin.Config{})
	if err != nil {
		panic(err)
	}
	hs := httptest.NewServer(h)
	defer hs.Close()

	for _, path := range []string{"health", "nope"} {
		resp, err := http.Get(hs.URL + admin.Prefix + path)
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Print(resp.StatusCode, " ", string(body))
	}
	// Output:
	// 200 {"pets":3,"status":"ok"}
	// 404 {"code":"not_found","message":"path: /__petmock/nope is not an operation of this API","status":404}
}
