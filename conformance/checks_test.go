package conformance

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/petstore/contract/conformance/conformancetest"
	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/conformance/request"
	"github.com/petstore/contract/spec"
)

// check is a check of the suite, called in-process as a spec calls it. The
// harness comes first, as in a method expression such as
// (*harness).checkNotFound.
type check func(h *harness, ctx context.Context) error

// namedCheck is a check, named as the spec that makes it reads.
type namedCheck struct {
	name             string
	strict, mutating bool
	run              check
}

// allChecks lists the checks a run of c with key makes, from the same tables the
// specs are declared from: the Petstore's, then the generic ones of every
// operation and resource.
func allChecks(c contract, key string) []namedCheck {
	var out []namedCheck
	if c.petstore {
		out = petstoreChecks(c)
	}
	return append(out, genericChecks(c, key)...)
}

// petstoreChecks lists the checks of the Petstore's rules a run of c
// makes.
func petstoreChecks(c contract) []namedCheck {
	var out []namedCheck
	add := func(name string, strict, mutating bool, run check) {
		out = append(out, namedCheck{name, strict, mutating, run})
	}
	for _, op := range authOperations {
		for _, cr := range badCredentials {
			add("authentication "+op.name+" with "+cr.name, false, op.mutating, func(h *harness, ctx context.Context) error {
				return h.checkUnauthorized(ctx, op.send, cr.header)
			})
		}
	}
	add("a 401 carries a Bearer challenge", true, false, (*harness).checkChallenge)

	add("listPets without limit", false, false, (*harness).checkLimitDefault)
	for _, lc := range limitChoices(c) {
		add("listPets honours "+lc.name, false, false, func(h *harness, ctx context.Context) error { return h.checkLimit(ctx, lc.choose) })
	}
	add("listPets returns a full page", false, false, (*harness).checkFullPage)
	for _, b := range badLimits(c) {
		add("listPets "+b.name, false, false, func(h *harness, ctx context.Context) error { return h.checkBadLimit(ctx, b.query) })
		add("listPets strict "+b.name, true, false, func(h *harness, ctx context.Context) error { return h.checkStrictBadLimit(ctx, b.query) })
	}
	for _, st := range c.statuses {
		add("listPets status="+st, false, false, func(h *harness, ctx context.Context) error { return h.checkStatusFilter(ctx, st) })
		add("listPets status="+st+" when shown", false, false, func(h *harness, ctx context.Context) error { return h.checkStatusFound(ctx, st) })
	}
	for _, v := range statusesOutside(c, "lost", "adopted") {
		add("listPets status="+v, false, false, func(h *harness, ctx context.Context) error { return h.checkUnknownStatus(ctx, v) })
	}
	for _, v := range statusesOutside(c, "lost", "", "AVAILABLE") {
		add("listPets strict status="+v, true, false, func(h *harness, ctx context.Context) error { return h.checkStrictUnknownStatus(ctx, v) })
	}
	add("listPets gives each pet one id", false, false, (*harness).checkOneIDPerPet)

	for _, st := range append(slices.Clone(c.statuses), "") {
		add("createPet echoes status "+st, false, true, func(h *harness, ctx context.Context) error { return h.checkCreate(ctx, st) })
	}
	for _, e := range extremeCategories {
		add("createPet "+e.name, false, true, func(h *harness, ctx context.Context) error { return h.checkExtremeCategory(ctx, e.id) })
		add("createPet strict "+e.name, true, true, func(h *harness, ctx context.Context) error { return h.checkStrictCategory(ctx, e.id) })
	}
	add("createPet gives new ids", false, true, (*harness).checkNewIDs)
	for _, st := range c.statuses {
		add("createPet "+st+" reads back", false, true, func(h *harness, ctx context.Context) error { return h.checkCreatedReadBack(ctx, st) })
		add("createPet "+st+" is listed", false, true, func(h *harness, ctx context.Context) error { return h.checkCreatedListed(ctx, st) })
	}
	for _, in := range invalidBodies {
		add("createPet "+in.name, false, true, func(h *harness, ctx context.Context) error { return h.checkInvalidBody(ctx, in.body) })
	}
	add("createPet strict default status", true, true, (*harness).checkStrictDefaultStatus)
	add("createPet strict Location", true, true, (*harness).checkStrictLocation)

	add("getPet of a listed pet", false, false, func(h *harness, ctx context.Context) error {
		if err := h.beforeSunset(); err != nil {
			return err
		}
		return h.checkGetListed(ctx)
	})
	add("getPet of no pet", false, false, (*harness).checkNotFound)
	for _, a := range deprecatedAnswers {
		add("Sunset "+a.name, false, false, func(h *harness, ctx context.Context) error { return h.checkSunset(ctx, a.get) })
		add("Deprecation "+a.name, false, false, func(h *harness, ctx context.Context) error { return h.checkDeprecation(ctx, a.get) })
		add("strict deprecation "+a.name, true, false, func(h *harness, ctx context.Context) error { return h.checkStrictDeprecation(ctx, a.get) })
	}
	for _, st := range append([]string{""}, c.statuses...) {
		add("strict pages of status="+st, true, false, func(h *harness, ctx context.Context) error { return h.checkStrictPages(ctx, st) })
	}
	for _, r := range refusedRequests {
		add("strict error code of "+r.name, true, r.mutating, func(h *harness, ctx context.Context) error { return h.checkStrictErrorCode(ctx, r.send) })
	}
	return out
}

