package steer

import (
	"cmp"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/petstore/contract/mockserver/answer"
	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/mockserver/journal"
	"github.com/petstore/contract/spec"
)

// Steering is what a frontend developer, a test or a script tells a
// running petmock to do to the answers of its API: the settings (latency,
// failures, faults, the clock, the journal), the answers forced on the
// next requests, and the expectations. Its state is shared with the
// Steering of a server that takes over for a new version of the document
// (TakeOver), which holds it to that document.
type Steering struct {
	contract  *spec.Contract
	gate      *edge.Gate
	base      string
	responses func(op *edge.Operation) *answer.Responses
	seed      uint64 // of the headers an example requires
	now       func() time.Time
	log       *slog.Logger
	events    *journal.Hub
	redact    *journal.Redactor
	// resize resizes the journal as the journal setting says.
	resize func(size int)

	// What follows is shared with the Steering that takes over.
	settings  *liveSettings
	chaos     *chaos
	forced    *forcing      // answers forced by Force
	expecting *expecting    // the expectations set by Expect
	verify    *verification // which requests they answered
}

// Config configures a Steering.
type Config struct {
	// Gate checks the requests of the document the steering is held to.
	Gate *edge.Gate
	// Responses returns the facts of the responses of an operation, which
	// an expectation's answer is checked against.
	Responses func(op *edge.Operation) *answer.Responses
	// Seed seeds the draws of latency, failures and faults, and the
	// values made for the headers an example requires.
	Seed uint64
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// Log, when not nil, gets a line for each change.
	Log *slog.Logger
	// Events is told of every change.
	Events *journal.Hub
	// Redact hides keys in what the steering shows of expectations.
	Redact *journal.Redactor
	// ResizeJournal resizes the journal as the journal setting says; nil
	// keeps none.
	ResizeJournal func(size int)
	// Start is where the settings start.
	Start Start
}

// Start is where the settings start: see Config in package mockserver.
type Start struct {
	Latency            Latency
	FailRate           float64
	Fault              Fault
	FaultRate          float64
	SlowBytesPerSecond int
	JournalSize        int
	ShowSecrets        bool
	ClockAt            time.Time
}

// New returns a Steering for cfg, or says which starting setting is
// wrong.
func New(cfg Config) (*Steering, error) {
	s := newSteering(cfg)
	settings, err := newSettings(cfg.Start, s.now)
	if err != nil {
		return nil, err
	}
	s.settings, s.chaos, s.forced, s.expecting = settings, newChaos(cfg.Seed), &forcing{}, &expecting{}
	s.verify = newVerification(s.now())
	return s, nil
}

func newSteering(cfg Config) *Steering {
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	c := cfg.Gate.Contract()
	return &Steering{contract: c, gate: cfg.Gate, base: c.Base, responses: cfg.Responses, seed: cfg.Seed, now: now,
		log: cfg.Log, events: cfg.Events, redact: cfg.Redact, resize: cfg.ResizeJournal}
}

// TakeOver makes s, the steering of a server that takes over from the one
// of old for a new version of the document, share old's settings, clock,
// draws, forced answers, expectations and verification, but for the
// forced answers and the expectations s's document does not allow, such
// as those of an operation it no longer has, which are dropped and
// counted.
func (s *Steering) TakeOver(old *Steering) (forcedDropped, expectationsDropped int) {
	s.settings, s.chaos, s.forced, s.expecting, s.verify = old.settings, old.chaos, old.forced, old.expecting, old.verify

	f := s.forced
	f.mu.Lock()
	allowed := f.rules[:0:0]
	for _, a := range f.rules {
		if s.checkForced(a) != nil {
			forcedDropped++
			continue
		}
		allowed = append(allowed, a)
	}
	f.rules = allowed
	f.n.Store(int32(len(allowed)))
	f.mu.Unlock()

	ex := s.expecting
	ex.mu.Lock()
	var list []*expectation
	bytes := 0
	for _, x := range ex.list {
		nx, err := s.compileExpectation(x.Expectation)
		if err != nil {
			expectationsDropped++
			continue
		}
		nx.ID = x.ID
		list = append(list, nx) // in the order of the list before, which the priorities kept
		bytes += nx.size
	}
	ex.list, ex.bytes = list, bytes
	ex.changed()
	ex.mu.Unlock()
	return forcedDropped, expectationsDropped
}

// JournalSize is how many requests the journal keeps now.
func (s *Steering) JournalSize() int { return s.settings.load().journal }

// ShowSecrets is whether the journal shows the app's secrets now.
func (s *Steering) ShowSecrets() bool { return s.settings.load().showSecrets }

// Verdict is what the steering decided of a request whose key passed,
// and which it did not answer itself.
type Verdict struct {
	// Writer is what to answer with: the request's own, or one that
	// dribbles the body of a slow answer. Once the answer is written,
	// Done sends what it holds.
	Writer http.ResponseWriter
	// Example is the named example Prefer asks for, to answer once the
	// request is found valid; nil for none. Applied are then the
	// preferences to report with it.
	Example *answer.Canned
	Applied []string

	// dribbled are the writers of dribbled bodies Writer is made of,
	// innermost first, which Done ends.
	dribbled []*chunkWriter
}

// Done ends the answer written to v.Writer: a dribbled body of no
// announced length is held until then.
func (v Verdict) Done() {
	for i := len(v.dribbled) - 1; i >= 0; i-- {
		v.dribbled[i].Done()
	}
}

