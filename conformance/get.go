package conformance

import (
	"context"
	"fmt"
	"github.com/petstore/contract/conformance/judge"
	"net/http"
)

// The checks of getPet that need no pet of their own.

// checkGetListed reads a listed pet: getPet must answer 200 with it,
// unchanged, before its sunset.
func (h *harness) checkGetListed(ctx context.Context) error {
	_, err := h.readListed(ctx)
	return err
}

// checkNotFound reads an id no pet has: getPet must answer 404, with an
// Error body the client has checked.
func (h *harness) checkNotFound(ctx context.Context) error {
	id := h.absentID()
	x, err := h.getPet(ctx, id)
	if err != nil {
		return err
	}
	return x.Require(x.Status == http.StatusNotFound, judge.RuleNotFound, fmt.Sprintf("id %d: status %d, want 404", id, x.Status))
}