// genericChecks lists the checks of the generic rules a run of c with key
// makes, for every operation and resource of the document.
func genericChecks(c contract, key string) []namedCheck {
	var out []namedCheck
	add := func(name string, strict, mutating bool, run check) {
		out = append(out, namedCheck{name, strict, mutating, run})
	}
	for _, op := range c.Operations {
		served := func(run check) check {
			return func(h *harness, ctx context.Context) error {
				if err := h.served(op); err != nil {
					return err
				}
				return run(h, ctx)
			}
		}
		add("operation "+op.ID+" answers", false, request.Mutating(op), served(func(h *harness, ctx context.Context) error { return h.checkValidRequest(ctx, op) }))
		switch {
		case request.RequiresKey(op):
			add("operation "+op.ID+" without a key", false, request.Mutating(op), served(func(h *harness, ctx context.Context) error { return h.checkRefused(ctx, op, "") }))
			add("operation "+op.ID+" with a wrong key", false, request.Mutating(op), served(func(h *harness, ctx context.Context) error { return h.checkRefused(ctx, op, h.invalidKey()) }))
		case request.KeyOptional(op):
			add("operation "+op.ID+" without a key, which is optional", false, request.Mutating(op), served(func(h *harness, ctx context.Context) error { return h.checkWithoutKey(ctx, op) }))
		}
		for _, ir := range request.InvalidRequests(c.Contract, op) {
			add("operation "+op.ID+" with "+ir.Name, false, request.Mutating(op), served(func(h *harness, ctx context.Context) error { return h.checkInvalidRequest(ctx, op, ir) }))
		}
	}
	for _, t := range request.SchemeTrials(c.Contract) {
		for _, m := range request.NearMisses(key, t.Op, t.Scheme) {
			add("security scheme "+t.Scheme.Name+" with "+m.Name, false, request.Mutating(t.Op), func(h *harness, ctx context.Context) error {
				if err := h.served(t.Op); err != nil {
					return err
				}
				return h.checkNearMiss(ctx, t, m)
			})
		}
	}
	for _, res := range c.Resources {
		if res.List == nil {
			continue
		}
		if res.Read != nil {
			add("list "+res.List.ID+" read through "+res.Read.ID, false, false, func(h *harness, ctx context.Context) error { return h.checkListedReadsSame(ctx, res, nil) })
			for _, f := range walkFilters(res) {
				add("list "+res.List.ID+" by "+f.Name()+" read through "+res.Read.ID, false, false, func(h *harness, ctx context.Context) error { return h.checkListedReadsSame(ctx, res, &f) })
			}
		}
		add("list "+res.List.ID+" walked", false, true, func(h *harness, ctx context.Context) error { return h.checkPages(ctx, res, nil, true) })
		add("list "+res.List.ID+" walked read-only", false, false, func(h *harness, ctx context.Context) error { return h.checkPages(ctx, res, nil, false) })
		for _, f := range walkFilters(res) {
			add("list "+res.List.ID+" walked by "+f.Name(), false, true, func(h *harness, ctx context.Context) error { return h.checkPages(ctx, res, &f, true) })
			add("list "+res.List.ID+" walked read-only by "+f.Name(), false, false, func(h *harness, ctx context.Context) error { return h.checkPages(ctx, res, &f, false) })
		}
		if !c.genericList(res) {
			continue
		}
		if res.Paging.Limit != "" {
			add("list "+res.List.ID+" honours its limit", false, false, func(h *harness, ctx context.Context) error { return h.checkListLimit(ctx, res) })
		}
		for _, fv := range filterValues(res) {
			add("list "+res.List.ID+" filtered by "+fv.name(), false, false, func(h *harness, ctx context.Context) error { return h.checkListFilter(ctx, res, fv) })
		}
	}
	for _, res := range c.Resources {
		add("resource "+res.Name+" created", false, true, func(h *harness, ctx context.Context) error { return h.checkItemCreated(ctx, res) })
		if res.Replace != nil {
			add("resource "+res.Name+" replaced", false, true, func(h *harness, ctx context.Context) error { return h.checkItemReplaced(ctx, res) })
		}
		if res.Update != nil {
			add("resource "+res.Name+" updated", false, true, func(h *harness, ctx context.Context) error { return h.checkItemUpdated(ctx, res) })
		}
		if res.Delete != nil {
			add("resource "+res.Name+" deleted", false, true, func(h *harness, ctx context.Context) error { return h.checkItemDeleted(ctx, res) })
		}
	}
	if slices.ContainsFunc(c.Resources, func(res *spec.Resource) bool { return res.Read != nil }) {
		add("items kept to the end", false, true, (*harness).checkKept)
	}
	return out
}

