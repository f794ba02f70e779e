package check

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"

	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/conformance/request"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/answercheck"
)

// Harness is what the checks of a run share: the client that judges every
// answer, the maker of requests, the settings of the run and the facts of
// its document, its random source, and the items it created. A run
// builds it with New, from what Prepare read of its document, and makes
// its checks one at a time.
type Harness struct {
	*judge.Client
	*request.Maker
	cfg      Settings // resolved
	contract Contract
	rnd      *rand.Rand // the checks run one at a time

	samples map[string]sample // by resource; the checks run one at a time
	kept    []keptItem        // items to read again at the end, earliest first; as samples
	writes  []sentWrite       // the writes that succeeded, in order; as samples
}

// Prepared is what a run reads of its document once, before any check
// runs: the facts the checks are made of, which also say which checks the
// run makes, and the checker that holds answers to it.
type Prepared struct {
	// Contract is the facts of the document the checks are made of.
	Contract Contract
	// checker holds answers to the document: unless the run is strict,
	// to the document without the header schemas that are petmock's
	// choices.
	checker *answercheck.Checker
}

// Prepare reads what a run of s needs of its document, spec.Default() if
// s names none.
func Prepare(s Settings) (Prepared, error) {
	var p Prepared
	c, err := s.Document()
	if err != nil {
		return p, err
	}
	if p.Contract, err = ReadContract(c); err != nil {
		return p, fmt.Errorf("document: %w", err)
	}
	if p.checker, err = answercheck.New(c, s.Strict); err != nil {
		return p, fmt.Errorf("document: %w", err)
	}
	return p, nil
}

// New builds the harness of a run of s, whose fields have been
// validated, with what Prepare read of its document. seed seeds the run's
// random choices where s gives none.
func New(s Settings, p Prepared, seed uint64) *Harness {
	s = s.Resolved()
	base, _ := ParseBaseURL(s.BaseURL)
	if s.Seed != 0 {
		seed = s.Seed
	}
	rnd := rand.New(rand.NewPCG(seed, 0x5eed))
	runID := s.RunID
	if runID == "" {
		runID = s.Now().UTC().Format("20060102t150405") + "-" + strconv.FormatUint(rnd.Uint64N(36*36*36), 36)
	}
	var pets *spec.Paging
	if p.Contract.IsPetstore {
		pets = &p.Contract.Pets.Paging
	}
	cl := judge.NewClient(judge.Config{
		Base: base, APIKey: s.APIKey, ReadOnly: s.ReadOnly, MaxCreates: s.MaxCreates, Timeout: s.Timeout,
		Transport: s.Transport, Contract: p.Contract.Contract, Checker: p.checker, Pets: pets, Seen: s.Seen,
	})
	h := &Harness{
		Client:   cl,
		Maker:    request.NewMaker(p.Contract.Contract, cl, rnd, runID),
		cfg:      s,
		contract: p.Contract,
		rnd:      rnd,
	}
	if !s.ReadOnly {
		h.SetItemMaker(h.makeItem)
	}
	return h
}

// makeItem creates an item of res, for a request below it that needs one,
// and returns its id; false where none could be made. What fails here is
// judged by the checks of res's create, not here.
func (h *Harness) makeItem(ctx context.Context, res *spec.Resource) (string, bool) {
	created, _, err := h.createItem(ctx, res)
	if err != nil || created.ID(res.IDProperty) == "" {
		return "", false
	}
	return created.ID(res.IDProperty), true
}

// listPets sends GET /pets with a raw query.
func (h *Harness) listPets(ctx context.Context, query string, opts ...judge.Option) (*judge.Exchange, error) {
	return h.Send(ctx, judge.NewRequest(spec.ListPets, http.MethodGet, "/pets", query, nil, opts...))
}

// getPet sends GET /pets/{id}.
func (h *Harness) getPet(ctx context.Context, id int64, opts ...judge.Option) (*judge.Exchange, error) {
	return h.Send(ctx, judge.NewRequest(spec.GetPet, http.MethodGet, "/pets/"+strconv.FormatInt(id, 10), "", nil, opts...))
}

// createPet sends POST /pets with body as it is, even if it is not JSON.
func (h *Harness) createPet(ctx context.Context, body string, opts ...judge.Option) (*judge.Exchange, error) {
	return h.Send(ctx, judge.NewRequest(spec.CreatePet, http.MethodPost, "/pets", "", []byte(body), opts...))
}
