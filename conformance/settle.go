package conformance

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// settle calls probe until it returns true, for at most the run's settle
// window (Config.Settle), and reports whether it did. probe runs at once,
// so a deployment that shows a write at once costs a single round; one
// that is eventually consistent gets the window to show it.
//
// A probe that returns a verdict ends the polling there, and settle
// returns it. Otherwise the caller judges, with its own report, what the
// last probe saw.
func (h *harness) settle(ctx context.Context, probe func() (bool, error)) (bool, error) {
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
func (h *harness) readBack(ctx context.Context, created pet) error {
	var x *exchange
	_, err := h.settle(ctx, func() (bool, error) {
		var err error
		x, err = h.getPet(ctx, created.id())
		return x.status != http.StatusNotFound, err
	})
	if err != nil {
		return err
	}
	if err := x.require(x.status == http.StatusOK, ruleReadBack, fmt.Sprintf("getPet of the pet just created (id %s): status %d, want 200 (read again for %v)", created.ID, x.status, h.cfg.Settle)); err != nil {
		return err
	}
	got, err := x.pet()
	if err != nil {
		return err
	}
	same, diff := got.same(created)
	return x.require(same, ruleReadBack, "the pet read back differs from the one created: "+diff)
}

// checkListed checks that a pet the suite created shows, within the settle
// window, in listPets filtered by its status, unchanged. It skips the check
// if the pages the suite can follow end before all pets of that status
// were seen.
func (h *harness) checkListed(ctx context.Context, created pet) error {
	status := created.status()
	var (
		found bool
		walk  walked
	)
	_, err := h.settle(ctx, func() (bool, error) {
		first, err := h.listPets(ctx, "status="+url.QueryEscape(status)+"&limit="+strconv.Itoa(h.contract.limitMax))
		if err != nil {
			return false, err
		}
		walk, err = h.walk(ctx, first, ruleListed, func(x *exchange, page []pet) (bool, error) {
			for _, p := range page {
				if p.id() == created.id() {
					same, diff := p.same(created)
					found = true
					return false, x.require(same, ruleListed, "the listed pet differs from the one created: "+diff)
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
		return walk.last.require(false, ruleListed, fmt.Sprintf("the pet just created, %s, is not in the list of status %s (listed again for %v)", created, status, h.cfg.Settle))
	default:
		return skipf("cannot tell whether the pet created is listed: it is not on the pages seen, and %s", walk.why)
	}
}