// Steer decides what becomes of r, a request of op whose key passed, ahead
// of its handler: the example Prefer asks for, which the responses rs of
// op give; the latency, failures and faults of the settings; the sunset
// of op's deprecation dep, nil for none; the answer Prefer: code= forces;
// and the answers forced from outside. It returns the answer to send
// instead of the handler's as an error, or ErrAnswered when it answered
// below HTTP, with a fault; and otherwise the verdict, for the request to
// go on. rec, when not nil, is told of a fault. What it applied of Prefer
// is in Preference-Applied.
func (s *Steering) Steer(w http.ResponseWriter, r *http.Request, op *edge.Operation, rec *journal.Recorder, rs *answer.Responses, dep *answer.Deprecation) (Verdict, error) {
	var prefs Preferences
	if values := r.Header.Values("Prefer"); len(values) > 0 {
		var e *edge.Error
		if prefs, e = ParsePrefer(values); e != nil {
			return Verdict{}, e
		}
	}
	// An example that cannot be answered is refused before the request
	// waits or meets a fault.
	var example *answer.Canned
	if prefs.Example != "" && (prefs.Code == 0 || Forceable(op.Spec, prefs.Code)) {
		var e *edge.Error
		if example, e = rs.Example(op.Spec, cmp.Or(prefs.Code, op.Spec.Success), prefs.Example, s.seed); e != nil {
			return Verdict{}, e
		}
	}
	// Latency, failures and faults come after the key, so that a request
	// without one learns nothing else, and stray requests do not draw
	// from the seeded source.
	fault, err := s.draw(r, &prefs)
	if err != nil {
		return Verdict{}, err
	}
	var v Verdict
	if w, err = s.inject(&v, w, r, op, rec, fault); err != nil {
		return Verdict{}, err
	}
	// A removed operation is gone, whatever else a client prefers.
	var refusal *edge.Error
	if dep != nil {
		now := prefs.Now
		if now.IsZero() {
			now = s.Clock()
		}
		if dep.Removed(now) {
			refusal = dep.Gone(op.Spec.ID)
		}
	}
	if refusal == nil && prefs.Code != 0 {
		refused, applied := forcedByPrefer(op.Spec, prefs.Code)
		switch {
		case example != nil && (applied || refused == nil):
			// The example of the code, a documented success included.
			preferenceApplied(w, append(prefs.Applied, "code="+strconv.Itoa(prefs.Code), "example="+prefs.Example))
			example.Write(w)
			return Verdict{}, ErrAnswered
		case applied:
			prefs.Applied = append(prefs.Applied, "code="+strconv.Itoa(prefs.Code))
		}
		refusal = refused
	}
	if refusal == nil && prefs.Code == 0 && prefs.Example == "" {
		forcedAnswer, forcedFault := s.takeForced(op.Spec)
		if w, err = s.inject(&v, w, r, op, rec, forcedFault); err != nil {
			return Verdict{}, err
		}
		refusal = forcedAnswer
	}
	preferenceApplied(w, prefs.Applied)
	if refusal != nil {
		return Verdict{}, refusal
	}
	v.Writer, v.Example = w, example
	if example != nil {
		v.Applied = append(prefs.Applied, "example="+prefs.Example)
	}
	return v, nil
}

// AnswerExample answers with the example of v, reporting the preferences
// applied.
func (v Verdict) AnswerExample() {
	preferenceApplied(v.Writer, v.Applied)
	v.Example.Write(v.Writer)
}

// preferenceApplied reports the preferences applied.
func preferenceApplied(w http.ResponseWriter, applied []string) {
	if len(applied) > 0 {
		w.Header().Set("Preference-Applied", strings.Join(applied, ", "))
	}
}

// inject puts the fault f in place of the answer to r, and returns
// ErrAnswered; or, for a slow or dribbled one, returns w made to send the
// answer so, which v is told of; or, for none, returns w.
func (s *Steering) inject(v *Verdict, w http.ResponseWriter, r *http.Request, op *edge.Operation, rec *journal.Recorder, f injected) (http.ResponseWriter, error) {
	if !f.fault.failure() && f.fault != "" && rec != nil {
		rec.Fault = string(f.fault)
	}
	switch f.fault {
	case "":
		return w, nil
	case FaultSlow:
		return dribble(r.Context(), w, f.rate), nil
	case FaultDribble:
		cw := dribbleChunks(r.Context(), w, f.chunks, f.over)
		v.dribbled = append(v.dribbled, cw)
		return cw, nil
	}
	var data []byte
	if f.fault == FaultRandomData {
		data = s.chaos.bytes(randomDataBytes)
	}
	return w, fail(w, r, op, rec, f.fault, data)
}

// draw delays the answer, by Prefer: delay= or else by the configured
// latency, fails it with 503 at the configured rate, and returns the
// fault to put in its place at the configured rate.
func (s *Steering) draw(r *http.Request, prefs *Preferences) (injected, error) {
	var delay time.Duration
	var failed, faulted bool
	st := s.settings.load()
	if st.chaotic() {
		faultRate := 0.0
		if st.faulty() {
			faultRate = st.faultRate
		}
		delay, failed, faulted = s.chaos.draw(st.latency, st.failRate, faultRate)
	}
	if prefs.hasDelay {
		delay = prefs.delay
		prefs.Applied = append(prefs.Applied, "delay="+strconv.FormatInt(prefs.delay.Milliseconds(), 10))
	}
	if !sleep(r.Context(), delay) {
		return injected{}, edge.NewError(http.StatusServiceUnavailable, "request", "cancelled by the client during the delay")
	}
	if failed {
		return injected{}, edge.NewError(http.StatusServiceUnavailable, "server", "injected failure (fail rate %v)", st.failRate).
			WithHeader("Retry-After", "1")
	}
	if faulted {
		return injected{fault: st.fault, rate: st.slowRate, chunks: DefaultDribbleChunks, over: DefaultDribbleDuration}, nil
	}
	return injected{}, nil
}
