package conformance

import (
	"fmt"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// describeGet declares the specs of getPet that need no pet of their own.
func (s *suite) describeGet() {
	Describe("getPet", Label("getPet"), func() {
		BeforeEach(func() { s.h.skipPastSunset() })

		It("answers 200 with a listed pet, unchanged, before its sunset", func(ctx SpecContext) {
			h := s.h
			listed := h.listedPet(ctx)
			x := h.getPet(ctx, listed.id())
			Expect(x.status).To(Equal(http.StatusOK), x.broke(ruleGet, fmt.Sprintf("getPet of listed pet %s: status %d, want 200 until %s", listed, x.status, h.contract.sunsetDay)))
			same, diff := x.pet().same(listed)
			Expect(same).To(BeTrue(), x.broke(ruleGet, "the pet differs from the one listed: "+diff))
		})

		It("answers 404 with an Error body for an id no pet has", func(ctx SpecContext) {
			h := s.h
			id := h.absentID()
			x := h.getPet(ctx, id)
			Expect(x.status).To(Equal(http.StatusNotFound), x.broke(ruleNotFound, fmt.Sprintf("id %d: status %d, want 404", id, x.status)))
		})
	})
}
