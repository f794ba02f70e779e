package conformance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/conformance/request"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/answercheck"
)

// harness is what the checks of a run share: the client that judges every
// answer, the maker of requests, the settings of the run and the facts of
// its document, its random source, and the items it created. BeforeSuite
// builds it.
type harness struct {
	*judge.Client
	*request.Maker
	cfg      settings
	contract contract
	rnd      *rand.Rand // Ginkgo runs specs one at a time

	samples map[string]sample // by resource; Ginkgo runs specs one at a time
	kept    []keptItem        // items to read again at the end, earliest first; as samples
}

// settings say which deployment a run judges and how, every default
// resolved: Config.settings resolves them.
type settings struct {
	// Base is the deployment's base URL, without a trailing slash.
	Base *url.URL
	// APIKey is the run's key, never shown.
	APIKey string
	// Strict also holds the deployment to petmock's gap decisions;
	// ReadOnly sends no request that can change state.
	Strict, ReadOnly bool
	// MaxCreates bounds the POST requests of the run.
	MaxCreates int
	// Timeout bounds each request. Settle is how long a write may take to
	// show; a negative one reads once. Recheck is how old the earliest
	// item the run left alone is at least when the run reads it again; a
	// negative one reads without waiting.
	Timeout, Settle, Recheck time.Duration
	// RunID names the run in the names of the items it creates; empty
	// means one made from the clock and the seed.
	RunID string
	// Seed seeds the run's random choices; zero means the seed of the
	// order of the checks.
	Seed uint64
	// Transport sends the requests; nil means the client's own.
	Transport http.RoundTripper
	// Now tells the time.
	Now func() time.Time
	// Seen, if not nil, is told of the status of every answer, by
	// operation.
	Seen func(op string, status int)
}

// prepared is what a run reads of its document once, before any spec
// runs: the facts the specs need of it, and the checker that holds
// answers to it.
type prepared struct {
	contract contract
	// checker holds answers to the document: unless the run is strict,
	// to the document without the header schemas that are petmock's
	// choices.
	checker *answercheck.Checker
}

// prepareContract reads what a run of c needs of it, strict or not.
func prepareContract(c *spec.Contract, strict bool) (prepared, error) {
	var p prepared
	var err error
	if p.contract, err = readContract(c); err != nil {
		return p, fmt.Errorf("document: %w", err)
	}
	if p.checker, err = answercheck.New(c, strict); err != nil {
		return p, fmt.Errorf("document: %w", err)
	}
	return p, nil
}

// newHarness builds the harness of a run of s, with what prepareContract
// read of its document. seed seeds the run's random choices where s gives
// none.
func newHarness(s settings, p prepared, seed uint64) *harness {
	if s.Seed != 0 {
		seed = s.Seed
	}
	rnd := rand.New(rand.NewPCG(seed, 0x5eed))
	runID := s.RunID
	if runID == "" {
		runID = s.Now().UTC().Format("20060102t150405") + "-" + strconv.FormatUint(rnd.Uint64N(36*36*36), 36)
	}
	var pets *spec.Paging
	if p.contract.petstore {
		pets = &p.contract.Pets.Paging
	}
	cl := judge.NewClient(judge.Config{
		Base: s.Base, APIKey: s.APIKey, ReadOnly: s.ReadOnly, MaxCreates: s.MaxCreates, Timeout: s.Timeout,
		Transport: s.Transport, Contract: p.contract.Contract, Checker: p.checker, Pets: pets, Seen: s.Seen,
	})
	return &harness{
		Client:   cl,
		Maker:    request.NewMaker(p.contract.Contract, cl, rnd, runID),
		cfg:      s,
		contract: p.contract,
		rnd:      rnd,
	}
}

// listPets sends GET /pets with a raw query.
func (h *harness) listPets(ctx context.Context, query string, opts ...judge.Option) (*judge.Exchange, error) {
	return h.Send(ctx, judge.NewRequest(spec.ListPets, http.MethodGet, "/pets", query, nil, opts...))
}

// getPet sends GET /pets/{id}.
func (h *harness) getPet(ctx context.Context, id int64, opts ...judge.Option) (*judge.Exchange, error) {
	return h.Send(ctx, judge.NewRequest(spec.GetPet, http.MethodGet, "/pets/"+strconv.FormatInt(id, 10), "", nil, opts...))
}

// createPet sends POST /pets with body as it is, even if it is not JSON.
func (h *harness) createPet(ctx context.Context, body string, opts ...judge.Option) (*judge.Exchange, error) {
	return h.Send(ctx, judge.NewRequest(spec.CreatePet, http.MethodPost, "/pets", "", []byte(body), opts...))
}
