package conformance

import (
	"context"
	"fmt"
	"github.com/petstore/contract/conformance/judge"
	"net/http"
	"strings"
)

// The checks of authentication: each operation, sent with each kind of
// bad credential, gets 401 and an Error body.

// authOperation is an operation of the Petstore sent by the checks of
// authentication, with the Authorization header that auth sets.
type authOperation struct {
	name     string
	send     func(ctx context.Context, h *harness, auth judge.Option) (*judge.Exchange, error)
	mutating bool
}

// authOperations are the operations the checks of authentication send.
var authOperations = []authOperation{
	{"listPets", func(ctx context.Context, h *harness, auth judge.Option) (*judge.Exchange, error) {
		return h.listPets(ctx, "", auth)
	}, false},
	{"createPet", func(ctx context.Context, h *harness, auth judge.Option) (*judge.Exchange, error) {
		category, err := h.category(ctx)
		if err != nil {
			return nil, err
		}
		return h.createPet(ctx, newPetBody(h.PetName(), category, ""), auth)
	}, true},
	{"getPet", func(ctx context.Context, h *harness, auth judge.Option) (*judge.Exchange, error) {
		if err := h.beforeSunset(); err != nil {
			return nil, err
		}
		return h.getPet(ctx, h.absentID(), auth)
	}, false},
}

// badCredential is an Authorization header no deployment may accept.
type badCredential struct {
	name   string
	header func(h *harness) string
}

// badCredentials are the credentials the checks of authentication send.
var badCredentials = []badCredential{
	{"no Authorization header", func(*harness) string { return "" }},
	{"an invalid key", func(h *harness) string { return "Bearer " + h.invalidKey() }},
	{"the key under the Basic scheme", func(*harness) string { return "Basic " + judge.KeyVar }},
	{"the bare key without a scheme", func(*harness) string { return judge.KeyVar }},
}

// checkUnauthorized sends an operation with a bad credential: it must get
// 401, with an Error body the client has checked.
func (h *harness) checkUnauthorized(ctx context.Context, send func(context.Context, *harness, judge.Option) (*judge.Exchange, error), header func(*harness) string) error {
	value := header(h)
	x, err := send(ctx, h, judge.WithAuth(value))
	if err != nil {
		return err
	}
	return x.Require(x.Status == http.StatusUnauthorized, judge.RuleAuth, fmt.Sprintf("sent Authorization %q; status %d, want 401", value, x.Status))
}

// checkChallenge sends listPets without a key: the 401 must carry a
// challenge of the Bearer scheme, as petmock's does.
func (h *harness) checkChallenge(ctx context.Context) error {
	x, err := h.listPets(ctx, "", judge.WithAuth(""))
	if err != nil {
		return err
	}
	if err := x.Require(x.Status == http.StatusUnauthorized, judge.RuleAuth, fmt.Sprintf("sent no Authorization header; status %d, want 401", x.Status)); err != nil {
		return err
	}
	challenge := x.Header.Get("WWW-Authenticate")
	scheme, _, _ := strings.Cut(challenge, " ")
	return x.Require(strings.EqualFold(scheme, "Bearer"), judge.RuleStrictChallenge, fmt.Sprintf("WWW-Authenticate is %q", challenge))
}
