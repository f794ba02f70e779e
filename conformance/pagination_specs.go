package conformance

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"

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
		for _, st := range c.Statuses {
			entries = append(entries, Entry("status="+st, st))
		}
		DescribeTable("strict: walks every page through rel=\"next\" links, each pet once, ordered by id",
			func(ctx SpecContext, status string) {
				h := s.h
				filter := ""
				if status != "" {
					filter = "status=" + url.QueryEscape(status) + "&"
				}
				// The reference: the first page at the largest limit.
				ref := h.listPets(ctx, filter+"limit="+strconv.Itoa(c.limitMax))
				ref.require(ref.status == http.StatusOK, ruleStrictPagination, fmt.Sprintf("status %d, want 200", ref.status))
				want := ref.pets()
				complete := len(want) < c.limitMax
				if len(want) == 0 {
					ref.require(linkTarget(ref.header, "next") == "", ruleStrictPagination, "an empty list links to a next page")
					return
				}
				last := want[len(want)-1].id()
				size := min(max(len(want)/4, 1), 10)

				var seen []pet
				first := h.listPets(ctx, filter+"limit="+strconv.Itoa(size))
				h.walk(ctx, first, ruleStrictPagination, func(x *exchange, page []pet) bool {
					for _, p := range page {
						if status != "" {
							x.require(p.status() == status, ruleStatus, fmt.Sprintf("a later page of status=%s holds %s", status, p))
						}
						if n := len(seen); n > 0 {
							x.require(p.id() > seen[n-1].id(), ruleStrictPagination,
								fmt.Sprintf("id %d follows id %d: pets repeat or are out of order", p.id(), seen[n-1].id()))
						}
						seen = append(seen, p)
					}
					passed := len(seen) > 0 && seen[len(seen)-1].id() >= last
					if !passed {
						x.require(linkTarget(x.header, "next") != "", ruleStrictPagination,
							fmt.Sprintf("no next link after %d pets, but pets up to id %d exist", len(seen), last))
					}
					// Past the reference's last pet, the rest of a long
					// list need not be walked.
					return !passed || complete
				})

				// No gaps: the walk saw exactly the reference, up to its
				// last id; pets created meanwhile come after it.
				var walked []string
				for _, p := range seen {
					if p.id() <= last {
						walked = append(walked, string(p.ID))
					}
				}
				var expected []string
				for _, p := range want {
					expected = append(expected, string(p.ID))
				}
				ref.require(slices.Equal(walked, expected), ruleStrictPagination,
					fmt.Sprintf("walking pages of limit=%d gave other pets than one page of limit=%d", size, c.limitMax))
			},
			entries,
		)
	})
}
