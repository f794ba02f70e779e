package conformance

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
)

// maxUniquePages bounds the pages of listPets whose ids the check of unique
// ids compares.
const maxUniquePages = 5

// describeList declares the specs of listPets: limit, the status filter
// and unique ids. The client holds every page to its limit (at most the
// limit, the default or the maximum), so the specs check what it cannot:
// that a page is full when more pets exist.
func (s *suite) describeList() {
	c := s.contract
	Describe("listPets", Label("listPets"), func() {
		Describe("limit", Label("limit"), func() {
			It(fmt.Sprintf("returns at most %d pets without limit, and exactly %d when more exist", c.limitDefault, c.limitDefault), func(ctx SpecContext) {
				h := s.h
				before := len(h.census(ctx))
				x := h.listPets(ctx, "")
				x.require(x.status == http.StatusOK, ruleLimitDefault, fmt.Sprintf("status %d, want 200", x.status))
				got := len(x.pets())
				after := len(h.census(ctx))
				// Others may create pets meanwhile: judge by the fewer.
				available := min(before, after)
				x.require(got >= min(available, c.limitDefault), ruleLimitDefault, fmt.Sprintf("got %d pets, but at least %d exist (seen with limit=%d)", got, available, c.limitMax))
			})

			DescribeTable("honours limit",
				func(ctx SpecContext, choose func(h *harness, available int) int) {
					h := s.h
					before := len(h.census(ctx))
					limit := choose(h, before)
					x := h.listPets(ctx, "limit="+strconv.Itoa(limit))
					x.require(x.status == http.StatusOK, ruleLimit, fmt.Sprintf("limit=%d is valid; status %d, want 200", limit, x.status))
					got := len(x.pets())
					available := min(before, len(h.census(ctx)))
					x.require(got >= min(available, limit), ruleLimit, fmt.Sprintf("got %d pets for limit=%d, but %d exist (seen with limit=%d)", got, limit, available, c.limitMax))
				},
				Entry(fmt.Sprintf("limit=%d, the minimum", c.limitMin), func(*harness, int) int { return c.limitMin }),
				Entry("a value between, below the number of pets when it can be", func(h *harness, available int) int {
					// Below the number of pets, so that a server that
					// ignores limit shows it.
					hi := min(available-1, c.limitMax-1)
					if hi <= c.limitMin+1 {
						return (c.limitMin + c.limitMax) / 2
					}
					return c.limitMin + 1 + h.rnd.IntN(hi-c.limitMin)
				}),
				Entry(fmt.Sprintf("limit=%d, the maximum", c.limitMax), func(*harness, int) int { return c.limitMax }),
			)

			// The limit checks take the unfiltered page of the largest
			// limit as the truth of how many pets exist; a server that
			// caps every page lower would fool them. The lists of each
			// status, and the page after, show more pets if there are.
			It("returns a full page when more pets exist than the page shows", func(ctx SpecContext) {
				h := s.h
				for attempt := 1; ; attempt++ {
					ref := h.listPets(ctx, "limit="+strconv.Itoa(c.limitMax))
					ref.require(ref.status == http.StatusOK, ruleLimit, fmt.Sprintf("limit=%d is valid; status %d, want 200", c.limitMax, ref.status))
					shown := len(ref.pets())
					if shown == c.limitMax {
						return
					}
					seen := map[int64]bool{}
					add := func(x *exchange) {
						if x != nil && x.status == http.StatusOK {
							for _, p := range x.pets() {
								seen[p.id()] = true
							}
						}
					}
					add(ref)
					next, _ := h.nextPage(ctx, ref)
					add(next)
					for _, st := range c.Statuses {
						add(h.listPets(ctx, "status="+url.QueryEscape(st)+"&limit="+strconv.Itoa(c.limitMax)))
					}
					// Pets created meanwhile are in a census taken after.
					if len(seen) <= max(shown, len(h.census(ctx))) {
						return
					}
					// Pets removed meanwhile are not: judge again.
					if attempt == 2 {
						h.broken(ref, ruleLimit, fmt.Sprintf("limit=%d gave %d pets, yet the lists of each status and the page after show %d distinct pets: a page may hold fewer pets than its limit only when no more exist", c.limitMax, shown, len(seen)))
					}
				}
			})

			bad := []string{
				strconv.Itoa(c.limitMin - 1), "-1", strconv.Itoa(c.limitMax + 1), strconv.Itoa(c.limitMax * 10),
				"ten", "1.5", "",
			}
			var badEntries []TableEntry
			for _, v := range bad {
				badEntries = append(badEntries, Entry("limit="+v, "limit="+url.QueryEscape(v)))
			}
			badEntries = append(badEntries, Entry("limit given twice", "limit=1&limit=2"))

			DescribeTable("never answers a bad limit with a 5xx or more than the maximum",
				func(ctx SpecContext, query string) {
					x := s.h.listPets(ctx, query)
					// A 5xx is not documented, and a page of more than the
					// maximum breaks the limit, so the client has failed
					// the spec already; the interface lists no 400 for
					// listPets, so a clamped page passes too.
					x.require(x.status == http.StatusOK || x.status == http.StatusBadRequest, ruleLimitBad, fmt.Sprintf("status %d", x.status))
				},
				badEntries,
			)

			if s.runs(LabelStrict) {
				DescribeTable("strict: answers a bad limit with 400", Label(LabelStrict),
					func(ctx SpecContext, query string) {
						x := s.h.listPets(ctx, query)
						x.require(x.status == http.StatusBadRequest, ruleStrictLimit, fmt.Sprintf("status %d, want 400", x.status))
					},
					badEntries,
				)
			}
		})

		Describe("status filter", Label("status"), func() {
			var each []TableEntry
			for _, st := range c.Statuses {
				each = append(each, Entry("status="+st, st))
			}
			DescribeTable("returns only pets of the status asked for",
				func(ctx SpecContext, status string) {
					x := s.h.listPets(ctx, "status="+url.QueryEscape(status)+"&limit="+strconv.Itoa(c.limitMax))
					x.require(x.status == http.StatusOK, ruleStatus, fmt.Sprintf("status=%s is a PetStatus; status %d, want 200", status, x.status))
					for _, p := range x.pets() {
						x.require(p.status() == status, ruleStatus, fmt.Sprintf("asked for %s, got %s", status, p))
					}
				},
				each,
			)

			DescribeTable("returns pets of the status asked for when the unfiltered list shows some",
				func(ctx SpecContext, status string) {
					h := s.h
					for attempt := 1; ; attempt++ {
						var shown *pet
						for _, p := range h.census(ctx) {
							if p.status() == status {
								shown = &p
								break
							}
						}
						switch {
						case shown == nil && attempt == 1:
							Skip(fmt.Sprintf("the first page of listPets shows no pet of status %s", status))
						case shown == nil:
							Skip(fmt.Sprintf("the pet of status %s that listPets showed changed or went away meanwhile, and no other took its place", status))
						}
						// The filter may show a change a little after the
						// unfiltered list does.
						var x *exchange
						if h.settle(ctx, func() bool {
							x = h.listPets(ctx, "status="+url.QueryEscape(status)+"&limit="+strconv.Itoa(c.limitMax))
							x.require(x.status == http.StatusOK, ruleStatusFound, fmt.Sprintf("status=%s is a PetStatus; status %d, want 200", status, x.status))
							return len(x.pets()) > 0
						}) {
							return
						}
						// Another client may have changed that pet
						// meanwhile: judge again by a fresh listing.
						if attempt == 2 {
							h.broken(x, ruleStatusFound, fmt.Sprintf("listPets shows %s, but status=%s returns no pet, again when listed afresh", shown, status))
						}
					}
				},
				each,
			)

			var outside []TableEntry
			for _, v := range []string{"lost", "adopted"} {
				if !slices.Contains(c.Statuses, v) {
					outside = append(outside, Entry("status="+v, v))
				}
			}
			DescribeTable("never returns pets of another status for a status outside PetStatus",
				func(ctx SpecContext, value string) {
					x := s.h.listPets(ctx, "status="+url.QueryEscape(value))
					x.require(x.status == http.StatusOK || x.status == http.StatusBadRequest, ruleStatusBad, fmt.Sprintf("status %d", x.status))
					if x.status == http.StatusOK {
						for _, p := range x.pets() {
							x.require(p.status() == value, ruleStatusBad, fmt.Sprintf("asked for %q, got %s", value, p))
						}
					}
				},
				outside,
			)

			var strictOutside []TableEntry
			for _, v := range []string{"lost", "", "AVAILABLE"} {
				if !slices.Contains(c.Statuses, v) {
					strictOutside = append(strictOutside, Entry(fmt.Sprintf("status=%s", v), v))
				}
			}
			if !s.runs(LabelStrict) {
				return
			}
			DescribeTable("strict: answers a status outside PetStatus with 400", Label(LabelStrict),
				func(ctx SpecContext, value string) {
					x := s.h.listPets(ctx, "status="+url.QueryEscape(value))
					x.require(x.status == http.StatusBadRequest, ruleStrictStatus, fmt.Sprintf("status=%q: status %d, want 400", value, x.status))
				},
				strictOutside,
			)
		})

		// The client finds an id twice in one page. Across pages and
		// filters, an id must still name one pet: the same name and
		// category wherever it shows (its status may change meanwhile).
		It("gives each pet one id, the same on every page and under every filter", func(ctx SpecContext) {
			h := s.h
			named := map[int64]pet{}
			note := func(x *exchange, page []pet) {
				for _, p := range page {
					q, ok := named[p.id()]
					if !ok {
						named[p.id()] = p
						continue
					}
					x.require(p.Name == q.Name && sameNumber(p.CategoryID, q.CategoryID), ruleUniqueIDs,
						fmt.Sprintf("id %d names two pets: %s here, %s in another list", p.id(), p, q))
				}
			}
			pages := 0
			h.walk(ctx, h.listPets(ctx, "limit="+strconv.Itoa(c.limitMax)), ruleUniqueIDs, func(x *exchange, page []pet) bool {
				note(x, page)
				pages++
				return pages < maxUniquePages
			})
			for _, st := range c.Statuses {
				x := h.listPets(ctx, "status="+url.QueryEscape(st)+"&limit="+strconv.Itoa(c.limitMax))
				x.require(x.status == http.StatusOK, ruleUniqueIDs, fmt.Sprintf("status=%s is a PetStatus; status %d, want 200", st, x.status))
				note(x, x.pets())
			}
		})
	})
}
