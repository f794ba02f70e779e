package check

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/petstore/contract/conformance/judge"
)

// CheckStrictPages walks the pages of listPets, filtered by status ("" for
// all pets), as petmock paginates: Link rel="next" while more pets follow,
// pages ordered by id, each pet seen once.
func (h *Harness) CheckStrictPages(ctx context.Context, status string) error {
	c := h.contract
	filter := ""
	if status != "" {
		filter = "status=" + url.QueryEscape(status) + "&"
	}
	// The reference: the first page at the largest limit.
	ref, err := h.listPets(ctx, filter+"limit="+strconv.Itoa(c.LimitMax))
	if err != nil {
		return err
	}
	if err := ref.Require(ref.Status == http.StatusOK, judge.RuleStrictPagination, fmt.Sprintf("status %d, want 200", ref.Status)); err != nil {
		return err
	}
	want, err := ref.Pets()
	if err != nil {
		return err
	}
	complete := len(want) < c.LimitMax
	if len(want) == 0 {
		return ref.Require(linkTarget(ref.Header, "next") == "", judge.RuleStrictPagination, "an empty list links to a next page")
	}
	last := want[len(want)-1].IntID()
	size := min(max(len(want)/4, 1), 10)

	var seen []judge.Pet
	if _, err := h.settleWalks(ctx, func() (bool, error) {
		seen = nil
		first, err := h.listPets(ctx, filter+"limit="+strconv.Itoa(size))
		if err != nil {
			return false, err
		}
		_, err = h.walk(ctx, first, judge.RuleStrictPagination, func(x *judge.Exchange, page []judge.Pet) (bool, error) {
			for _, p := range page {
				if status != "" {
					if err := x.Require(p.StatusValue() == status, judge.RuleStatus, fmt.Sprintf("a later page of status=%s holds %s", status, p)); err != nil {
						return false, err
					}
				}
				if n := len(seen); n > 0 {
					if err := x.Require(p.IntID() > seen[n-1].IntID(), judge.RuleStrictPagination,
						fmt.Sprintf("id %d follows id %d: pets repeat or are out of order", p.IntID(), seen[n-1].IntID())); err != nil {
						return false, err
					}
				}
				seen = append(seen, p)
			}
			passed := len(seen) > 0 && seen[len(seen)-1].IntID() >= last
			if !passed {
				if err := x.Require(linkTarget(x.Header, "next") != "", judge.RuleStrictPagination,
					fmt.Sprintf("no next link after %d pets, but pets up to id %d exist", len(seen), last)); err != nil {
					return false, err
				}
			}
			// Past the reference's last pet, the rest of a long list need
			// not be walked.
			return !passed || complete, nil
		})
		return err == nil, err
	}); err != nil {
		return err
	}

	// No gaps: the walk saw exactly the reference, up to its last id;
	// pets created meanwhile come after it.
	var walked []string
	for _, p := range seen {
		if p.IntID() <= last {
			walked = append(walked, string(p.ID))
		}
	}
	var expected []string
	for _, p := range want {
		expected = append(expected, string(p.ID))
	}
	return ref.Require(slices.Equal(walked, expected), judge.RuleStrictPagination,
		fmt.Sprintf("walking pages of limit=%d gave other pets than one page of limit=%d", size, c.LimitMax))
}
