package conformance

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
)

// describeAuth declares the authentication specs: each operation, sent
// with each kind of bad credential, gets 401 and an Error body.
func (s *suite) describeAuth() {
	Describe("authentication", Label("auth"), func() {
		type operation struct {
			name     string
			send     func(ctx context.Context, h *harness, auth option) *exchange
			mutating bool
		}
		operations := []operation{
			{"listPets", func(ctx context.Context, h *harness, auth option) *exchange {
				return h.listPets(ctx, "", auth)
			}, false},
			{"createPet", func(ctx context.Context, h *harness, auth option) *exchange {
				return h.createPet(ctx, newPetBody(h.petName(), h.category(ctx), ""), auth)
			}, true},
			{"getPet", func(ctx context.Context, h *harness, auth option) *exchange {
				h.skipPastSunset()
				return h.getPet(ctx, h.absentID(), auth)
			}, false},
		}
		credentials := []struct {
			name   string
			header func(h *harness) string
		}{
			{"no Authorization header", func(*harness) string { return "" }},
			{"an invalid key", func(h *harness) string { return "Bearer " + h.invalidKey() }},
			{"the key under the Basic scheme", func(*harness) string { return "Basic " + keyVar }},
			{"the bare key without a scheme", func(*harness) string { return keyVar }},
		}
		var entries []TableEntry
		for _, op := range operations {
			if op.mutating && !s.runs(LabelMutating) {
				continue
			}
			for _, c := range credentials {
				args := []any{op.send, c.header}
				if op.mutating {
					args = append(args, Label(LabelMutating))
				}
				entries = append(entries, Entry(fmt.Sprintf("%s with %s", op.name, c.name), args...))
			}
		}
		DescribeTable("answers 401 with an Error body",
			func(ctx SpecContext, send func(context.Context, *harness, option) *exchange, header func(*harness) string) {
				h := s.h
				value := header(h)
				x := send(ctx, h, withAuth(value))
				x.require(x.status == http.StatusUnauthorized, ruleAuth, fmt.Sprintf("sent Authorization %q; status %d, want 401", value, x.status))
			},
			entries,
		)

		if !s.runs(LabelStrict) {
			return
		}
		It("strict: a 401 carries a Bearer challenge", Label(LabelStrict), func(ctx SpecContext) {
			x := s.h.listPets(ctx, "", withAuth(""))
			x.require(x.status == http.StatusUnauthorized, ruleAuth, fmt.Sprintf("sent no Authorization header; status %d, want 401", x.status))
			challenge := x.header.Get("WWW-Authenticate")
			scheme, _, _ := strings.Cut(challenge, " ")
			x.require(strings.EqualFold(scheme, "Bearer"), ruleStrictChallenge, fmt.Sprintf("WWW-Authenticate is %q", challenge))
		})
	})
}
