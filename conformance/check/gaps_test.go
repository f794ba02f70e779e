package check

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	ct "github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

// TestGapsBreakStrictRules: a server whose gap decisions differ from
// petmock's breaks the strict rule of each, in-process; the command's
// tests show that it passes a run that is not strict.
func TestGapsBreakStrictRules(t *testing.T) {
	t.Parallel()
	listed, refused := DeprecatedAnswers[0].Get, RefusedRequests[0].Send
	gaps := func(tb testing.TB) http.Handler { return ct.GapsFilledDifferently(ct.Petmock(tb)) }
	for _, tc := range []struct {
		name   string
		server func(tb testing.TB) http.Handler
		check  check
		rule   string
	}{
		{"a clamped limit", gaps, func(h *Harness, ctx context.Context) error { return h.CheckStrictBadLimit(ctx, "limit=0") }, "strict.limit"},
		{"an empty list for an unknown status", gaps, func(h *Harness, ctx context.Context) error { return h.CheckStrictUnknownStatus(ctx, "lost") }, "strict.status"},
		{"no deprecation headers", gaps, func(h *Harness, ctx context.Context) error { return h.CheckStrictDeprecation(ctx, listed) }, "strict.deprecation"},
		{"no pagination links", gaps, func(h *Harness, ctx context.Context) error { return h.CheckStrictPages(ctx, "") }, "strict.pagination"},
		{"pending by default", gaps, (*Harness).CheckStrictDefaultStatus, "strict.default-status"},
		{"error codes of its own", gaps, func(h *Harness, ctx context.Context) error { return h.CheckStrictErrorCode(ctx, refused) }, "strict.error-code"},
		{"no challenge", gaps, (*Harness).CheckChallenge, "strict.challenge"},
		{"no Location", gaps, (*Harness).CheckStrictLocation, "strict.location"},
		{"categories of its own, others refused", func(testing.TB) http.Handler {
			return ct.NewAltServer(ct.AltConfig{Categories: []int64{100, 101, 102, 103, 104}})
		}, func(h *Harness, ctx context.Context) error { return h.CheckStrictCategory(ctx, 0) }, "strict.category"},
		{"later pages through links to another path", func(testing.TB) http.Handler {
			return ct.NewAltServer(ct.AltConfig{Pets: 360, Paging: "/v1/pages/pets"})
		}, func(h *Harness, ctx context.Context) error { return h.CheckStrictPages(ctx, "") }, "strict.pagination"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := judgeOver(t, tc.server(t), Settings{Strict: true})
			wantBroken(t, tc.name, tc.check(h, checkContext(t)), tc.rule)
		})
	}
}

// TestChoiceHeaderJudgedOnce: a Deprecation header that is not an RFC
// 9745 date breaks the interface's deprecation rule. By default the
// document's header schemas that are petmock's choices do not apply, so
// the client lets the answer through for that rule to judge; a strict
// client holds the answer to them as well.
func TestChoiceHeaderJudgedOnce(t *testing.T) {
	t.Parallel()
	server := ct.RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
		if ct.IsGetPet(r) {
			rec.Header().Set("Deprecation", "true")
		}
	})(t, ct.Petmock(t))
	ctx := checkContext(t)
	listed := DeprecatedAnswers[0].Get

	h := judgeOver(t, server, Settings{})
	wantBroken(t, "the Deprecation check", h.CheckDeprecation(ctx, listed), "deprecation.deprecation")
	for name, c := range map[string]check{
		"getPet of a listed pet": (*Harness).CheckGetListed,
		"the Sunset check":       func(h *Harness, ctx context.Context) error { return h.CheckSunset(ctx, listed) },
	} {
		if err := c(h, ctx); err != nil {
			t.Errorf("%s: %v, want a pass: the header is judged by deprecation.deprecation alone", name, err)
		}
	}

	strict := judgeOver(t, server, Settings{Strict: true})
	wantBroken(t, "getPet of a listed pet, strict", strict.CheckGetListed(ctx), "contract.response")
}

