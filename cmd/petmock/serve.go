package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/petstore/contract/mockserver"
)

// options are petmock's settings, from flags and environment variables.
type options struct {
	addr      string
	apiKeys   []string
	seed      uint64
	pets      int
	logFormat string
}

// envPrefix names the environment variable of each flag: --log-format is
// PETMOCK_LOG_FORMAT. --api-key is PETMOCK_API_KEYS, a comma-separated list.
const envPrefix = "PETMOCK_"

// parseOptions reads the flags in args over the environment over the
// defaults.
func parseOptions(args []string, getenv func(string) string, stderr io.Writer) (options, error) {
	o := options{
		addr:      "127.0.0.1:4010",
		seed:      mockserver.DefaultSeed,
		pets:      mockserver.DefaultPets,
		logFormat: "text",
	}
	fs := flag.NewFlagSet("petmock", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.addr, "addr", o.addr, "`host:port` to listen on")
	fs.Func("api-key", "API `key` to accept as a bearer token; repeat for more (default "+mockserver.DefaultAPIKey+")", func(v string) error {
		o.apiKeys = append(o.apiKeys, v)
		return nil
	})
	fs.Uint64Var(&o.seed, "seed", o.seed, "seed of the generated catalogue; the same seed gives the same pets")
	fs.IntVar(&o.pets, "pets", o.pets, "`number` of pets in the generated catalogue")
	fs.StringVar(&o.logFormat, "log-format", o.logFormat, "request log format, text or json")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: petmock [flags]\n\nServes a stateful mock of the Petstore API.\nEach flag can also be set as %s<FLAG> in the environment (--api-key as %sAPI_KEYS, comma-separated).\n\n", envPrefix, envPrefix)
		fs.PrintDefaults()
	}

	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		name := envPrefix + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if f.Name == "api-key" {
			name = envPrefix + "API_KEYS"
		}
		v := getenv(name)
		if v == "" || envErr != nil {
			return
		}
		if f.Name == "api-key" {
			for _, k := range strings.Split(v, ",") {
				o.apiKeys = append(o.apiKeys, strings.TrimSpace(k))
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
	envKeys := len(o.apiKeys)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, usageError{err}
	}
	if len(o.apiKeys) > envKeys {
		o.apiKeys = o.apiKeys[envKeys:] // flags replace the environment's keys
	}
	if fs.NArg() > 0 {
		return o, usagef("unexpected argument %q", fs.Arg(0))
	}
	if o.pets < 0 {
		return o, usagef("--pets %d: must not be negative", o.pets)
	}
	if o.logFormat != "text" && o.logFormat != "json" {
		return o, usagef("--log-format %q: must be text or json", o.logFormat)
	}
	return o, nil
}

// run serves until ctx is done, then shuts down gracefully: requests in
// flight finish.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	o, err := parseOptions(args, getenv, stderr)
	if err != nil {
		return err
	}
	var logger *slog.Logger
	if o.logFormat == "json" {
		logger = slog.New(slog.NewJSONHandler(stderr, nil))
	} else {
		logger = slog.New(slog.NewTextHandler(stderr, nil))
	}

	pets := []mockserver.Pet{}
	if o.pets > 0 {
		if pets, err = mockserver.Generate(mockserver.Catalogue{Seed: o.seed, Count: o.pets}); err != nil {
			return usageError{err}
		}
	}
	srv, err := mockserver.New(mockserver.Config{APIKeys: o.apiKeys, Pets: pets, Logger: logger})
	if err != nil {
		return usageError{err}
	}

	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		WriteTimeout:      time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	fmt.Fprintln(stdout, startLine(ln.Addr(), o.apiKeys))

	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down; waiting for requests in flight")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// startLine is the one line petmock prints when it is ready: where it
// serves, and the key to use. A key the user chose is not printed.
func startLine(addr net.Addr, keys []string) string {
	host, port, _ := net.SplitHostPort(addr.String())
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	url := "http://" + net.JoinHostPort(host, port) + "/v1"
	if len(keys) == 0 {
		return "petmock serving " + url + " with API key " + mockserver.DefaultAPIKey
	}
	return "petmock serving " + url + " with the " + strconv.Itoa(len(keys)) + " API key(s) you set"
}
