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

// The checks of listPets: limit, the status filter and unique ids. The
// client holds every page to its limit (at most the limit, the default or
// the maximum), so the checks judge what it cannot: that a page is full
// when more pets exist.

// maxUniquePages bounds the pages of listPets whose ids the check of unique
// ids compares.
const maxUniquePages = 5

// CheckLimitDefault lists pets without limit: the page must hold the
// default number of pets when at least that many exist.
func (h *Harness) CheckLimitDefault(ctx context.Context) error {
	c := h.contract
	before, err := h.census(ctx)
	if err != nil {
		return err
	}
	x, err := h.listPets(ctx, "")
	if err != nil {
		return err
	}
	if err := x.Require(x.Status == http.StatusOK, judge.RuleLimitDefault, fmt.Sprintf("status %d, want 200", x.Status)); err != nil {
		return err
	}
	pets, err := x.Pets()
	if err != nil {
		return err
	}
	after, err := h.census(ctx)
	if err != nil {
		return err
	}
	// Others may create pets meanwhile: judge by the fewer.
	available := min(len(before), len(after))
	return x.Require(len(pets) >= min(available, c.LimitDefault), judge.RuleLimitDefault, fmt.Sprintf("got %d pets, but at least %d exist (seen with limit=%d)", len(pets), available, c.LimitMax))
}

// limitChoice is a limit the check of limit asks for, chosen once the
// number of pets available is known.
type limitChoice struct {
	Name   string
	Choose func(h *Harness, available int) int
}

// LimitChoices are the limits the check of limit asks for: the minimum,
// one between, and the maximum.
func LimitChoices(c Contract) []limitChoice {
	return []limitChoice{
		{fmt.Sprintf("limit=%d, the minimum", c.LimitMin), func(*Harness, int) int { return c.LimitMin }},
		{"a value between, below the number of pets when it can be", func(h *Harness, available int) int {
			// Below the number of pets, so that a server that ignores
			// limit shows it.
			hi := min(available-1, c.LimitMax-1)
			if hi <= c.LimitMin+1 {
				return (c.LimitMin + c.LimitMax) / 2
			}
			return c.LimitMin + 1 + h.rnd.IntN(hi-c.LimitMin)
		}},
		{fmt.Sprintf("limit=%d, the maximum", c.LimitMax), func(*Harness, int) int { return c.LimitMax }},
	}
}

// CheckLimit lists pets with the limit choose gives: the page must hold
// that many pets when at least that many exist.
func (h *Harness) CheckLimit(ctx context.Context, choose func(h *Harness, available int) int) error {
	c := h.contract
	before, err := h.census(ctx)
	if err != nil {
		return err
	}
	limit := choose(h, len(before))
	x, err := h.listPets(ctx, "limit="+strconv.Itoa(limit))
	if err != nil {
		return err
	}
	if err := x.Require(x.Status == http.StatusOK, judge.RuleLimit, fmt.Sprintf("limit=%d is valid; status %d, want 200", limit, x.Status)); err != nil {
		return err
	}
	pets, err := x.Pets()
	if err != nil {
		return err
	}
	after, err := h.census(ctx)
	if err != nil {
		return err
	}
	available := min(len(before), len(after))
	// A short page is asked again within the settle time, as
	// CheckListLimit's: an eventually consistent server may hold its
	// place for a pet just created that it does not show yet.
	if len(pets) < min(available, limit) {
		if _, err := h.settle(ctx, func() (bool, error) {
			var err error
			if x, err = h.listPets(ctx, "limit="+strconv.Itoa(limit)); err != nil {
				return false, err
			}
			if err := x.Require(x.Status == http.StatusOK, judge.RuleLimit, fmt.Sprintf("limit=%d is valid; status %d, want 200", limit, x.Status)); err != nil {
				return false, err
			}
			pets, err = x.Pets()
			return len(pets) >= min(available, limit), err
		}); err != nil {
			return err
		}
	}
	return x.Require(len(pets) >= min(available, limit), judge.RuleLimit, fmt.Sprintf("got %d pets for limit=%d, but %d exist (seen with limit=%d; asked again for %v)", len(pets), limit, available, c.LimitMax, h.cfg.Settle))
}

