package conformance_test

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/onsi/ginkgo/v2"

	"github.com/petstore/contract/conformance"
	"github.com/petstore/contract/mockserver"
)

// exampleT is the GinkgoTestingT of a run outside a test: Run's result
// says whether a check failed.
type exampleT struct{}

func (exampleT) Fail() {}

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

	suiteConfig, reporterConfig := ginkgo.GinkgoConfiguration()
	suiteConfig.RandomizeAllSpecs = true
	reporterConfig.Succinct = true
	var coverage bytes.Buffer
	passed := conformance.Run(exampleT{}, conformance.Config{
		BaseURL: hs.URL + "/v1",
		APIKey:  mockserver.DefaultAPIKey,
		Strict:  true,
		Output:  &coverage,
	}, suiteConfig, reporterConfig)

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