// TestNextLinkElsewhereGetsNoKey: a deployment whose next links lead to
// another origin passes by default: the check that needs a later page
// says why it cannot go on, and the other origin gets no request, so never
// the key. Strict, such a link breaks petmock's pagination rule.
func TestNextLinkElsewhereGetsNoKey(t *testing.T) {
	t.Parallel()
	var requests atomic.Int64
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("[]"))
	}))
	defer elsewhere.Close()
	server := ct.NewAltServer(ct.AltConfig{Pets: 360, Paging: elsewhere.URL + "/v1/pets"})
	ctx := checkContext(t)

	h := judgeOver(t, server, Settings{})
	wantSkipped(t, "a created pet listed", h.CheckCreatedListed(ctx, "available"),
		"cannot tell whether the pet created is listed", "the next link leads to another origin, "+elsewhere.URL+"/v1/pets?")
	strict := judgeOver(t, server, Settings{Strict: true})
	wantBroken(t, "pages, strict", strict.CheckStrictPages(ctx, ""), "strict.pagination")
	if n := requests.Load(); n > 0 {
		t.Errorf("the other origin got %d requests, want none", n)
	}
}

// TestNextLinkToAnotherPath: a next link to another path of the
// deployment is followed, with the key, since that origin has it. What it
// leads to is not shown by the interface, so an answer that is not one of
// listPets skips the check that needed it; strict, the link breaks
// petmock's pagination rule.
func TestNextLinkToAnotherPath(t *testing.T) {
	t.Parallel()
	server := ct.NewAltServer(ct.AltConfig{Pets: 360, Paging: "/v1/pages/gone", PagingGone: true})
	ctx := checkContext(t)

	h := judgeOver(t, server, Settings{})
	origin := strings.TrimSuffix(h.Base().String(), "/v1")
	wantSkipped(t, "a created pet listed", h.CheckCreatedListed(ctx, "pending"),
		"a next link led to "+origin+"/v1/pages/gone?limit=100&offset=100&status=pending", "whose answer is not one of listPets")
	strict := judgeOver(t, server, Settings{Strict: true})
	wantBroken(t, "pages, strict", strict.CheckStrictPages(ctx, ""), "strict.pagination")
}

// TestSettle: a created pet may take Settings.Settle to show; a negative
// Settle reads once, and a deployment that shows writes late then breaks
// the read-after-create rules.
func TestSettle(t *testing.T) {
	t.Parallel()
	server := ct.NewAltServer(ct.AltConfig{Lag: 300 * time.Millisecond})
	ctx := checkContext(t)

	once := judgeOver(t, server, Settings{Settle: -1})
	wantBroken(t, "read back at once", once.CheckCreatedReadBack(ctx, "sold"), "create.read-back")
	wantBroken(t, "listed at once", once.CheckCreatedListed(ctx, "sold"), "create.listed")

	settled := judgeOver(t, server, Settings{Settle: 3 * time.Second})
	for name, c := range map[string]check{
		"read back within the window": func(h *Harness, ctx context.Context) error { return h.CheckCreatedReadBack(ctx, "sold") },
		"listed within the window":    func(h *Harness, ctx context.Context) error { return h.CheckCreatedListed(ctx, "sold") },
	} {
		if err := c(settled, ctx); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestPagesOfCorrectServers: a walk through pages passes a deployment
// that pages otherwise than petmock: by offset, in pages of 360 pets, with
// another client removing pets meanwhile, or a moment late to show what
// was created; one that links no page to the next skips the walk, saying
// why.
func TestPagesOfCorrectServers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		server func(tb testing.TB) http.Handler
		skips  bool
	}{
		{"petmock's cursors", ct.Petmock, false},
		{"offsets", func(testing.TB) http.Handler { return ct.NewAltServer(ct.AltConfig{Paging: "/v1/pets"}) }, false},
		{"offsets over 360 pets", func(testing.TB) http.Handler { return ct.NewAltServer(ct.AltConfig{Pets: 360, Paging: "/v1/pets"}) }, false},
		{"offsets while another client removes pets now and then", func(testing.TB) http.Handler {
			return ct.NewAltServer(ct.AltConfig{Paging: "/v1/pets", Thinning: 12})
		}, false},
		{"offsets, created pets shown 300ms late", func(testing.TB) http.Handler {
			return ct.NewAltServer(ct.AltConfig{Paging: "/v1/pets", Lag: 300 * time.Millisecond})
		}, false},
		{"no links", func(tb testing.TB) http.Handler { return ct.GapsFilledDifferently(ct.Petmock(tb)) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := judgeOver(t, tc.server(t), Settings{Settle: 3 * time.Second})
			ctx := checkContext(t)
			res := h.contract.Resource("pets")
			status, _ := res.Filter("status")
			for _, f := range []*spec.Filter{nil, &status} {
				for _, create := range []bool{true, false} {
					err := h.CheckPages(ctx, res, f, create)
					what := fmt.Sprintf("filter %v, create %v", f != nil, create)
					switch {
					case tc.skips:
						wantSkipped(t, what, err, "carries no rel=\"next\" link")
					case err != nil:
						t.Errorf("%s: %v", what, err)
					}
				}
			}
		})
	}
	// Another client that removes a pet during every walk leaves nothing
	// to judge: the walk says so, and breaks no rule.
	h := judgeOver(t, ct.NewAltServer(ct.AltConfig{Paging: "/v1/pets", Thinning: 3}), Settings{})
	wantSkipped(t, "a list that changes during every walk", h.CheckPages(checkContext(t), h.contract.Resource("pets"), nil, true), "changed during every walk of its pages")
}

