package conformance

import (
	. "github.com/onsi/ginkgo/v2"

	"github.com/petstore/contract/conformance/check"
)

// describeCreate declares the specs of createPet. Every one creates, or
// may create on a faulty server, so all are labelled LabelMutating.
func (s *suite) describeCreate() {
	c := s.contract
	if !s.runs(LabelMutating) {
		return
	}
	Describe("createPet", Label("createPet", LabelMutating), func() {
		var echo []TableEntry
		for _, st := range c.SampledStatuses {
			echo = append(echo, Entry("status "+st, st))
		}
		echo = append(echo, Entry("no status: any PetStatus or none comes back", ""))
		DescribeTable("answers 201 with the pet that was sent, of a category a listed pet has",
			func(ctx SpecContext, status string) {
				verdict(s.h.CheckCreate(ctx, status))
			},
			echo,
		)

		var extremes []TableEntry
		for _, e := range check.ExtremeCategories {
			extremes = append(extremes, Entry(e.Name, e.ID))
		}
		DescribeTable("answers 201 with the categoryId sent, digit for digit, or 400 for a category it does not know",
			func(ctx SpecContext, categoryID int64) {
				verdict(s.h.CheckExtremeCategory(ctx, categoryID))
			},
			extremes,
		)
		if s.runs(LabelStrict) {
			DescribeTable("strict: accepts any int64 categoryId", Label(LabelStrict),
				func(ctx SpecContext, categoryID int64) {
					verdict(s.h.CheckStrictCategory(ctx, categoryID))
				},
				extremes,
			)
		}

		It("gives two pets created one after the other different ids, and getPet returns each", func(ctx SpecContext) {
			verdict(s.h.CheckNewIDs(ctx))
		})

		// Every status, since a fault may touch one only.
		var each []TableEntry
		for _, st := range c.SampledStatuses {
			each = append(each, Entry("status "+st, st))
		}
		DescribeTable("creates a pet that getPet then returns unchanged",
			func(ctx SpecContext, status string) {
				verdict(s.h.CheckCreatedReadBack(ctx, status))
			},
			each,
		)
		DescribeTable("creates a pet that listPets filtered by its status then returns",
			func(ctx SpecContext, status string) {
				verdict(s.h.CheckCreatedListed(ctx, status))
			},
			each,
		)

		var invalids []TableEntry
		for _, in := range check.InvalidBodies {
			invalids = append(invalids, Entry(in.Name, in.Body))
		}
		DescribeTable("answers 400 with an Error body for an invalid body",
			func(ctx SpecContext, body string) {
				verdict(s.h.CheckInvalidBody(ctx, body))
			},
			invalids,
		)

		if !s.runs(LabelStrict) {
			return
		}
		It("strict: gives a pet created without status the default status", Label(LabelStrict), func(ctx SpecContext) {
			verdict(s.h.CheckStrictDefaultStatus(ctx))
		})

		It("strict: answers 201 with the Location of the pet", Label(LabelStrict), func(ctx SpecContext) {
			verdict(s.h.CheckStrictLocation(ctx))
		})
	})
}
