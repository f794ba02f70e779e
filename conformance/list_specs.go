package conformance

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"
)

// describeList declares the specs of listPets: limit, the status filter
// and unique ids.
func (s *suite) describeList() {
	c := s.contract
	Describe("listPets", Label("listPets"), func() {
		Describe("limit", Label("limit"), func() {
			It(fmt.Sprintf("returns at most %d pets without limit, and exactly %d when more exist", c.limitDefault, c.limitDefault), func(ctx SpecContext) {
				verdict(s.h.checkLimitDefault(ctx))
			})

			var choices []TableEntry
			for _, lc := range limitChoices(c) {
				choices = append(choices, Entry(lc.name, lc.choose))
			}
			DescribeTable("honours limit",
				func(ctx SpecContext, choose func(h *harness, available int) int) {
					verdict(s.h.checkLimit(ctx, choose))
				},
				choices,
			)

			It("returns a full page when more pets exist than the page shows", func(ctx SpecContext) {
				verdict(s.h.checkFullPage(ctx))
			})

			var badEntries []TableEntry
			for _, b := range badLimits(c) {
				badEntries = append(badEntries, Entry(b.name, b.query))
			}
			DescribeTable("never answers a bad limit with a 5xx or more than the maximum",
				func(ctx SpecContext, query string) {
					verdict(s.h.checkBadLimit(ctx, query))
				},
				badEntries,
			)

			if s.runs(LabelStrict) {
				DescribeTable("strict: answers a bad limit with 400", Label(LabelStrict),
					func(ctx SpecContext, query string) {
						verdict(s.h.checkStrictBadLimit(ctx, query))
					},
					badEntries,
				)
			}
		})

		Describe("status filter", Label("status"), func() {
			var each []TableEntry
			for _, st := range c.statuses {
				each = append(each, Entry("status="+st, st))
			}
			DescribeTable("returns only pets of the status asked for",
				func(ctx SpecContext, status string) {
					verdict(s.h.checkStatusFilter(ctx, status))
				},
				each,
			)

			DescribeTable("returns pets of the status asked for when the unfiltered list shows some",
				func(ctx SpecContext, status string) {
					verdict(s.h.checkStatusFound(ctx, status))
				},
				each,
			)

			var outside []TableEntry
			for _, v := range statusesOutside(c, "lost", "adopted") {
				outside = append(outside, Entry("status="+v, v))
			}
			DescribeTable("never returns pets of another status for a status outside PetStatus",
				func(ctx SpecContext, value string) {
					verdict(s.h.checkUnknownStatus(ctx, value))
				},
				outside,
			)

			var strictOutside []TableEntry
			for _, v := range statusesOutside(c, "lost", "", "AVAILABLE") {
				strictOutside = append(strictOutside, Entry(fmt.Sprintf("status=%s", v), v))
			}
			if !s.runs(LabelStrict) {
				return
			}
			DescribeTable("strict: answers a status outside PetStatus with 400", Label(LabelStrict),
				func(ctx SpecContext, value string) {
					verdict(s.h.checkStrictUnknownStatus(ctx, value))
				},
				strictOutside,
			)
		})

		It("gives each pet one id, the same on every page and under every filter", func(ctx SpecContext) {
			verdict(s.h.checkOneIDPerPet(ctx))
		})
	})
}