// judgeOver returns the harness of a run of cfg against handler, served
// over a real connection: cfg's BaseURL is the server's, with the base path
// of the document, its APIKey conformancetest.Key unless set, its Settle
// 200ms unless set, as a server that breaks a rule breaks it however long
// the suite waits, and its Recheck 150ms unless set, as the servers that
// lose items lose them within 100ms.
func judgeOver(tb testing.TB, handler http.Handler, cfg Config) *harness {
	tb.Helper()
	hs := httptest.NewServer(handler)
	tb.Cleanup(hs.Close)
	cfg.BaseURL = hs.URL + "/v1"
	if cfg.Contract != nil {
		cfg.BaseURL = hs.URL + cfg.Contract.Base
	}
	if cfg.APIKey == "" {
		cfg.APIKey = conformancetest.Key
	}
	if cfg.Settle == 0 {
		cfg.Settle = 200 * time.Millisecond
	}
	if cfg.Recheck == 0 {
		cfg.Recheck = 150 * time.Millisecond
	}
	h := testHarness(tb, cfg, 1)
	tb.Cleanup(h.CloseIdleConnections)
	return h
}

// checkContext bounds a check called in-process, as Ginkgo bounds a run.
func checkContext(tb testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	tb.Cleanup(cancel)
	return ctx
}

