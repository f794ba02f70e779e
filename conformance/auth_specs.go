package conformance

import (
	"context"
	"fmt"

	. "github.com/onsi/ginkgo/v2"

	"github.com/petstore/contract/conformance/check"
	"github.com/petstore/contract/conformance/judge"
)

// describeAuth declares the authentication specs: each operation, sent
// with each kind of bad credential, gets 401 and an Error body.
func (s *suite) describeAuth() {
	Describe("authentication", Label("auth"), func() {
		var entries []TableEntry
		for _, op := range check.AuthOperations {
			if op.Mutating && !s.runs(LabelMutating) {
				continue
			}
			for _, c := range check.BadCredentials {
				args := []any{op.Send, c.Header}
				if op.Mutating {
					args = append(args, Label(LabelMutating))
				}
				entries = append(entries, Entry(fmt.Sprintf("%s with %s", op.Name, c.Name), args...))
			}
		}
		DescribeTable("answers 401 with an Error body",
			func(ctx SpecContext, send func(context.Context, *check.Harness, judge.Option) (*judge.Exchange, error), header func(*check.Harness) string) {
				verdict(s.h.CheckUnauthorized(ctx, send, header))
			},
			entries,
		)

		if !s.runs(LabelStrict) {
			return
		}
		It("strict: a 401 carries a Bearer challenge", Label(LabelStrict), func(ctx SpecContext) {
			verdict(s.h.CheckChallenge(ctx))
		})
	})
}
