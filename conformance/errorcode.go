package conformance

import (
	"context"
	"fmt"
	"slices"
	"strconv"
)

// refusedRequest is a request that petmock refuses, with one of the
// Error codes its document lists.
type refusedRequest struct {
	name     string
	send     func(ctx context.Context, h *harness) (*exchange, error)
	mutating bool
}

// refusedRequests are the requests the check of error codes sends.
var refusedRequests = []refusedRequest{
	{"401 of listPets", func(ctx context.Context, h *harness) (*exchange, error) {
		return h.listPets(ctx, "", withAuth(""))
	}, false},
	{"400 of listPets", func(ctx context.Context, h *harness) (*exchange, error) {
		return h.listPets(ctx, "limit="+strconv.Itoa(h.contract.limitMax+1))
	}, false},
	{"404 of getPet", func(ctx context.Context, h *harness) (*exchange, error) {
		if err := h.beforeSunset(); err != nil {
			return nil, err
		}
		return h.getPet(ctx, h.absentID())
	}, false},
	{"400 of createPet", func(ctx context.Context, h *harness) (*exchange, error) {
		return h.createPet(ctx, `{"categoryId":1}`)
	}, true},
}

// checkStrictErrorCode sends a request petmock refuses: the Error's code
// must be one the document lists.
func (h *harness) checkStrictErrorCode(ctx context.Context, send func(context.Context, *harness) (*exchange, error)) error {
	x, err := send(ctx, h)
	if err != nil {
		return err
	}
	if err := x.require(x.status >= 400, ruleStrictCode, fmt.Sprintf("status %d: this request should be refused", x.status)); err != nil {
		return err
	}
	code, err := x.errorCode()
	if err != nil {
		return err
	}
	return x.require(slices.Contains(h.contract.errorCodes, code), ruleStrictCode, fmt.Sprintf("code %q is not one of %v", code, h.contract.errorCodes))
}
