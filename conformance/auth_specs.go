package conformance

import (
	"context"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	"github.com/petstore/contract/conformance/judge"
)

// describeAuth declares the authentication specs: each operation, sent
// with each kind of bad credential, gets 401 and an Error body.
func (s *suite) describeAuth() {
	Describe("authentication", Label("auth"), func() {
		var entries []TableEntry
		for _, op := range authOperations {
			if op.mutating && !s.runs(LabelMutating) {
				continue
			}
			for _, c := range badCredentials {
				args := []any{op.send, c.header}
				if op.mutating {
					args = append(args, Label(LabelMutating))
				}
				entries = append(entries, Entry(fmt.Sprintf("%s with %s", op.name, c.name), args...))
			}
		}
		DescribeTable("answers 401 with an Error body",
			func(ctx SpecContext, send func(context.Context, *harness, judge.Option) (*judge.Exchange, error), header func(*harness) string) {
				verdict(s.h.checkUnauthorized(ctx, send, header))
			},
			entries,
		)

		if !s.runs(LabelStrict) {
			return
		}
		It("strict: a 401 carries a Bearer challenge", Label(LabelStrict), func(ctx SpecContext) {
			verdict(s.h.checkChallenge(ctx))
		})
	})
}
