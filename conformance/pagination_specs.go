package conformance

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// maxWalk bounds the pages of one walk, so that a strict run against a
// large catalogue ends.
const maxWalk = 200

// describePagination declares petmock's pagination: Link rel="next" while
// more pets follow, pages ordered by id, each pet seen once.
func (s *suite) describePagination() {
	c := s.contract
	Describe("pagination", Label("pagination", "listPets", LabelStrict), func() {
		entries := []TableEntry{Entry("all pets", "")}
		for _, st := range c.statuses {
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
				Expect(ref.status).To(Equal(http.StatusOK), ref.broke(ruleStrictPagination))
				want := ref.pets()
				complete := len(want) < c.limitMax
				if len(want) == 0 {
					Expect(linkTarget(ref.header, "next")).To(BeEmpty(), ref.broke(ruleStrictPagination, "an empty list links to a next page"))
					return
				}
				last := want[len(want)-1].id()
				size := min(max(len(want)/4, 1), 10)

				var seen []pet
				x := h.listPets(ctx, filter+"limit="+strconv.Itoa(size))
				for pages := 1; ; pages++ {
					Expect(x.status).To(Equal(http.StatusOK), x.broke(ruleStrictPagination))
					page := x.pets()
					Expect(len(page)).To(BeNumerically("<=", size), x.broke(ruleStrictPagination, fmt.Sprintf("a page of limit=%d holds %d pets", size, len(page))))
					for _, p := range page {
						if status != "" {
							Expect(p.status()).To(Equal(status), x.broke(ruleStatus, fmt.Sprintf("a later page of status=%s holds %s", status, p)))
						}
						if n := len(seen); n > 0 {
							Expect(p.id()).To(BeNumerically(">", seen[n-1].id()), x.broke(ruleStrictPagination,
								fmt.Sprintf("id %d follows id %d: pets repeat or are out of order", p.id(), seen[n-1].id())))
						}
						seen = append(seen, p)
					}
					next := linkTarget(x.header, "next")
					passed := len(seen) > 0 && seen[len(seen)-1].id() >= last
					if !passed {
						Expect(next).NotTo(BeEmpty(), x.broke(ruleStrictPagination,
							fmt.Sprintf("no next link after %d pets, but pets up to id %d exist", len(seen), last)))
					}
					if next == "" || (passed && !complete) || pages == maxWalk {
						break
					}
					x = h.follow(ctx, x, next, ruleStrictPagination)
				}

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
				Expect(walked).To(Equal(expected), ref.broke(ruleStrictPagination,
					fmt.Sprintf("walking pages of limit=%d gave other pets than one page of limit=%d", size, c.limitMax)))
			},
			entries,
		)
	})
}
