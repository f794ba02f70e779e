package mockserver

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"sync/atomic"
	"time"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver/answer"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/mockserver/store"
	"github.com/petstore/contract/spec"
)

// Config configures a Server. Its zero value serves the embedded
// document's default catalogue with DefaultAPIKey, on the real clock,
// without added latency or failures, and logs nothing.
type Config struct {
	// Contract is the document to serve. Nil means the embedded one,
	// spec.Default().
	Contract *spec.Contract

	// APIKeys are the keys the server accepts, on the API and, unless
	// AdminKeys are set, on every Edge it makes, such as the admin API's.
	// Empty means DefaultAPIKey.
	APIKeys []string
	// AdminKeys, when not empty, are the only keys an Edge accepts, so
	// that the admin API's key is not the one every app under development
	// holds. They are hidden wherever APIKeys are. Empty means APIKeys.
	AdminKeys []string

	// Items are the items the stores start with, and the ones Reset
	// returns to, by resource name; a resource it does not name starts
	// empty. They are checked against the document. Nil means a
	// generated catalogue, as Catalogue says.
	Items catalogue.Items
	// Catalogue describes the generated catalogue the stores start with
	// when Items is nil. Nil means catalogue.Seeded{Seed:
	// catalogue.DefaultSeed}.
	Catalogue *catalogue.Seeded

	// Logger receives one line per request: method, path, status and
	// duration, with every accepted key hidden. Nil means no logging.
	Logger *slog.Logger

	// Now returns the current time; nil means time.Now. Setting it to a
	// time after a sunset shows what clients get once an operation is
	// removed.
	Now func() time.Time
	// ClockAt, when not zero, is the time the clock shows at start; it
	// runs on from there, as after ChangeSettings with a time for "now",
	// and a nil one returns it to Now.
	ClockAt time.Time

	// Latency delays every answer under the base path. It, FailRate,
	// ClockAt and JournalSize are where the settings start;
	// ChangeSettings changes them while the server runs.
	Latency steer.Latency
	// FailRate is the share of requests under the base path answered 503,
	// from 0 to 1.
	FailRate float64
	// ChaosSeed seeds the draws of Latency, FailRate and FaultRate, and
	// the answers of operations that are not part of a resource, so that
	// a run repeats.
	ChaosSeed uint64

	// Fault is put in place of the answer of a share FaultRate of the
	// requests under the base path, from 0 to 1; "" puts none (see
	// Fault). SlowBytesPerSecond is how fast a slow body comes; zero
	// means DefaultSlowBytesPerSecond. Like Latency, they are where the
	// settings start.
	Fault              steer.Fault
	FaultRate          float64
	SlowBytesPerSecond int

	// JournalSize is how many requests the journal keeps (see Journal).
	// Zero means DefaultJournalSize; a negative size keeps none.
	JournalSize int
	// JournalBytes caps the bytes of headers and bodies the journal
	// holds: past it, it drops its oldest requests. Zero means
	// DefaultJournalBytes.
	JournalBytes int64
	// ShowSecrets starts the journal showing the app's secrets, which it
	// hides by default (see Journal), as the journalSecrets setting does.
	ShowSecrets bool

	// MaxItems caps the items each store holds: past it, a create is
	// refused with 507. Zero means catalogue.DefaultMaxItems.
	MaxItems int
	// MaxStoreBytes caps the JSON text of all the items of a store
	// together, since a name may be long. Zero means
	// catalogue.DefaultMaxStoreBytes.
	MaxStoreBytes int64

	// Proxy, when its URL is set, puts petmock in front of a backend:
	// the requests of the API go to it, and its answers are checked
	// against the document, the mock answering only where the backend
	// has nothing to say (see Proxy). The zero value mocks every answer.
	Proxy Proxy
}

