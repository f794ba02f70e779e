package conformance

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	. "github.com/onsi/ginkgo/v2"
)

// describeErrorCodes declares petmock's set of Error codes.
func (s *suite) describeErrorCodes() {
	if !s.runs(LabelStrict) {
		return
	}
	entries := []TableEntry{
		Entry("401 of listPets", func(ctx context.Context, h *harness) *exchange {
			return h.listPets(ctx, "", withAuth(""))
		}),
		Entry("400 of listPets", func(ctx context.Context, h *harness) *exchange {
			return h.listPets(ctx, "limit="+strconv.Itoa(h.contract.limitMax+1))
		}),
		Entry("404 of getPet", func(ctx context.Context, h *harness) *exchange {
			h.skipPastSunset()
			return h.getPet(ctx, h.absentID())
		}),
	}
	if s.runs(LabelMutating) {
		entries = append(entries, Entry("400 of createPet", Label(LabelMutating), func(ctx context.Context, h *harness) *exchange {
			return h.createPet(ctx, `{"categoryId":1}`)
		}))
	}
	Describe("error codes", Label("errors", LabelStrict), func() {
		DescribeTable("strict: uses the codes the document lists",
			func(ctx SpecContext, send func(context.Context, *harness) *exchange) {
				h := s.h
				x := send(ctx, h)
				x.require(x.status >= 400, ruleStrictCode, fmt.Sprintf("status %d: this request should be refused", x.status))
				code := x.errorCode()
				x.require(slices.Contains(h.contract.errorCodes, code), ruleStrictCode, fmt.Sprintf("code %q is not one of %v", code, h.contract.errorCodes))
			},
			entries,
		)
	})
}
