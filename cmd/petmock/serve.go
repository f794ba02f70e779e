package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
	"github.com/petstore/contract/mockserver/persist"
	"github.com/petstore/contract/mockserver/proxy"
	"github.com/petstore/contract/spec"
)

// options are the settings of petmock's server, from flags and environment
// variables.
type options struct {
	spec         string // the document's file; "" for the embedded one
	strictDoc    bool   // refuse, rather than make do with, what the document gets wrong
	addr         string
	apiKeys      []string
	adminKey     string   // "" for the API's keys
	adminOrigins []string // of pages that may use the admin API
	allowHosts   []string // names the control plane answers, besides IP addresses and loopback names
	seed         uint64
	pets         int
	logFormat    string
	fixtures     string
	state        string
	saveInterval time.Duration // 0 saves every write before it is answered
	onSaveError  string        // refuseWrites or keepServing
	latency      steer.Latency
	failRate     float64
	fault        steer.Fault
	faultRate    float64
	slowRate     int       // bytes a second of a slow body
	now          time.Time // zero for the real clock
	journal      int
	secrets      string // of the journal: hidden or shown
	maxPets      int
	maxStoreMB   int64
	proxy        string // the backend's base URL; "" mocks every answer
	proxyKey     string // sent to the backend; "" sends it no key
	proxyTimeout time.Duration
	proxyStrict  bool // answer a violation with 502
	violations   bool // list the violations in a header of every answer of the backend
	record       bool // keep the backend's answers as expectations
	maxConns     int  // 0 for the default of the descriptors petmock may open
	maxIdleConns int
	watch        bool // reload --spec when its file changes
	// given names the flags given on the command line or in the
	// environment; nil when none was.
	given map[string]bool
}

// envPrefix names the environment variable of each flag: --log-format is
// PETMOCK_LOG_FORMAT. --api-key is PETMOCK_API_KEYS, a comma-separated list.
const envPrefix = "PETMOCK_"

// serveUsage heads the server's --help.
const serveUsage = `Usage:
  petmock [flags]                 serve the mock
  petmock fixtures [flags]        write a generated catalogue as a fixture
  petmock seed [flags]            load a catalogue into any deployment through createPet

Each flag can also be set as ` + envPrefix + `<FLAG> in the environment (--api-key as ` + envPrefix + `API_KEYS, comma-separated).
Run "petmock fixtures --help" or "petmock seed --help" for theirs.

Flags of the server:
`

// serveAliases name the server's flag that a user who types another word
// probably means.
var serveAliases = map[string]string{
	"port": "addr", "listen": "addr", "host": "addr", "bind": "addr",
	"key": "api-key", "token": "api-key",
	"openapi": "spec", "document": "spec",
	"count": "pets", "delay": "latency",
	"backend": "proxy", "upstream": "proxy", "target": "proxy",
}

