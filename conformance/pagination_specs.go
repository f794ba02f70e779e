package conformance

import (
	. "github.com/onsi/ginkgo/v2"
)

// describePagination declares petmock's pagination: Link rel="next" while
// more pets follow, pages ordered by id, each pet seen once.
func (s *suite) describePagination() {
	c := s.contract
	if !s.runs(LabelStrict) {
		return
	}
	Describe("pagination", Label("pagination", "listPets", LabelStrict), func() {
		entries := []TableEntry{Entry("all pets", "")}
		for _, st := range c.SampledStatuses {
			entries = append(entries, Entry("status="+st, st))
		}
		DescribeTable("strict: walks every page through rel=\"next\" links, each pet once, ordered by id",
			func(ctx SpecContext, status string) {
				verdict(s.h.CheckStrictPages(ctx, status))
			},
			entries,
		)
	})
}
