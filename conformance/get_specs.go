package conformance

import (
	. "github.com/onsi/ginkgo/v2"
)

// describeGet declares the specs of getPet that need no pet of their own.
func (s *suite) describeGet() {
	Describe("getPet", Label("getPet"), func() {
		BeforeEach(func() { verdict(s.h.BeforeSunset()) })

		It("answers 200 with a listed pet, unchanged, before its sunset", func(ctx SpecContext) {
			verdict(s.h.CheckGetListed(ctx))
		})

		It("answers 404 with an Error body for an id no pet has", func(ctx SpecContext) {
			verdict(s.h.CheckNotFound(ctx))
		})
	})
}
