package conformance_test

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/petstore/contract/conformance"
	"github.com/petstore/contract/mockserver"
)

// Run judges a deployment: here petmock, served over a real connection,
// by the whole suite, strict checks included, in random order. Ginkgo
// reports each check on standard output as it goes; the run's result and
// its coverage summary say how it went. Ginkgo allows one run a process.
func ExampleRun() {
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		panic(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()

	var coverage bytes.Buffer
	passed, err := conformance.Run(conformance.Config{
		BaseURL: hs.URL + "/v1",
		APIKey:  mockserver.DefaultAPIKey,
		Strict:  true,
		Output:  &coverage,
	}, conformance.RunOptions{Randomize: true, Succinct: true})
	if err != nil {
		panic(err)
	}

	fmt.Println("passed:", passed)
	for _, line := range strings.Split(coverage.String(), "\n") {
		if strings.HasPrefix(line, "  listPets") {
			fmt.Println(strings.Join(strings.Fields(line), " "))
		}
	}
	// Output:
	// passed: true
	// listPets GET /pets 200 seen, 400 seen, 401 seen
}

// An AnswerJudge judges one answer on its own, as the suite's client
// judges each: here a pet that matches the document, an Error whose
// status is not the HTTP status, and a path the document does not have.
func ExampleAnswerJudge() {
	judge, err := conformance.NewAnswerJudge(nil, false)
	if err != nil {
		fmt.Println(err)
		return
	}
	asJSON := http.Header{"Content-Type": {"application/json"}}
	getPet := httptest.NewRequest(http.MethodGet, "http://petstore.example/v1/pets/7", nil)

	fmt.Println(judge.Judge(getPet, http.StatusOK, asJSON, []byte(`{"id":7,"name":"Rex","categoryId":1}`)))

	err = judge.Judge(getPet, http.StatusNotFound, asJSON, []byte(`{"code":"not_found","message":"petId: no pet has id 7","status":400}`))
	var broken *conformance.Broken
	if errors.As(err, &broken) {
		fmt.Printf("%s: %s\n", broken.Rule, broken.Detail)
	}

	owners := httptest.NewRequest(http.MethodGet, "http://petstore.example/v1/owners", nil)
	err = judge.Judge(owners, http.StatusOK, asJSON, []byte(`[]`))
	fmt.Println(errors.Is(err, conformance.ErrNoOperation))
	// Output:
	// <nil>
	// errors.shape: status is 400, but the HTTP status is 404
	// true
}