// wantBroken fails the test unless err is a *Broken of rule, whose report
// names it and holds no key.
func wantBroken(tb testing.TB, what string, err error, rule string) *judge.Broken {
	tb.Helper()
	var broken *judge.Broken
	if !errors.As(err, &broken) || broken.Rule != rule {
		tb.Errorf("%s: verdict %v, want a *Broken of rule %s", what, err, rule)
		return nil
	}
	if report := err.Error(); !strings.Contains(report, "broken rule "+rule+": ") {
		tb.Errorf("%s: the report does not name rule %s:\n%s", what, rule, report)
	}
	noKey(tb, what, err)
	if strings.Contains(broken.Detail, conformancetest.Key) {
		tb.Errorf("%s: the detail of the verdict shows the API key: %s", what, broken.Detail)
	}
	return broken
}

// wantSkipped fails the test unless err is a *Skipped whose reason holds
// each of says, and no key.
func wantSkipped(tb testing.TB, what string, err error, says ...string) {
	tb.Helper()
	var skipped *judge.Skipped
	if !errors.As(err, &skipped) || errors.As(err, new(*judge.Aborted)) {
		tb.Errorf("%s: verdict %v, want a *Skipped", what, err)
		return
	}
	for _, want := range says {
		if !strings.Contains(skipped.Reason, want) {
			tb.Errorf("%s: the reason does not say %q:\n%s", what, want, skipped.Reason)
		}
	}
	noKey(tb, what, err)
}

// noKey fails the test if the message of err holds the key.
func noKey(tb testing.TB, what string, err error) {
	tb.Helper()
	if err != nil && strings.Contains(err.Error(), conformancetest.Key) {
		tb.Errorf("%s: the verdict shows the API key:\n%s", what, err)
	}
}

// TestPetmockPassesEveryCheck: petmock passes every check of a run,
// strict or not, of its own document, of the evolved ones and of two
// without the Petstore's operations, one of whose errors are numbered, with
// no check skipped.
func TestPetmockPassesEveryCheck(t *testing.T) {
	t.Parallel()
	widgets := conformancetest.WriteDocument(t, conformancetest.Widgets)
	numbered := conformancetest.WriteDocument(t, conformancetest.NumberedWidgets)
	for _, doc := range []struct {
		name, path string
		least      int // checks a run makes, at least
	}{
		{"the Petstore", "", 50},
		{conformancetest.EvolvedField, conformancetest.Testdata(t, conformancetest.EvolvedField), 50},
		{conformancetest.EvolvedOps, conformancetest.Testdata(t, conformancetest.EvolvedOps), 50},
		{"widgets", widgets, 15},
		{"widgets of numbered errors", numbered, 15},
	} {
		for _, strict := range []bool{false, true} {
			name := doc.name
			if strict {
				name += ", strict"
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				petmock, cfg := conformancetest.Petmock(t), Config{Strict: strict}
				if doc.path != "" {
					petmock = conformancetest.PetmockOf(t, doc.path)
					cfg.Contract = readFile(t, doc.path)
				}
				h := judgeOver(t, petmock, cfg)
				ctx := checkContext(t)
				ran := 0
				for _, c := range allChecks(h.contract, h.cfg.APIKey) {
					if c.strict && !strict {
						continue
					}
					ran++
					if err := c.run(h, ctx); err != nil {
						t.Errorf("%s: %v", c.name, err)
					}
				}
				if ran < doc.least {
					t.Errorf("%d checks ran, want the whole run's, at least %d", ran, doc.least)
				}
			})
		}
	}
}

// contracts holds the contract of each document the tests read, by path,
// so that the harnesses judging by one share what prepare reads of it.
var contracts sync.Map

// readFile reads the contract of the document at path, once.
func readFile(tb testing.TB, path string) *spec.Contract {
	tb.Helper()
	if c, ok := contracts.Load(path); ok {
		return c.(*spec.Contract)
	}
	c, err := spec.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	actual, _ := contracts.LoadOrStore(path, c)
	return actual.(*spec.Contract)
}
