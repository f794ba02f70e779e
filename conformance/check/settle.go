package check

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/petstore/contract/conformance/judge"
)

// settle calls probe until it returns true, for at most the run's settle
// window (Settings.Settle), and reports whether it did. probe runs at once,
// so a deployment that shows a write at once costs a single round; one
// that is eventually consistent gets the window to show it.
//
// A probe that returns a verdict ends the polling there, and settle
// returns it. Otherwise the caller judges, with its own report, what the
// last probe saw.
func (h *Harness) settle(ctx context.Context, probe func() (bool, error)) (bool, error) {
	window := h.cfg.Settle
	if window <= 0 {
		return probe()
	}
	deadline := time.NewTimer(window)
	defer deadline.Stop()
	poll := time.NewTicker(min(max(window/20, 50*time.Millisecond), 250*time.Millisecond))
	defer poll.Stop()
	for {
		if done, err := probe(); done || err != nil {
			return done, err
		}
		select {
		case <-poll.C:
		case <-deadline.C:
			return false, nil
		case <-ctx.Done():
			return false, nil
		}
	}
}

// readBack reads a pet the suite created through getPet, within the settle
// window. Unless getPet finds it, unchanged, it breaks create.read-back.
func (h *Harness) readBack(ctx context.Context, created judge.Pet) error {
	var x *judge.Exchange
	_, err := h.settle(ctx, func() (bool, error) {
		var err error
		x, err = h.getPet(ctx, created.IntID())
		return x.Status != http.StatusNotFound, err
	})
	if err != nil {
		return err
	}
	if err := x.Require(x.Status == http.StatusOK, judge.RuleReadBack, fmt.Sprintf("getPet of the pet just created (id %s): status %d, want 200 (read again for %v)", created.ID, x.Status, h.cfg.Settle)); err != nil {
		return err
	}
	got, err := x.Pet()
	if err != nil {
		return err
	}
	same, diff := got.Same(created)
	return x.Require(same, judge.RuleReadBack, "the pet read back differs from the one created: "+diff)
}

// checkListed checks that a pet the suite created shows, within the settle
// window, in listPets filtered by its status, unchanged. It skips the check
// if the pages the suite can follow end before all pets of that status
// were seen.
func (h *Harness) checkListed(ctx context.Context, created judge.Pet) error {
	status := created.StatusValue()
	var (
		found bool
		walk  walked
	)
	_, err := h.settleWalks(ctx, func() (bool, error) {
		first, err := h.listPets(ctx, "status="+url.QueryEscape(status)+"&limit="+strconv.Itoa(h.contract.LimitMax))
		if err != nil {
			return false, err
		}
		walk, err = h.walk(ctx, first, judge.RuleListed, func(x *judge.Exchange, page []judge.Pet) (bool, error) {
			for _, p := range page {
				if p.IntID() == created.IntID() {
					same, diff := p.Same(created)
					found = true
					return false, x.Require(same, judge.RuleListed, "the listed pet differs from the one created: "+diff)
				}
			}
			return true, nil
		})
		// A walk that was cut will not tell more next time.
		return found || walk.end == walkCut, err
	})
	switch {
	case err != nil:
		return err
	case found:
		return nil
	case walk.end == walkComplete:
		return walk.last.Require(false, judge.RuleListed, fmt.Sprintf("the pet just created, %s, is not in the list of status %s (listed again for %v)", created, status, h.cfg.Settle))
	default:
		return judge.Skipf("cannot tell whether the pet created is listed: it is not on the pages seen, and %s", walk.why)
	}
}
