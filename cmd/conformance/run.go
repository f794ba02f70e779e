package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"strings"
	"time"

	"github.com/petstore/contract/cmd/internal/cli"
	"github.com/petstore/contract/conformance"
	"github.com/petstore/contract/spec"
)

// keyEnv is the environment variable that holds the API key when
// --api-key is not given. Failure reports show requests with it.
const keyEnv = "PETSTORE_API_KEY"

// readableKeyLen is the shortest key whose redaction leaves reports
// readable. Every occurrence of the key's text is replaced, so a key of a
// few characters is replaced inside ordinary words too.
const readableKeyLen = 8

// options are the settings of one run, from the command line.
type options struct {
	cfg         conformance.Config
	specFile    string
	junitReport string
	labelFilter string
	verbose     bool
	noColor     bool
	seed        int64
	settle      time.Duration
	recheck     time.Duration
	runTimeout  time.Duration
}

// DefaultRunTimeout bounds a whole run: a full run against a deployment
// that answers in time takes well under a minute, and one that answers
// every request just inside --timeout stops here rather than after
// Ginkgo's hour.
const DefaultRunTimeout = 10 * time.Minute

// flagAliases are the flags meant by words a user may try instead.
var flagAliases = map[string]string{
	"url": "base-url", "base": "base-url", "key": "api-key", "token": "api-key", "junit": "junit-report",
	"report": "junit-report", "readonly": "read-only", "verbose": "v", "nocolor": "no-color", "filter": "label-filter",
}

// parseOptions reads the flags in args. The API key comes from --api-key,
// or else from PETSTORE_API_KEY. It uses a FlagSet of its own: Ginkgo's
// flags live on flag.CommandLine and are not the command's.
func parseOptions(args []string, getenv func(string) string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("conformance", flag.ContinueOnError)
	fs.StringVar(&o.cfg.BaseURL, "base-url", "", "`URL` of the deployment, with the version segment, such as https://petstore.example.com/v1 (required)")
	fs.StringVar(&o.cfg.APIKey, "api-key", "", "API `key`, sent as a bearer token and never printed (default $"+keyEnv+")")
	fs.BoolVar(&o.cfg.ReadOnly, "read-only", false, "send no request that can change state: for production")
	fs.BoolVar(&o.cfg.Strict, "strict", false, "also hold the server to petmock's gap decisions")
	fs.IntVar(&o.cfg.MaxCreates, "max-creates", conformance.DefaultMaxCreates, "at most `N` POST requests in the run")
	fs.DurationVar(&o.cfg.Timeout, "timeout", conformance.DefaultTimeout, "time allowed for each request, from sending it to the last byte of the answer")
	fs.DurationVar(&o.settle, "settle", conformance.DefaultSettle, "time a created item may take to show in its read and its list; 0 reads once")
	fs.DurationVar(&o.recheck, "recheck", conformance.DefaultRecheck, "age of the earliest item the run created when the items it left alone are read again at its end; 0 reads them without waiting")
	fs.DurationVar(&o.runTimeout, "run-timeout", DefaultRunTimeout, "time allowed for the whole run; past it the checks left do not run, and the run fails")
	fs.StringVar(&o.specFile, "spec", "", "judge against the OpenAPI document in `FILE` instead of the built-in one")
	fs.StringVar(&o.junitReport, "junit-report", "", "write a JUnit XML report to `FILE`")
	fs.StringVar(&o.labelFilter, "label-filter", "", "run only the checks whose labels match the Ginkgo label `expression`, such as 'auth || limit'")
	fs.BoolVar(&o.verbose, "v", false, "report every check, not only the failures")
	fs.BoolVar(&o.noColor, "no-color", false, "print no colour codes; none are printed anyway when standard output is not a terminal, or NO_COLOR is set")
	fs.Int64Var(&o.seed, "seed", 0, "random `seed` of the run; the report prints it, so a run can be repeated (default: from the clock)")
	if err := cli.Parse(fs, args, flagAliases); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "Usage: conformance --base-url URL [flags]\n\n%s Exit status: 0 all checks passed, 1 a check failed or the run stopped early, 2 the run could not judge: the command line, a base URL that cannot be reached or answers with an HTML page, or a key the deployment refuses in every form.\n\nTo compare two versions of the document instead: conformance diff OLD NEW (see conformance diff -h). To replay the requests of an app's journal against a deployment: conformance replay FILE --base-url URL (see conformance replay -h).\n\nFlags:\n", judges(args))
			cli.PrintDefaults(fs, stderr)
			return o, err
		}
		return o, usageError{err}
	}
	if fs.NArg() > 0 {
		return o, usagef("unexpected argument %q", fs.Arg(0))
	}
	if o.cfg.APIKey == "" {
		o.cfg.APIKey = getenv(keyEnv)
	}
	switch {
	case o.cfg.BaseURL == "":
		return o, usagef("--base-url is required, such as --base-url https://petstore.example.com/v1")
	case o.cfg.APIKey == "":
		return o, usagef("no API key: pass --api-key or set %s", keyEnv)
	case o.cfg.MaxCreates < 1:
		return o, usagef("--max-creates %d: must be at least 1; use --read-only to create nothing", o.cfg.MaxCreates)
	case o.cfg.Timeout <= 0:
		return o, usagef("--timeout %v: must be positive", o.cfg.Timeout)
	case o.settle < 0:
		return o, usagef("--settle %v: must not be negative", o.settle)
	case o.recheck < 0:
		return o, usagef("--recheck %v: must not be negative", o.recheck)
	case o.runTimeout <= 0:
		return o, usagef("--run-timeout %v: must be positive", o.runTimeout)
	}
	o.cfg.Settle = o.settle
	if o.settle == 0 {
		o.cfg.Settle = -1 // read once
	}
	o.cfg.Recheck = o.recheck
	if o.recheck == 0 {
		o.cfg.Recheck = -1 // read at the end, without waiting
	}
	if err := conformance.CheckLabelFilter(o.labelFilter); err != nil {
		return o, usagef("--label-filter %q: %v", o.labelFilter, err)
	}
	return o, nil
}

