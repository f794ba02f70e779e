package check

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/petstore/contract/conformance/judge"
)

// refusedRequest is a request that petmock refuses, with one of the
// Error codes its document lists.
type refusedRequest struct {
	Name     string
	Send     func(ctx context.Context, h *Harness) (*judge.Exchange, error)
	Mutating bool
}

// RefusedRequests are the requests the check of error codes sends.
var RefusedRequests = []refusedRequest{
	{"401 of listPets", func(ctx context.Context, h *Harness) (*judge.Exchange, error) {
		return h.listPets(ctx, "", judge.WithAuth(""))
	}, false},
	{"400 of listPets", func(ctx context.Context, h *Harness) (*judge.Exchange, error) {
		return h.listPets(ctx, "limit="+strconv.Itoa(h.contract.LimitMax+1))
	}, false},
	{"404 of getPet", func(ctx context.Context, h *Harness) (*judge.Exchange, error) {
		if err := h.BeforeSunset(); err != nil {
			return nil, err
		}
		return h.getPet(ctx, h.absentID())
	}, false},
	{"400 of createPet", func(ctx context.Context, h *Harness) (*judge.Exchange, error) {
		return h.createPet(ctx, `{"categoryId":1}`)
	}, true},
}

// CheckStrictErrorCode sends a request petmock refuses: the Error's code
// must be one the document lists.
func (h *Harness) CheckStrictErrorCode(ctx context.Context, send func(context.Context, *Harness) (*judge.Exchange, error)) error {
	x, err := send(ctx, h)
	if err != nil {
		return err
	}
	if err := x.Require(x.Status >= 400, judge.RuleStrictCode, fmt.Sprintf("status %d: this request should be refused", x.Status)); err != nil {
		return err
	}
	code, err := x.ErrorCode()
	if err != nil {
		return err
	}
	return x.Require(slices.Contains(h.contract.errorCodes, code), judge.RuleStrictCode, fmt.Sprintf("code %q is not one of %v", code, h.contract.errorCodes))
}
