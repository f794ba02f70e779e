package conformance

import (
	. "github.com/onsi/ginkgo/v2"
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
		for _, st := range c.statuses {
			echo = append(echo, Entry("status "+st, st))
		}
		echo = append(echo, Entry("no status: any PetStatus or none comes back", ""))
		DescribeTable("answers 201 with the pet that was sent, of a category a listed pet has",
			func(ctx SpecContext, status string) {
				verdict(s.h.checkCreate(ctx, status))
			},
			echo,
		)

		var extremes []TableEntry
		for _, e := range extremeCategories {
			extremes = append(extremes, Entry(e.name, e.id))
		}
		DescribeTable("answers 201 with the categoryId sent, digit for digit, or 400 for a category it does not know",
			func(ctx SpecContext, categoryID int64) {
				verdict(s.h.checkExtremeCategory(ctx, categoryID))
			},
			extremes,
		)
		if s.runs(LabelStrict) {
			DescribeTable("strict: accepts any int64 categoryId", Label(LabelStrict),
				func(ctx SpecContext, categoryID int64) {
					verdict(s.h.checkStrictCategory(ctx, categoryID))
				},
				extremes,
			)
		}

		It("gives two pets created one after the other different ids, and getPet returns each", func(ctx SpecContext) {
			verdict(s.h.checkNewIDs(ctx))
		})

		// Every status, since a fault may touch one only.
		var each []TableEntry
		for _, st := range c.statuses {
			each = append(each, Entry("status "+st, st))
		}
		DescribeTable("creates a pet that getPet then returns unchanged",
			func(ctx SpecContext, status string) {
				verdict(s.h.checkCreatedReadBack(ctx, status))
			},
			each,
		)
		DescribeTable("creates a pet that listPets filtered by its status then returns",
			func(ctx SpecContext, status string) {
				verdict(s.h.checkCreatedListed(ctx, status))
			},
			each,
		)

		var invalids []TableEntry
		for _, in := range invalidBodies {
			invalids = append(invalids, Entry(in.name, in.body))
		}
		DescribeTable("answers 400 with an Error body for an invalid body",
			func(ctx SpecContext, body string) {
				verdict(s.h.checkInvalidBody(ctx, body))
			},
			invalids,
		)

		if !s.runs(LabelStrict) {
			return
		}
		It("strict: gives a pet created without status the default status", Label(LabelStrict), func(ctx SpecContext) {
			verdict(s.h.checkStrictDefaultStatus(ctx))
		})

		It("strict: answers 201 with the Location of the pet", Label(LabelStrict), func(ctx SpecContext) {
			verdict(s.h.checkStrictLocation(ctx))
		})
	})
}
