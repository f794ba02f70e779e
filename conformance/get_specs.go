package conformance

import (
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
)

// describeGet declares the specs of getPet that need no pet of their own.
func (s *suite) describeGet() {
	Describe("getPet", Label("getPet"), func() {
		BeforeEach(func() { s.h.skipPastSunset() })

		It("answers 200 with a listed pet, unchanged, before its sunset", func(ctx SpecContext) {
			s.h.readListed(ctx)
		})

		It("answers 404 with an Error body for an id no pet has", func(ctx SpecContext) {
			h := s.h
			id := h.absentID()
			x := h.getPet(ctx, id)
			x.require(x.status == http.StatusNotFound, ruleNotFound, fmt.Sprintf("id %d: status %d, want 404", id, x.status))
		})
	})
}