// parseOptions reads the flags in args over the environment over the
// defaults. --help writes the usage to stdout.
func parseOptions(args []string, getenv func(string) string, stdout io.Writer) (options, error) {
	o := options{
		addr:        "127.0.0.1:4010",
		seed:        catalogue.DefaultSeed,
		pets:        catalogue.DefaultCount,
		logFormat:   "text",
		onSaveError: refuseWrites,
		journal:     journal.DefaultJournalSize,
		secrets:     steer.SecretsHidden,
		maxPets:     catalogue.DefaultMaxItems,
		maxStoreMB:  catalogue.DefaultMaxStoreBytes >> 20,
		slowRate:    steer.DefaultSlowBytesPerSecond,
	}
	o.proxyTimeout = proxy.DefaultTimeout
	fs := flag.NewFlagSet("petmock", flag.ContinueOnError)
	fs.StringVar(&o.spec, "spec", "", "serve the OpenAPI document in this `file` instead of the built-in Petstore one")
	fs.BoolVar(&o.strictDoc, "strict-document", false, "refuse a --spec document that does not hold as written, such as one with an example that does not match its schema or an empty title, rather than serve it with a warning for each")
	fs.StringVar(&o.addr, "addr", o.addr, "`host:port` to listen on")
	fs.Func("api-key", "API `key` to accept as a bearer token; repeat for more (default "+mockserver.DefaultAPIKey+")", func(v string) error {
		o.apiKeys = append(o.apiKeys, v)
		return nil
	})
	fs.StringVar(&o.adminKey, "admin-key", "", "the only `key` the admin API and the console take, instead of the API keys, so that apps under development cannot steer petmock")
	fs.Func("admin-origin", "let pages of this `origin`, such as http://localhost:5173, use the admin API from a browser; repeat for more (default: petmock's own page only)", func(v string) error {
		for _, origin := range strings.Split(v, ",") {
			origin = strings.TrimSpace(origin)
			if origin != "*" {
				if _, err := admin.ParseOrigin(origin); err != nil {
					return err
				}
			}
			o.adminOrigins = append(o.adminOrigins, origin)
		}
		return nil
	})
	fs.Func("allow-host", "answer this `name` as Host on the admin API and the console, besides IP addresses and loopback names; repeat for more; * answers any, which lets a page that rebinds its name to petmock steer it (unsafe)", func(v string) error {
		for _, h := range strings.Split(v, ",") {
			h = strings.TrimSpace(h)
			if h != "*" {
				if _, err := admin.ParseHost(h); err != nil {
					return err
				}
			}
			o.allowHosts = append(o.allowHosts, h)
		}
		return nil
	})
	fs.Uint64Var(&o.seed, "seed", o.seed, "seed of the generated catalogue, the latency and the failures; the same seed repeats a run")
	fs.IntVar(&o.pets, "pets", o.pets, "`number` of items of each resource (pets, in the Petstore) in the generated catalogue")
	fs.StringVar(&o.fixtures, "fixtures", "", "start from the catalogue in this fixture `file` instead of a generated one")
	fs.StringVar(&o.state, "state", "", "keep the store, the settings, the forced answers and the expectations in a log beside this `file`, which is an export of them, and save every write before it is answered")
	fs.DurationVar(&o.saveInterval, "save-interval", 0, "save to --state at this interval instead, and answer writes before they are saved: faster, but a crash loses the writes since the last save (default: every write is saved before it is answered)")
	fs.StringVar(&o.onSaveError, "on-save-error", o.onSaveError, "while --state cannot be saved: refuse writes with 503 until a save succeeds, or serve them from memory only")
	fs.Func("latency", "delay every answer by this `duration` or range, such as 100ms or 50ms-300ms", func(v string) error {
		l, err := steer.ParseLatency(v)
		o.latency = l
		return err
	})
	fs.Float64Var(&o.failRate, "fail-rate", 0, "share of requests answered 503, from 0 to 1, such as 0.05")
	fs.Func("fault", "put this `fault` below HTTP in place of the answer of a share --fault-rate of the requests: reset, empty, malformed-chunk, random-data, slow or dribble", func(v string) error {
		o.fault = steer.Fault(v)
		if !slices.Contains(steer.Faults, o.fault) {
			return fmt.Errorf("want one of %s", faultNames())
		}
		return nil
	})
	fs.Float64Var(&o.faultRate, "fault-rate", 0, "share of requests that meet --fault, from 0 to 1, such as 0.05")
	fs.IntVar(&o.slowRate, "slow-bytes-per-second", o.slowRate, "how many `bytes` a second the body of a slow fault comes at")
	fs.Func("now", "act as if the time were this `date` (2031-01-01) or time (2031-01-01T12:00:00Z), then let it run", func(v string) error {
		t, err := steer.ParseInstant(v)
		if err != nil {
			return errors.New("want a date such as 2031-01-01 or a time such as 2031-01-01T12:00:00Z")
		}
		o.now = t
		return nil
	})
	fs.IntVar(&o.journal, "journal", o.journal, "how many requests GET /__petmock/requests keeps; 0 keeps none")
	fs.StringVar(&o.secrets, "journal-secrets", o.secrets, "hidden, or shown to show the app's tokens, passwords, session ids and the credentials of the document's schemes in the journal; petmock's own keys stay hidden")
	fs.IntVar(&o.maxPets, "max-pets", o.maxPets, "most items each resource holds; past it a create is refused with 507")
	fs.Int64Var(&o.maxStoreMB, "max-store-mb", o.maxStoreMB, "most MiB of JSON each resource holds; past it a create is refused with 507")
	fs.StringVar(&o.logFormat, "log-format", o.logFormat, "request log format, text or json")
	fs.Func("proxy", "forward the API's requests to the backend at this base `URL`, such as https://staging.example/v1, check its answers against the document, and answer from the mock where it cannot be reached or answers 501, or a 404 not its own", func(v string) error {
		if _, err := proxy.ParseURL(v); err != nil {
			return err
		}
		o.proxy = v
		return nil
	})
	fs.StringVar(&o.proxyKey, "proxy-key", "", "send this `key` to the --proxy backend, as the document's security scheme asks; the client's credentials, petmock's keys, never go (default: the backend gets no key)")
	fs.BoolVar(&o.proxyStrict, "proxy-strict", false, "answer a request to the --proxy backend that breaks the document, or whose answer does, with 502 and the list of what it broke, for CI; such a request is not forwarded")
	fs.BoolVar(&o.violations, "violations-header", false, "list what the request and the answer broke of the document in "+mockserver.ViolationsHeader+" on every answer of the --proxy backend, for the browser's devtools")
	fs.BoolVar(&o.record, "record", false, "keep each valid answer of the --proxy backend as an expectation, saved with --state, that a later run without --proxy plays back")
	fs.IntVar(&o.maxConns, "max-conns", 0, "most `connections` open at once: a new one takes the place of the one idle longest, or, when all are busy, is answered 503 (default: half the files petmock may open, at most "+strconv.Itoa(defaultMaxConns)+")")
	fs.IntVar(&o.maxIdleConns, "max-idle-conns", 0, "most idle `connections`, waiting for a request: past it, the one idle longest is closed (default: half of --max-conns)")
	fs.BoolVar(&o.watch, "watch", false, "reload the --spec document when its file changes, keeping the items that still fit it, the settings, the forced answers, the expectations and the journal; a version that cannot be served is refused, saying why, and the one before goes on")
	fs.DurationVar(&o.proxyTimeout, "proxy-timeout", o.proxyTimeout, "give up on the --proxy backend after this long, and answer from the mock")

	var envErr error
	var envKeys []string
	fs.VisitAll(func(f *flag.Flag) {
		name := envPrefix + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if f.Name == "api-key" {
			name = envPrefix + "API_KEYS"
		}
		v := getenv(name)
		if v == "" || envErr != nil {
			return
		}
		o.give(f.Name)
		if f.Name == "api-key" {
			for _, k := range strings.Split(v, ",") {
				envKeys = append(envKeys, strings.TrimSpace(k))
			}
			return
		}
		if err := f.Value.Set(v); err != nil {
			envErr = usagef("%s=%q: %v", name, v, err)
		}
	})
	if envErr != nil {
		return o, envErr
	}
	if err := parseFlags(fs, args, serveAliases, serveUsage, stdout); err != nil {
		return o, err
	}
	fs.Visit(func(f *flag.Flag) { o.give(f.Name) })
	if len(o.apiKeys) == 0 {
		o.apiKeys = envKeys // flags replace the environment's keys
	}
	switch {
	case o.pets < 0:
		return o, usagef("--pets %d: must not be negative", o.pets)
	case o.logFormat != "text" && o.logFormat != "json":
		return o, usagef("--log-format %q: must be text or json", o.logFormat)
	case o.failRate < 0 || o.failRate > 1:
		return o, usagef("--fail-rate %v: must be from 0 to 1", o.failRate)
	case o.faultRate < 0 || o.faultRate > 1:
		return o, usagef("--fault-rate %v: must be from 0 to 1", o.faultRate)
	case o.faultRate > 0 && o.fault == "":
		return o, usagef("--fault-rate %v: says how often --fault comes; give --fault too", o.faultRate)
	case o.slowRate < 1 || o.slowRate > steer.MaxSlowBytesPerSecond:
		return o, usagef("--slow-bytes-per-second %d: must be from 1 to %d", o.slowRate, steer.MaxSlowBytesPerSecond)
	case o.given["save-interval"] && o.saveInterval <= 0:
		return o, usagef("--save-interval %s: must be positive; leave it out to save every write before it is answered", o.saveInterval)
	case o.onSaveError != refuseWrites && o.onSaveError != keepServing:
		return o, usagef("--on-save-error %q: must be %s or %s", o.onSaveError, refuseWrites, keepServing)
	case o.secrets != steer.SecretsHidden && o.secrets != steer.SecretsShown:
		return o, usagef("--journal-secrets %q: must be %s or %s", o.secrets, steer.SecretsHidden, steer.SecretsShown)
	case o.journal < 0:
		return o, usagef("--journal %d: must not be negative", o.journal)
	case o.maxPets < 1:
		return o, usagef("--max-pets %d: must be at least 1", o.maxPets)
	case o.maxStoreMB < 1 || o.maxStoreMB > 1<<30:
		return o, usagef("--max-store-mb %d: must be from 1 to %d", o.maxStoreMB, 1<<30)
	case o.fixtures == "" && o.pets > o.maxPets:
		return o, usagef("--pets %d: more than --max-pets %d", o.pets, o.maxPets)
	case o.proxyKey != "" && o.proxy == "":
		return o, usagef("--proxy-key: there is no --proxy backend to send it to")
	case strings.ContainsAny(o.proxyKey, " \t\r\n"):
		return o, usagef("--proxy-key: must contain no white space")
	case o.watch && o.spec == "":
		return o, usagef("--watch: there is no document file to watch; give --spec FILE too")
	case o.proxyTimeout <= 0:
		return o, usagef("--proxy-timeout %s: must be positive", o.proxyTimeout)
	case o.proxyStrict && o.proxy == "":
		return o, usagef("--proxy-strict: there is no --proxy backend whose answers to judge")
	case o.violations && o.proxy == "":
		return o, usagef("--violations-header: there is no --proxy backend whose answers to mark")
	case o.record && o.proxy == "":
		return o, usagef("--record: there is no --proxy backend to record; give --proxy URL too")
	case o.record && o.state == "":
		return o, usagef("--record: the recording is kept with the expectations of --state, in its settings file; give --state FILE too")
	case o.maxConns < 0:
		return o, usagef("--max-conns %d: must not be negative", o.maxConns)
	case o.maxIdleConns < 0:
		return o, usagef("--max-idle-conns %d: must not be negative", o.maxIdleConns)
	case o.maxConns > 0 && o.maxIdleConns > o.maxConns:
		return o, usagef("--max-idle-conns %d: more than --max-conns %d", o.maxIdleConns, o.maxConns)
	}
	return o, nil
}