// Server is the mock, an http.Handler.
type Server struct {
	// gate checks every request of the API against the document: it
	// holds the document, its operations and the keys.
	gate     *edge.Gate
	contract *spec.Contract
	// ops are the operations, by edge.Operation.Index.
	ops []*operation
	// adminKeys are the keys an Edge accepts: Config.AdminKeys, or the
	// API's.
	adminKeys edge.Keyring
	// publishedKey is whether an Edge accepts DefaultAPIKey.
	publishedKey bool
	// items are the resources of the document and what they hold.
	items *catalogue.Resources
	log   *slog.Logger
	// requests writes the request log off the answers, when log is set;
	// it is shared with the servers that take over.
	requests *journal.RequestLog
	now      func() time.Time
	seed     uint64           // of generated answers
	journal  *journal.Journal // of the size the settings give
	redact   *journal.Redactor
	secrets  *journal.Secrets // the app's, which the journal hides
	// bodyKept is how much of each body the journal keeps: see
	// journal.Redactor.KeptBytes.
	bodyKept int
	// errs writes every error the server sends.
	errs *failures
	// steer holds the settings, the forced answers and the expectations.
	steer  *steer.Steering
	events *journal.Hub // what changed, for the subscriptions
	docs   *answer.Documents
	base   string // base path, such as "/v1"
	// notes and warnings are what New found to say of the document,
	// beyond what spec said: see Notes and Warnings.
	notes, warnings []string

	// successor is the server that took over from s, or nil.
	successor atomic.Pointer[Server]
	// reloads is what became of the versions of the document, shared
	// with the servers that take over.
	reloads *reloads

	// proxy is nil unless petmock proxies to a backend (Config.Proxy),
	// and violations keeps the backend's answers that break the document.
	proxy      *proxying
	violations *journal.Journal
}

// New returns a Server for cfg. It fails, saying where, on a document it
// cannot serve, such as one whose response it cannot make a valid value
// for.
func New(cfg Config) (*Server, error) {
	return NewContext(context.Background(), cfg)
}

