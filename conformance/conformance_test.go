package conformance_test

import (
	"net/http/httptest"
	"testing"

	"github.com/onsi/ginkgo/v2"

	"github.com/petstore/contract/conformance"
	"github.com/petstore/contract/mockserver"
)

// TestPetmockConforms runs the whole suite, strict specs included, in
// random order, against petmock served over a real HTTP connection. The
// tests of cmd/conformance judge other servers, one process each.
func TestPetmockConforms(t *testing.T) {
	srv, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()

	suiteConfig, reporterConfig := ginkgo.GinkgoConfiguration()
	suiteConfig.RandomizeAllSpecs = true
	cfg := conformance.Config{
		BaseURL: hs.URL + "/v1",
		APIKey:  mockserver.DefaultAPIKey,
		Strict:  true,
	}
	if !conformance.Run(t, cfg, suiteConfig, reporterConfig) {
		t.Error("petmock does not pass the strict suite")
	}
}
