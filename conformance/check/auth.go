package check

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/petstore/contract/conformance/judge"
)

// The checks of authentication: each operation, sent with each kind of
// bad credential, gets 401 and an Error body.

// authOperation is an operation of the Petstore sent by the checks of
// authentication, with the Authorization header that auth sets.
type authOperation struct {
	Name     string
	Send     func(ctx context.Context, h *Harness, auth judge.Option) (*judge.Exchange, error)
	Mutating bool
}

// AuthOperations are the operations the checks of authentication send.
var AuthOperations = []authOperation{
	{"listPets", func(ctx context.Context, h *Harness, auth judge.Option) (*judge.Exchange, error) {
		return h.listPets(ctx, "", auth)
	}, false},
	{"createPet", func(ctx context.Context, h *Harness, auth judge.Option) (*judge.Exchange, error) {
		category, err := h.category(ctx)
		if err != nil {
			return nil, err
		}
		return h.createPet(ctx, newPetBody(h.PetName(), category, ""), auth)
	}, true},
	{"getPet", func(ctx context.Context, h *Harness, auth judge.Option) (*judge.Exchange, error) {
		if err := h.BeforeSunset(); err != nil {
			return nil, err
		}
		return h.getPet(ctx, h.absentID(), auth)
	}, false},
}

// badCredential is an Authorization header no deployment may accept.
type badCredential struct {
	Name   string
	Header func(h *Harness) string
}

// BadCredentials are the credentials the checks of authentication send.
var BadCredentials = []badCredential{
	{"no Authorization header", func(*Harness) string { return "" }},
	{"an invalid key", func(h *Harness) string { return "Bearer " + h.InvalidKey() }},
	{"the key under the Basic scheme", func(*Harness) string { return "Basic " + judge.KeyVar }},
	{"the bare key without a scheme", func(*Harness) string { return judge.KeyVar }},
}

// CheckUnauthorized sends an operation with a bad credential: it must get
// 401, with an Error body the client has checked.
func (h *Harness) CheckUnauthorized(ctx context.Context, send func(context.Context, *Harness, judge.Option) (*judge.Exchange, error), header func(*Harness) string) error {
	value := header(h)
	x, err := send(ctx, h, judge.WithAuth(value))
	if err != nil {
		return err
	}
	return x.Require(x.Status == http.StatusUnauthorized, judge.RuleAuth, fmt.Sprintf("sent Authorization %q; status %d, want 401", value, x.Status))
}

// CheckChallenge sends listPets without a key: the 401 must carry a
// challenge of the Bearer scheme, as petmock's does.
func (h *Harness) CheckChallenge(ctx context.Context) error {
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