// NewContext returns a Server for cfg, as New does, and gives up with
// ctx's error once ctx is done: compiling the checks of a large document
// and making a catalogue of a million items take seconds, and a signal
// should end them.
func NewContext(ctx context.Context, cfg Config) (*Server, error) {
	c := cfg.Contract
	if c == nil {
		var err error
		if c, err = spec.Default(); err != nil {
			return nil, err
		}
	}
	keys, err := edge.NewKeyring(keysOrDefault(cfg.APIKeys))
	if err != nil {
		return nil, err
	}
	adminKeys := keys
	if len(cfg.AdminKeys) > 0 {
		if adminKeys, err = edge.NewKeyring(cfg.AdminKeys); err != nil {
			return nil, fmt.Errorf("admin %w", err)
		}
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	docs := answer.NewDocuments(c)
	shapes := shape.NewBuilder(c)
	gate, err := edge.New(ctx, c, keys, shapes, MaxBodyBytes)
	if err != nil {
		return nil, err
	}
	redact := journal.NewRedactor(append(append(keysOrDefault(cfg.APIKeys), cfg.AdminKeys...), cfg.Proxy.Key))
	proxying, err := newProxying(c, cfg.Proxy, redact)
	if err != nil {
		return nil, err
	}
	s := &Server{
		gate:     gate,
		contract: c,
		log:      cfg.Logger,
		now:      now,
		seed:     cfg.ChaosSeed,
		redact:   redact,
		secrets:  journal.NewSecrets(c),
		events:   journal.NewHub(),
		docs:     docs,
		base:     c.Base,
		proxy:    proxying,
		reloads:  &reloads{},
	}
	s.errs = &failures{redact: s.redact, log: cfg.Logger}
	if cfg.Logger != nil {
		s.requests = journal.NewRequestLog(cfg.Logger, s.redact)
	}
	s.adminKeys = adminKeys
	s.publishedKey = adminKeys.Accepts(DefaultAPIKey)
	journalBytes := cfg.JournalBytes
	if journalBytes <= 0 {
		journalBytes = journal.DefaultJournalBytes
	}
	s.steer, err = steer.New(steer.Config{
		Gate:          gate,
		Responses:     func(op *edge.Operation) *answer.Responses { return s.ops[op.Index].responses },
		Seed:          cfg.ChaosSeed,
		Now:           now,
		Log:           cfg.Logger,
		Events:        s.events,
		Redact:        s.redact,
		ResizeJournal: func(size int) { s.journal.Resize(size) },
		Start: steer.Start{
			Latency: cfg.Latency, FailRate: cfg.FailRate, Fault: cfg.Fault, FaultRate: cfg.FaultRate,
			SlowBytesPerSecond: cfg.SlowBytesPerSecond, JournalSize: cfg.JournalSize, ShowSecrets: cfg.ShowSecrets, ClockAt: cfg.ClockAt,
		},
	})
	if err != nil {
		return nil, err
	}
	showSecrets := func() bool { return s.steer.ShowSecrets() }
	s.journal = journal.New(journal.Config{Size: s.steer.JournalSize(), MaxBytes: journalBytes, Redact: s.redact, Secrets: s.secrets,
		ShowSecrets: showSecrets, Events: s.events, Change: journal.ChangeJournal})
	s.violations = journal.New(journal.Config{Redact: s.redact, Secrets: s.secrets, ShowSecrets: showSecrets, Events: s.events, Change: journal.ChangeViolations})
	if proxying != nil {
		proxying.gate, proxying.base, proxying.log, proxying.events, proxying.steer = gate, c.Base, cfg.Logger, s.events, s.steer
		size, bytes := cfg.Proxy.MaxViolations, cfg.Proxy.MaxViolationBytes
		if size <= 0 {
			size = DefaultMaxViolations
		}
		if bytes <= 0 {
			bytes = DefaultMaxViolationBytes
		}
		s.violations = journal.New(journal.Config{Size: size, MaxBytes: bytes, Redact: s.redact, Secrets: s.secrets,
			ShowSecrets: showSecrets, Events: s.events, Change: journal.ChangeViolations})
	}
	s.bodyKept = s.redact.KeptBytes(journal.BodyBytes)
	if proxying != nil {
		proxying.violations, proxying.bodyKept = s.violations, s.bodyKept
	}
	limits := store.Limits{MaxItems: cfg.MaxItems, MaxBytes: cfg.MaxStoreBytes}
	if limits.MaxItems <= 0 {
		limits.MaxItems = catalogue.DefaultMaxItems
	}
	if limits.MaxBytes <= 0 {
		limits.MaxBytes = catalogue.DefaultMaxStoreBytes
	}
	seed := uint64(catalogue.DefaultSeed)
	if cfg.Catalogue != nil {
		seed = cfg.Catalogue.Seed
	}
	s.items = catalogue.New(catalogue.Config{Contract: c, Shapes: shapes, Seed: seed, Limits: limits, Log: cfg.Logger, Events: s.events, Generate: cfg.Items == nil})
	s.notes = append(s.notes, s.items.Notes()...)
	s.warnings = answer.CapWarnings(c)
	if err := s.bind(ctx, shapes); err != nil {
		return nil, err
	}
	s.notes = append(s.notes, answer.UndocumentedNotes(c)...)
	s.notes = append(s.notes, edge.SchemeNotes(c)...)
	warnings, err := s.items.Fill(ctx, cfg.Items, cfg.Catalogue)
	if err != nil {
		return nil, err
	}
	s.warnings = append(s.warnings, warnings...)
	return s, nil
}

// Notes say, one line each, what the server does that the document does
// not say, such as the status it answers an operation with that documents
// no success. They are meant for a start-up log, after the contract's.
func (s *Server) Notes() []string { return slices.Clone(s.notes) }

// Warnings say, one line each, where the server cannot hold to the
// document, which it serves all the same as it was read leniently, such
// as a schema no value it makes matches. They are meant for a start-up
// log, after the contract's.
func (s *Server) Warnings() []string { return slices.Clone(s.warnings) }

// Contract returns the contract the server serves.
func (s *Server) Contract() *spec.Contract { return s.contract }

// Items returns the resources of the document and what they hold: their
// stores, the scenarios that change them all at once, and what a command
// that keeps them tells them (see catalogue.Resources).
func (s *Server) Items() *catalogue.Resources { return s.items }

// DefaultAPIKey is the key petmock accepts when no other is configured. It
// is a development key, published in the README, and guards nothing.
const DefaultAPIKey = "petmock-dev-key"

// keysOrDefault returns keys, or DefaultAPIKey when there are none.
func keysOrDefault(keys []string) []string {
	if len(keys) == 0 {
		return []string{DefaultAPIKey}
	}
	return keys
}

// MaxBodyBytes is the largest request body petmock reads. A larger one is
// refused with 413 without being read.
const MaxBodyBytes = edge.MaxBodyBytes

// Listener returns ln with every connection it accepts made to send, in
// place of the plain-text answers Go's HTTP server writes by itself, the
// error of the same status in the error body of s's document, or of the
// document of the server that took over from s when the connection was
// accepted (see TakeOver), and with its connections within the caps of
// limits (see edge.WireLimits).
func (s *Server) Listener(ln net.Listener, limits edge.WireLimits) *edge.WireListener {
	return edge.Listener(ln, limits, func() *edge.ErrorPlan { return s.Latest().gate.ErrorBody() })
}
