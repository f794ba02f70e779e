package persist_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/catalogue"
	"github.com/petstore/contract/mockserver/persist"
	"github.com/petstore/contract/mockserver/steer"
)

// serving is a server as a Saver sees it: the one that serves now, which
// may have taken over from srv for a new version of the document.
type serving struct{ srv *mockserver.Server }

// Serving returns the items and the steering of the server that serves
// now.
func (s serving) Serving() (*catalogue.Resources, *steer.Steering) {
	latest := s.srv.Latest()
	return latest.Items(), latest.Steering()
}

// Subscribe returns a subscription to the changes of srv, and of those
// that take over from it.
func (s serving) Subscribe() persist.Subscription { return s.srv.Subscribe() }

// keep serves a server of three pets with the state file at path, while
// it answers request, then stops it, and returns the answer.
func keep(path string, request *http.Request) (*httptest.ResponseRecorder, error) {
	srv, err := mockserver.New(mockserver.Config{Catalogue: &catalogue.Seeded{Seed: 1, Count: 3}})
	if err != nil {
		return nil, err
	}
	saver, err := persist.Open(path, serving{srv}, slog.New(slog.DiscardHandler), persist.Config{})
	if err != nil {
		return nil, err
	}
	srv.Items().SetCommit(saver.Commit) // a write is answered once it is saved
	ctx, stop := context.WithCancel(context.Background())
	saving := make(chan struct{})
	go func() { defer close(saving); saver.Run(ctx) }()

	request.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
	answer := httptest.NewRecorder()
	srv.ServeHTTP(answer, request)

	stop()
	<-saving
	return answer, saver.Close()
}

// A pet created before a restart is there after it.
func Example() {
	dir, err := os.MkdirTemp("", "persist")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "state.json")

	create := httptest.NewRequest("POST", "/v1/pets", strings.NewReader(`{"name":"Kept","categoryId":1}`))
	create.Header.Set("Content-Type", "application/json")
	created, err := keep(path, create)
	if err != nil {
		panic(err)
	}
	fmt.Println("POST /v1/pets:", created.Code)

	read, err := keep(path, httptest.NewRequest("GET", "/v1/pets/4", nil))
	if err != nil {
		panic(err)
	}
	fmt.Println("after a restart, GET /v1/pets/4:", read.Code, strings.Contains(read.Body.String(), `"name":"Kept"`))
	// Output:
	// POST /v1/pets: 201
	// after a restart, GET /v1/pets/4: 200 true
}