// judges says what a run of args judges, naming the document by its own
// title: the one --spec names, where args name one that reads, or the
// built-in one.
func judges(args []string) string {
	file := ""
	for i, a := range args {
		switch name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "="); {
		case name != "spec" || !strings.HasPrefix(a, "-"):
		case hasValue:
			file = value
		case i+1 < len(args):
			file = args[i+1]
		}
	}
	if file == "" {
		return fmt.Sprintf("Judges a deployment of %s, the built-in document, or of the OpenAPI document --spec FILE names, against its document.", title(spec.Default()))
	}
	c, err := spec.ReadFile(file)
	if err != nil {
		return fmt.Sprintf("Judges a deployment of the OpenAPI document %s against it.", file)
	}
	return fmt.Sprintf("Judges a deployment of %s (%s) against its OpenAPI document.", title(c, nil), file)
}

// title returns the title of the document of c, or says that it has none.
func title(c *spec.Contract, err error) string {
	if err != nil || c.Doc.Info == nil || strings.TrimSpace(c.Doc.Info.Title) == "" {
		return "a document without a title"
	}
	return strings.TrimSpace(c.Doc.Info.Title)
}

// errInterrupted says that a signal ended the run before any check ran.
var errInterrupted = errors.New("stopped by a signal before any check ran; nothing was judged")

// loadContract reads the document of --spec, if any, and checks that the
// checks can be made of it. A document may take long to read, a large one
// or one on a slow disk or a pipe: the first signal, which cancels ctx,
// ends the wait at once.
func loadContract(ctx context.Context, o *options) error {
	if o.specFile != "" {
		type read struct {
			c   *spec.Contract
			err error
		}
		done := make(chan read, 1)
		go func() {
			c, err := spec.ReadFile(o.specFile)
			done <- read{c, err}
		}()
		select {
		case r := <-done:
			if r.err != nil {
				return usagef("--spec: %v", r.err)
			}
			o.cfg.Contract = r.c
		case <-ctx.Done():
			return errInterrupted
		}
	}
	if err := o.cfg.Validate(); err != nil {
		return usageError{err}
	}
	return nil
}

// run judges the deployment the flags name. It returns errChecksFailed if
// a check failed, and a usageError if nothing could be judged.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	o, err := parseOptions(args, getenv, stderr)
	if err != nil {
		return err
	}
	if err := loadContract(ctx, &o); err != nil {
		return err
	}
	if len(o.cfg.APIKey) < readableKeyLen {
		fmt.Fprintf(stderr, "conformance: warning: the API key is shorter than %d characters; reports show $%s wherever its text appears, even inside other words, so they will be hard to read\n", readableKeyLen, keyEnv)
	}
	// net/http logs through the standard logger, for instance the bytes a
	// server sends beyond its Content-Length, which may echo the key.
	defer redactLog(o.cfg.APIKey, stderr)()
	preflightCtx, cancel := context.WithTimeout(ctx, o.cfg.Timeout+time.Second)
	defer cancel()
	note, err := conformance.Preflight(preflightCtx, o.cfg)
	if ctx.Err() != nil {
		return errInterrupted
	}
	if err != nil {
		// Nothing can be judged: the base URL cannot be reached, or the
		// answer shows a mistake of the setup, which every check would
		// only blame on the deployment.
		return usagef("preflight: %v", err)
	}
	fmt.Fprintln(stdout, "conformance: preflight:", note)

	o.cfg.JUnitReport = o.junitReport
	o.cfg.Output = stdout
	passed, err := conformance.Run(o.cfg, conformance.RunOptions{
		LabelFilter: o.labelFilter,
		Seed:        o.seed,
		Randomize:   true,
		Timeout:     o.runTimeout,
		NoColor:     o.noColor || getenv("NO_COLOR") != "" || !cli.IsTerminal(stdout),
		Verbose:     o.verbose,
	})
	switch {
	case err != nil:
		return usageError{err}
	case !passed:
		return errChecksFailed
	}
	return nil
}

// redactLog sends what the standard logger prints to w, with the API key
// replaced by $PETSTORE_API_KEY, and returns a function that restores the
// logger's output.
func redactLog(key string, w io.Writer) (restore func()) {
	prev := log.Writer()
	log.SetOutput(keyRedactor{w: w, key: key})
	return func() { log.SetOutput(prev) }
}

// keyRedactor writes to w with key replaced by $PETSTORE_API_KEY. The
// standard logger writes each line in one call, so a key is never split.
type keyRedactor struct {
	w   io.Writer
	key string
}

func (r keyRedactor) Write(p []byte) (int, error) {
	if _, err := io.WriteString(r.w, cli.RedactKey(string(p), r.key)); err != nil {
		return 0, err
	}
	return len(p), nil
}
