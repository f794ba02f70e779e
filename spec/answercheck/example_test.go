package answercheck_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/answercheck"
)

// A Checker holds an answer to the document, and says each rule it
// breaks.
func ExampleChecker_Check() {
	c, err := spec.Default()
	if err != nil {
		panic(err)
	}
	k, err := answercheck.New(c, false)
	if err != nil {
		panic(err)
	}
	req := httptest.NewRequest("GET", "http://staging.example/v1/pets/7", nil)
	violations, err := k.Check(req, answercheck.Answer{
		Status: 200,
		Header: http.Header{"Content-Type": {"application/json"}},
		Body:   []byte(`{"id":7,"name":"Rex"}`),
	})
	if err != nil {
		panic(err)
	}
	for _, v := range violations {
		fmt.Println(v.Rule+":", v.Message)
	}
	// Output:
	// response.body: getPet answered 200: response body doesn't match schema #/components/schemas/Pet; categoryId: property "categoryId" is missing
}
