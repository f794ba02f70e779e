package edge

import (
	"maps"
	"slices"
	"testing"

	"github.com/petstore/contract/spec"
)

// TestErrorCodesAreTheDocuments ties the codes petmock sends to the ones
// the document lists under x-petmock-codes: each with the status it says,
// and none left out either way.
func TestErrorCodesAreTheDocuments(t *testing.T) {
	c, err := spec.Default()
	if err != nil {
		t.Fatal(err)
	}
	sent := map[string]int{}
	for _, status := range []int{400, 401, 404, 405, 406, 408, 410, 413, 415, 417, 431, 500, 501, 502, 503, 505, 507} {
		sent[codeFor(status)] = status
	}
	for code, status := range sent {
		if documented, ok := c.ErrorCodes[code]; !ok || documented != status {
			t.Errorf("petmock sends %s with %d; the document lists it with %d (listed: %v)", code, status, documented, ok)
		}
	}
	for code := range c.ErrorCodes {
		if _, ok := sent[code]; !ok {
			t.Errorf("the document lists %s, which petmock never sends", code)
		}
	}
	constants := []string{CodeBadRequest, CodeUnauthorized, CodeNotFound, CodeMethodNotAllowed, CodeNotAcceptable, CodePayloadTooLarge,
		CodeUnsupportedMediaType, CodeGone, CodeStoreFull, CodeInternal, CodeUnavailable, CodeBadGateway,
		CodeRequestTimeout, CodeExpectationFailed, CodeHeadersTooLarge, CodeNotImplemented, CodeHTTPVersionNotSupported}
	if got, want := slices.Sorted(maps.Keys(sent)), slices.Sorted(slices.Values(constants)); !slices.Equal(got, want) {
		t.Errorf("codes sent %v, constants %v", got, want)
	}
}
