package conformance

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
)

// settle calls probe until it returns true, for at most the run's settle
// window (Config.Settle), and reports whether it did. probe runs at once,
// so a deployment that shows a write at once costs a single round; one
// that is eventually consistent gets the window to show it.
//
// A probe that fails or skips the spec ends the polling there. The caller
// fails the spec, if it must, with its own report: Gomega's would print
// what the server sent, unredacted.
func (h *harness) settle(ctx context.Context, probe func() bool) bool {
	window := h.cfg.settle()
	if window <= 0 {
		return probe()
	}
	quiet := gomega.NewGomega(func(string, ...int) {})
	return quiet.Eventually(ctx, probe).
		WithTimeout(window).
		WithPolling(min(max(window/20, 50*time.Millisecond), 250*time.Millisecond)).
		Should(gomega.BeTrue())
}

// readBack reads a pet the suite created through getPet, within the settle
// window. It fails the spec on create.read-back unless getPet finds it,
// unchanged.
func (h *harness) readBack(ctx context.Context, created pet) {
	GinkgoHelper()
	var x *exchange
	h.settle(ctx, func() bool {
		x = h.getPet(ctx, created.id())
		return x.status != http.StatusNotFound
	})
	x.require(x.status == http.StatusOK, ruleReadBack, fmt.Sprintf("getPet of the pet just created (id %s): status %d, want 200 (read again for %v)", created.ID, x.status, h.cfg.settle()))
	same, diff := x.pet().same(created)
	x.require(same, ruleReadBack, "the pet read back differs from the one created: "+diff)
}

// checkListed checks that a pet the suite created shows, within the settle
// window, in listPets filtered by its status, unchanged. It skips the spec
// if the pages the suite can follow end before all pets of that status
// were seen.
func (h *harness) checkListed(ctx context.Context, created pet) {
	GinkgoHelper()
	status := created.status()
	var (
		found bool
		end   walkEnd
		last  *exchange
		why   string
	)
	h.settle(ctx, func() bool {
		first := h.listPets(ctx, "status="+url.QueryEscape(status)+"&limit="+strconv.Itoa(h.contract.limitMax))
		end, last, why = h.walk(ctx, first, ruleListed, func(x *exchange, page []pet) bool {
			for _, p := range page {
				if p.id() == created.id() {
					same, diff := p.same(created)
					x.require(same, ruleListed, "the listed pet differs from the one created: "+diff)
					found = true
					return false
				}
			}
			return true
		})
		// A walk that was cut will not tell more next time.
		return found || end == walkCut
	})
	switch {
	case found:
	case end == walkComplete:
		last.require(false, ruleListed, fmt.Sprintf("the pet just created, %s, is not in the list of status %s (listed again for %v)", created, status, h.cfg.settle()))
	default:
		Skip(fmt.Sprintf("cannot tell whether the pet created is listed: it is not on the pages seen, and %s", why))
	}
}