// TestResourcesOfCorrectServers: the checks of what a deployment keeps,
// where it says an item is, and how it reads across views pass servers
// that fill the interface's gaps otherwise: defaults of their own on a
// replace, a Location on a public host, writes shown a moment late, a
// deprecation date of their own, and another client changing pets
// between a list and a read.
func TestResourcesOfCorrectServers(t *testing.T) {
	t.Parallel()
	orders := ct.Testdata(t, ct.EvolvedOps)
	publicLocation := ct.RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
		if loc := rec.Header().Get("Location"); loc != "" {
			rec.Header().Set("Location", "https://public.petstore.invalid/api"+loc[strings.Index(loc, "/v1/"):])
		}
	})
	for _, tc := range []struct {
		name   string
		server func(tb testing.TB) http.Handler
		doc    string
		check  check
	}{
		{"orders replaced with defaults of its own", func(tb testing.TB) http.Handler {
			return ct.RewriteRequest(ct.DefaultsOnReplace(map[string]any{"status": "approved", "complete": true, "shipDate": "2031-01-01T00:00:00Z"}))(tb, ct.PetmockOf(tb, orders))
		}, orders, func(h *Harness, ctx context.Context) error {
			return h.CheckItemReplaced(ctx, h.contract.Resource("orders"))
		}},
		{"an order's Location on a public host", func(tb testing.TB) http.Handler { return publicLocation(tb, ct.PetmockOf(tb, orders)) }, orders,
			func(h *Harness, ctx context.Context) error {
				return h.CheckItemCreated(ctx, h.contract.Resource("orders"))
			}},
		{"a pet's Location on a public host", func(tb testing.TB) http.Handler { return publicLocation(tb, ct.Petmock(tb)) }, "",
			func(h *Harness, ctx context.Context) error { return h.CheckCreate(ctx, "sold") }},
		{"an order shown a moment late, then cancelled", func(tb testing.TB) http.Handler { return ct.Lagging(ct.PetmockOf(tb, orders), 300*time.Millisecond) }, orders,
			func(h *Harness, ctx context.Context) error {
				return h.CheckItemDeleted(ctx, h.contract.Resource("orders"))
			}},
		{"pets kept, shown a moment late", func(testing.TB) http.Handler { return ct.NewAltServer(ct.AltConfig{Lag: 300 * time.Millisecond}) }, "",
			func(h *Harness, ctx context.Context) error {
				if err := h.CheckCreate(ctx, "pending"); err != nil {
					return err
				}
				return h.CheckKept(ctx)
			}},
		{"a deprecation date of its own", func(testing.TB) http.Handler { return ct.NewAltServer(ct.AltConfig{Deprecation: true}) }, "",
			func(h *Harness, ctx context.Context) error {
				if err := h.CheckDeprecation(ctx, DeprecatedAnswers[0].Get); err != nil {
					return err
				}
				return h.CheckValidRequest(ctx, h.contract.Operation(spec.GetPet))
			}},
		{"pets changed between a list and a read", func(testing.TB) http.Handler { return ct.NewAltServer(ct.AltConfig{Churn: true}) }, "",
			func(h *Harness, ctx context.Context) error {
				res := h.contract.Resource("pets")
				status, _ := res.Filter("status")
				for _, f := range []*spec.Filter{nil, &status, nil, &status} {
					err := h.CheckListedReadsSame(ctx, res, f)
					// A filtered list loses each pet the other client
					// changes as it is read: the check may find every
					// pet it tries gone, and says so.
					var skipped *judge.Skipped
					if f != nil && errors.As(err, &skipped) && strings.Contains(skipped.Reason, "other clients are changing them") {
						continue
					}
					if err != nil {
						return err
					}
				}
				return nil
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := Settings{Settle: 3 * time.Second}
			if tc.doc != "" {
				cfg.Contract = readFile(t, tc.doc)
			}
			if err := tc.check(judgeOver(t, tc.server(t), cfg), checkContext(t)); err != nil {
				t.Errorf("%v, want a pass", err)
			}
		})
	}
}