// CheckFullPage checks what the other checks of limit take for granted:
// the unfiltered page of the largest limit shows how many pets exist. A
// server that caps every page lower would fool them; the lists of each
// status, and the page after, show more pets if there are.
func (h *Harness) CheckFullPage(ctx context.Context) error {
	c := h.contract
	for attempt := 1; ; attempt++ {
		ref, err := h.listPets(ctx, "limit="+strconv.Itoa(c.LimitMax))
		if err != nil {
			return err
		}
		if err := ref.Require(ref.Status == http.StatusOK, judge.RuleLimit, fmt.Sprintf("limit=%d is valid; status %d, want 200", c.LimitMax, ref.Status)); err != nil {
			return err
		}
		refPets, err := ref.Pets()
		if err != nil {
			return err
		}
		shown := len(refPets)
		if shown == c.LimitMax {
			return nil
		}
		seen := map[int64]bool{}
		add := func(x *judge.Exchange) error {
			if x == nil || x.Status != http.StatusOK {
				return nil
			}
			pets, err := x.Pets()
			for _, p := range pets {
				seen[p.IntID()] = true
			}
			return err
		}
		if err := add(ref); err != nil {
			return err
		}
		next, _, err := h.nextPage(ctx, ref)
		if err != nil {
			return err
		}
		if err := add(next); err != nil {
			return err
		}
		for _, st := range c.SampledStatuses {
			x, err := h.listPets(ctx, "status="+url.QueryEscape(st)+"&limit="+strconv.Itoa(c.LimitMax))
			if err != nil {
				return err
			}
			if err := add(x); err != nil {
				return err
			}
		}
		// Pets created meanwhile are in a census taken after.
		census, err := h.census(ctx)
		if err != nil {
			return err
		}
		if len(seen) <= max(shown, len(census)) {
			return nil
		}
		// Pets removed meanwhile are not: judge again.
		if attempt == 2 {
			return ref.Breaks(judge.RuleLimit, fmt.Sprintf("limit=%d gave %d pets, yet the lists of each status and the page after show %d distinct pets: a page may hold fewer pets than its limit only when no more exist", c.LimitMax, shown, len(seen)))
		}
	}
}

// badLimit is a query of listPets with a limit out of range, not an
// integer, or given twice.
type badLimit struct {
	Name, Query string
}

// BadLimits are the bad limits the checks send.
func BadLimits(c Contract) []badLimit {
	var out []badLimit
	for _, v := range []string{
		strconv.Itoa(c.LimitMin - 1), "-1", strconv.Itoa(c.LimitMax + 1), strconv.Itoa(c.LimitMax * 10),
		"ten", "1.5", "",
	} {
		out = append(out, badLimit{"limit=" + v, "limit=" + url.QueryEscape(v)})
	}
	return append(out, badLimit{"limit given twice", "limit=1&limit=2"})
}

// CheckBadLimit lists pets with a bad limit: the answer may be a 400 or a
// clamped page, never a 5xx or more pets than the maximum.
func (h *Harness) CheckBadLimit(ctx context.Context, query string) error {
	x, err := h.listPets(ctx, query)
	if err != nil {
		return err
	}
	// A 5xx is not documented, and a page of more than the maximum breaks
	// the limit, so the client has judged those already; the interface
	// lists no 400 for listPets, so a clamped page passes too.
	return x.Require(x.Status == http.StatusOK || x.Status == http.StatusBadRequest, judge.RuleLimitBad, fmt.Sprintf("status %d", x.Status))
}

// CheckStrictBadLimit lists pets with a bad limit: petmock answers 400.
func (h *Harness) CheckStrictBadLimit(ctx context.Context, query string) error {
	x, err := h.listPets(ctx, query)
	if err != nil {
		return err
	}
	return x.Require(x.Status == http.StatusBadRequest, judge.RuleStrictLimit, fmt.Sprintf("status %d, want 400", x.Status))
}

// CheckStatusFilter lists pets of a status: every pet listed must have it.
func (h *Harness) CheckStatusFilter(ctx context.Context, status string) error {
	x, err := h.listPets(ctx, "status="+url.QueryEscape(status)+"&limit="+strconv.Itoa(h.contract.LimitMax))
	if err != nil {
		return err
	}
	if err := x.Require(x.Status == http.StatusOK, judge.RuleStatus, fmt.Sprintf("status=%s is a PetStatus; status %d, want 200", status, x.Status)); err != nil {
		return err
	}
	pets, err := x.Pets()
	if err != nil {
		return err
	}
	for _, p := range pets {
		if err := x.Require(p.StatusValue() == status, judge.RuleStatus, fmt.Sprintf("asked for %s, got %s", status, p)); err != nil {
			return err
		}
	}
	// Each pet shows the status asked for; each must have it too.
	items, err := x.Items()
	if err != nil {
		return err
	}
	return h.checkRelabelled(ctx, h.contract.Resource("pets"), nil, "status", status, x, items, judge.RuleStatus)
}

