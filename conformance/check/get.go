package check

import (
	"context"
	"fmt"
	"net/http"

	"github.com/petstore/contract/conformance/judge"
)

// The checks of getPet that need no pet of their own.

// CheckGetListed reads a listed pet: getPet must answer 200 with it,
// unchanged, before its sunset.
func (h *Harness) CheckGetListed(ctx context.Context) error {
	_, err := h.readListed(ctx)
	return err
}

// CheckNotFound reads an id no pet has: getPet must answer 404, with an
// Error body the client has checked.
func (h *Harness) CheckNotFound(ctx context.Context) error {
	id := h.absentID()
	x, err := h.getPet(ctx, id)
	if err != nil {
		return err
	}
	return x.Require(x.Status == http.StatusNotFound, judge.RuleNotFound, fmt.Sprintf("id %d: status %d, want 404", id, x.Status))
}
