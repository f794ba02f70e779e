package conformance

import (
	"fmt"

	. "github.com/onsi/ginkgo/v2"

	"github.com/petstore/contract/conformance/check"
)

// describeList declares the specs of listPets: limit, the status filter
// and unique ids.
func (s *suite) describeList() {
	c := s.contract
	Describe("listPets", Label("listPets"), func() {
		Describe("limit", Label("limit"), func() {
			It(fmt.Sprintf("returns at most %d pets without limit, and exactly %d when more exist", c.LimitDefault, c.LimitDefault), func(ctx SpecContext) {
				verdict(s.h.CheckLimitDefault(ctx))
			})

			var choices []TableEntry
			for _, lc := range check.LimitChoices(c) {
				choices = append(choices, Entry(lc.Name, lc.Choose))
			}
			DescribeTable("honours limit",
				func(ctx SpecContext, choose func(h *check.Harness, available int) int) {
					verdict(s.h.CheckLimit(ctx, choose))
				},
				choices,
			)

			It("returns a full page when more pets exist than the page shows", func(ctx SpecContext) {
				verdict(s.h.CheckFullPage(ctx))
			})

			var badEntries []TableEntry
			for _, b := range check.BadLimits(c) {
				badEntries = append(badEntries, Entry(b.Name, b.Query))
			}
			DescribeTable("never answers a bad limit with a 5xx or more than the maximum",
				func(ctx SpecContext, query string) {
					verdict(s.h.CheckBadLimit(ctx, query))
				},
				badEntries,
			)

			if s.runs(LabelStrict) {
				DescribeTable("strict: answers a bad limit with 400", Label(LabelStrict),
					func(ctx SpecContext, query string) {
						verdict(s.h.CheckStrictBadLimit(ctx, query))
					},
					badEntries,
				)
			}
		})

		Describe("status filter", Label("status"), func() {
			var each []TableEntry
			for _, st := range c.SampledStatuses {
				each = append(each, Entry("status="+st, st))
			}
			DescribeTable("returns only pets of the status asked for",
				func(ctx SpecContext, status string) {
					verdict(s.h.CheckStatusFilter(ctx, status))
				},
				each,
			)

			DescribeTable("returns pets of the status asked for when the unfiltered list shows some",
				func(ctx SpecContext, status string) {
					verdict(s.h.CheckStatusFound(ctx, status))
				},
				each,
			)

			var outside []TableEntry
			for _, v := range check.StatusesOutside(c, "lost", "adopted") {
				outside = append(outside, Entry("status="+v, v))
			}
			DescribeTable("never returns pets of another status for a status outside PetStatus",
				func(ctx SpecContext, value string) {
					verdict(s.h.CheckUnknownStatus(ctx, value))
				},
				outside,
			)

			var strictOutside []TableEntry
			for _, v := range check.StatusesOutside(c, "lost", "", "AVAILABLE") {
				strictOutside = append(strictOutside, Entry(fmt.Sprintf("status=%s", v), v))
			}
			if !s.runs(LabelStrict) {
				return
			}
			DescribeTable("strict: answers a status outside PetStatus with 400", Label(LabelStrict),
				func(ctx SpecContext, value string) {
					verdict(s.h.CheckStrictUnknownStatus(ctx, value))
				},
				strictOutside,
			)
		})

		It("gives each pet one id, the same on every page and under every filter", func(ctx SpecContext) {
			verdict(s.h.CheckOneIDPerPet(ctx))
		})
	})
}