// CheckStatusFound lists pets of a status that the unfiltered list shows
// a pet of: the filtered list must show some too.
func (h *Harness) CheckStatusFound(ctx context.Context, status string) error {
	c := h.contract
	for attempt := 1; ; attempt++ {
		census, err := h.census(ctx)
		if err != nil {
			return err
		}
		var shown *judge.Pet
		for _, p := range census {
			if p.StatusValue() == status {
				shown = &p
				break
			}
		}
		switch {
		case shown == nil && attempt == 1:
			return judge.Skipf("the first page of listPets shows no pet of status %s", status)
		case shown == nil:
			return judge.Skipf("the pet of status %s that listPets showed changed or went away meanwhile, and no other took its place", status)
		}
		// The filter may show a change a little after the unfiltered list
		// does.
		var x *judge.Exchange
		found, err := h.settle(ctx, func() (bool, error) {
			var err error
			if x, err = h.listPets(ctx, "status="+url.QueryEscape(status)+"&limit="+strconv.Itoa(c.LimitMax)); err != nil {
				return false, err
			}
			if err := x.Require(x.Status == http.StatusOK, judge.RuleStatusFound, fmt.Sprintf("status=%s is a PetStatus; status %d, want 200", status, x.Status)); err != nil {
				return false, err
			}
			pets, err := x.Pets()
			return len(pets) > 0, err
		})
		switch {
		case err != nil:
			return err
		case found:
			return nil
		}
		// Another client may have changed that pet meanwhile: judge again
		// by a fresh listing.
		if attempt == 2 {
			return x.Breaks(judge.RuleStatusFound, fmt.Sprintf("listPets shows %s, but status=%s returns no pet, again when listed afresh", shown, status))
		}
	}
}

// StatusesOutside returns those of values that are no PetStatus.
func StatusesOutside(c Contract, values ...string) []string {
	return slices.DeleteFunc(values, func(v string) bool { return slices.Contains(c.Statuses, v) })
}

// CheckUnknownStatus lists pets of a status outside PetStatus: the answer
// may be a 400 or a list, but none of another status.
func (h *Harness) CheckUnknownStatus(ctx context.Context, value string) error {
	x, err := h.listPets(ctx, "status="+url.QueryEscape(value))
	if err != nil {
		return err
	}
	if err := x.Require(x.Status == http.StatusOK || x.Status == http.StatusBadRequest, judge.RuleStatusBad, fmt.Sprintf("status %d", x.Status)); err != nil {
		return err
	}
	if x.Status != http.StatusOK {
		return nil
	}
	pets, err := x.Pets()
	if err != nil {
		return err
	}
	for _, p := range pets {
		if err := x.Require(p.StatusValue() == value, judge.RuleStatusBad, fmt.Sprintf("asked for %q, got %s", value, p)); err != nil {
			return err
		}
	}
	return nil
}

// CheckStrictUnknownStatus lists pets of a status outside PetStatus:
// petmock answers 400.
func (h *Harness) CheckStrictUnknownStatus(ctx context.Context, value string) error {
	x, err := h.listPets(ctx, "status="+url.QueryEscape(value))
	if err != nil {
		return err
	}
	return x.Require(x.Status == http.StatusBadRequest, judge.RuleStrictStatus, fmt.Sprintf("status=%q: status %d, want 400", value, x.Status))
}

// CheckOneIDPerPet checks what the client cannot, which finds an id twice
// in one page: across pages and filters, an id must still name one pet,
// the same name and category wherever it shows (its status may change
// meanwhile).
func (h *Harness) CheckOneIDPerPet(ctx context.Context) error {
	c := h.contract
	named := map[int64]judge.Pet{}
	note := func(x *judge.Exchange, page []judge.Pet) error {
		for _, p := range page {
			q, ok := named[p.IntID()]
			if !ok {
				named[p.IntID()] = p
				continue
			}
			if err := x.Require(p.Name == q.Name && judge.SameNumber(p.CategoryID, q.CategoryID), judge.RuleUniqueIDs,
				fmt.Sprintf("id %d names two pets: %s here, %s in another list", p.IntID(), p, q)); err != nil {
				return err
			}
		}
		return nil
	}
	if _, err := h.settleWalks(ctx, func() (bool, error) {
		first, err := h.listPets(ctx, "limit="+strconv.Itoa(c.LimitMax))
		if err != nil {
			return false, err
		}
		pages := 0
		_, err = h.walk(ctx, first, judge.RuleUniqueIDs, func(x *judge.Exchange, page []judge.Pet) (bool, error) {
			pages++
			return pages < maxUniquePages, note(x, page)
		})
		return err == nil, err
	}); err != nil {
		return err
	}
	for _, st := range c.SampledStatuses {
		x, err := h.listPets(ctx, "status="+url.QueryEscape(st)+"&limit="+strconv.Itoa(c.LimitMax))
		if err != nil {
			return err
		}
		if err := x.Require(x.Status == http.StatusOK, judge.RuleUniqueIDs, fmt.Sprintf("status=%s is a PetStatus; status %d, want 200", st, x.Status)); err != nil {
			return err
		}
		pets, err := x.Pets()
		if err != nil {
			return err
		}
		if err := note(x, pets); err != nil {
			return err
		}
	}
	return nil
}