// faultNames lists the faults, for messages.
func faultNames() string {
	names := make([]string, len(steer.Faults))
	for i, f := range steer.Faults {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// give notes that the flag of the given name was given.
func (o *options) give(name string) {
	if o.given == nil {
		o.given = map[string]bool{}
	}
	o.given[name] = true
}

// serve runs the mock until ctx is done, then shuts down gracefully:
// requests in flight finish, and the store is saved to --state.
func serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	o, err := parseOptions(args, getenv, stdout)
	if err != nil {
		return err
	}
	defer keepHeapFloor(getenv)()
	logs := newLogWriter(stderr)
	defer logs.Close()
	var logger *slog.Logger
	if o.logFormat == "json" {
		logger = slog.New(slog.NewJSONHandler(logs, nil))
	} else {
		logger = slog.New(newRequestLines(logs))
	}

	// The file is looked at before it is read: a change made while it
	// is read is then seen as one.
	var watch *watcher
	if o.watch {
		watch = newWatcher(o.spec, watchInterval)
	}
	st, err := startUp(ctx, o, logger)
	if err != nil {
		return err
	}
	contract, srv, handler := st.contract, st.srv, st.handler
	// The request log is written a moment after the answers: its last
	// lines are written before the log is closed.
	defer srv.FlushLog()
	// Listen before the state file is opened, so that a busy port, the
	// likeliest mistake of a second petmock, leaves no state file behind.
	ln, err := listen(o.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	var saver *persist.Saver
	if o.state != "" {
		if saver, err = openDurably(o, srv, logger); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		// Stopped while the state file was read: nothing was written,
		// and the file holds what it held.
		if saver != nil {
			if err := saver.Close(); err != nil {
				return err
			}
		}
		return errStopped
	}

	watched := make(chan struct{})
	if watch != nil {
		live := newLive(srv, handler)
		handler = live
		rl := &reloader{o: o, log: logger, admin: st.admin, live: live}
		watchCtx, stopWatching := context.WithCancel(ctx)
		defer stopWatching()
		go func() {
			defer close(watched)
			watch.run(watchCtx, rl)
		}()
		logger.Info("watching " + o.spec + ": the document is reloaded when the file changes, keeping the items that still fit")
	} else {
		close(watched)
	}

	hs := newHTTPServer(handler, defaultBounds, slog.NewLogLogger(logger.Handler(), slog.LevelWarn))
	hs.RegisterOnShutdown(srv.Close) // the console's event streams would hold a shutdown up
	wl := wireListener(srv, ln, defaultBounds, connCaps(o, openFileLimit))
	hs.ConnState = wl.ConnState
	if o.proxy != "" {
		credentials := "no key: give --proxy-key to send it one"
		if o.proxyKey != "" {
			credentials = "the --proxy-key"
		}
		logger.Info("proxying: the backend answers, the mock where it cannot", "backend", srv.Backend(), "sends", credentials, "timeout", o.proxyTimeout)
		if o.record {
			logger.Info("recording: each valid answer of the backend is kept as an expectation, saved with --state; while it records, every request goes to the backend")
		}
	}
	fmt.Fprintln(stdout, startLine(ln.Addr(), contract.Base, contract.ConvertedFrom, o.apiKeys, o.adminKey)+proxyNote(srv.Backend()))

	served := make(chan error, 1)
	go func() { served <- hs.Serve(wl) }()
	saved := make(chan struct{})
	// Saves go on during the shutdown: the requests in flight may be
	// writes that wait for theirs.
	saveCtx, stopSaving := context.WithCancel(context.Background())
	defer stopSaving()
	go func() {
		defer close(saved)
		if saver != nil {
			saver.Run(saveCtx)
		}
	}()

	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	<-watched // no reload comes during the shutdown
	logger.Info("shutting down; waiting for requests in flight")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	shutdownErr := hs.Shutdown(shutdownCtx)
	stopSaving()
	<-saved
	if saver != nil {
		// Every request has been answered: this save holds every pet
		// whose creation was acknowledged, or says how many it could
		// not keep, and where they went.
		if err := saver.Close(); err != nil {
			return err
		}
	}
	if shutdownErr != nil {
		return fmt.Errorf("shutdown: %w", shutdownErr)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// listen listens on addr. A port in use is a usage error that says what
// to do, rather than the socket's "bind: address already in use".
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, usagef("--addr %s: the port is in use; stop the other petmock or pick another with --addr", addr)
	}
	if err != nil {
		return nil, usagef("--addr %s: %v", addr, err)
	}
	return ln, nil
}

// bounds are the limits of petmock's HTTP server, so that a client that
// trickles bytes, or never reads, cannot hold a connection forever.
type bounds struct {
	readHeader, read, write, idle time.Duration
	maxHeaderBytes                int
}

// defaultBounds leave room for the longest delay a client may ask for.
var defaultBounds = bounds{
	readHeader:     10 * time.Second,
	read:           time.Minute,
	write:          time.Minute + steer.MaxDelay,
	idle:           2 * time.Minute,
	maxHeaderBytes: 64 << 10,
}

func newHTTPServer(h http.Handler, b bounds, errLog *log.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: b.readHeader,
		ReadTimeout:       b.read,
		WriteTimeout:      b.write,
		IdleTimeout:       b.idle,
		MaxHeaderBytes:    b.maxHeaderBytes,
		ErrorLog:          errLog,
	}
}

// wireListener wraps ln so that the answers Go's HTTP server writes by
// itself, such as a 431 or a 505, are errors in the error body of srv's
// document too, naming the bounds b, and so that it holds at most the
// connections caps allows. Its ConnState is the HTTP server's hook.
func wireListener(srv *mockserver.Server, ln net.Listener, b bounds, caps connLimits) *edge.WireListener {
	return srv.Listener(ln, edge.WireLimits{ReadHeaderTimeout: b.readHeader, MaxHeaderBytes: b.maxHeaderBytes,
		MaxConns: caps.open, MaxIdleConns: caps.idle})
}

// readContract reads the document petmock serves, leniently: the file
// --spec names, or the embedded one.
func readContract(path string) (*spec.Contract, error) {
	return readDocument(context.Background(), path, spec.ReadOptions{})
}

// readDocument reads the document petmock serves as o says, until ctx is
// done: the file --spec names, or the embedded one.
func readDocument(ctx context.Context, path string, o spec.ReadOptions) (*spec.Contract, error) {
	if path == "" {
		return spec.Default()
	}
	c, err := o.ReadFileContext(ctx, path)
	if err != nil {
		return nil, usagef("--spec: %v", err)
	}
	return c, nil
}

// startingItems are the items the stores start with and return to on
// reset: those of the fixture file, or a generated catalogue. A resource
// the fixture does not name starts with the generated catalogue's items,
// as a resource any file loaded leaves out holds its starting items.
func startingItems(o options, c *spec.Contract) (catalogue.Items, *catalogue.Seeded, error) {
	cat := &catalogue.Seeded{Seed: o.seed, Count: o.pets}
	if o.fixtures != "" {
		items, err := readFixtureFile(c, o.fixtures)
		if err != nil {
			return nil, nil, usagef("--fixtures %v", err)
		}
		if len(items) == len(c.Resources) || o.pets == 0 {
			return items, nil, nil
		}
		generated, err := catalogue.Generate(c, *cat)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range c.Resources {
			if _, named := items[r.Name]; !named {
				items[r.Name] = generated[r.Name]
			}
		}
		return items, nil, nil
	}
	if o.pets == 0 {
		return catalogue.Items{}, nil, nil
	}
	return nil, cat, nil
}

// readFixtureFile reads and checks the fixture in a file. It is more than
// a wrapper of catalogue.ReadFixture: its errors begin with the file's
// name, which ReadFixture, given a reader, does not know.
func readFixtureFile(c *spec.Contract, path string) (catalogue.Items, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	items, err := catalogue.ReadFixture(c, f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return items, nil
}

// adminKeys are the keys of --admin-key: none when it is not given.
func adminKeys(key string) []string {
	if key == "" {
		return nil
	}
	return []string{key}
}

// controlHosts are the names the control plane answers as Host: those of
// --allow-host, and the name --addr listens on, when it is one.
func controlHosts(o options) []string {
	hosts := o.allowHosts
	if host, _, err := net.SplitHostPort(o.addr); err == nil && host != "" && net.ParseIP(host) == nil {
		hosts = append(hosts, host)
	}
	return hosts
}

// proxyNote is what the start line says of a backend petmock proxies to:
// nothing when there is none.
func proxyNote(backend string) string {
	if backend == "" {
		return ""
	}
	return "; proxying to " + backend + ", checking its answers against the document"
}

// startLine is the one line petmock prints when it is ready: where it
// serves, and the key to use, and the version the document was converted
// from, if it was. A key the user chose is not printed; the published one
// is, with what it means.
func startLine(addr net.Addr, base, convertedFrom string, keys []string, adminKey string) string {
	host, port, _ := net.SplitHostPort(addr.String())
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	url := "http://" + net.JoinHostPort(host, port) + base
	if convertedFrom != "" {
		url += " (converted from " + convertedFrom + ")"
	}
	apiKeys := "the " + strconv.Itoa(len(keys)) + " API key(s) you set"
	if len(keys) == 0 {
		apiKeys = "API key " + mockserver.DefaultAPIKey
	}
	line := "petmock serving " + url + " with " + apiKeys
	switch {
	case adminKey == mockserver.DefaultAPIKey || adminKey == "" && len(keys) == 0:
		return line + "; the admin API takes " + mockserver.DefaultAPIKey +
			", the published default key, so any program on this machine can steer petmock: set --admin-key to keep it yours"
	case adminKey != "":
		return line + "; the admin API takes only the admin key you set"
	}
	return line
}
