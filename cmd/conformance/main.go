// Command conformance judges a deployment of an OpenAPI document, the
// Petstore's unless --spec names another, against the document.
//
//	go run ./cmd/conformance --base-url https://staging.example/v1 --api-key "$PETSTORE_API_KEY"
//
// It exits 0 when every check passes, 1 when a check fails or the run
// stopped early, and 2 when the run could not judge: a usage error, a base
// URL that cannot be reached or answers with an HTML page, or a key
// refused in every form. Run it with -h for the flags.
//
// Its subcommand diff compares two versions of the contract instead, and
// says which changes break clients of the older:
//
//	go run ./cmd/conformance diff old.yaml spec/openapi.yaml
//
// It exits 0 when nothing breaks, 1 when a change does, and 2 on a usage
// error or a document that cannot be read.
//
// Its subcommand replay sends the requests an app made against petmock, as
// its journal kept them, to a deployment, and judges each answer:
//
//	go run ./cmd/conformance replay journal.json --base-url https://staging.example/v1
//
// It exits 0 when every answer is one the document allows, 1 when one is
// not, and 2 on a usage error or a file that is no journal.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "diff" {
		exit(runDiff(os.Args[2:], os.Getenv, os.Stdin, os.Stdout, os.Stderr))
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "replay" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		exit(runReplay(ctx, os.Args[2:], os.Getenv, os.Stdin, os.Stdout, os.Stderr))
		return
	}
	// A run keeps its memory within this, whatever a deployment sends:
	// the suite bounds what it reads and judges, and the collector works
	// harder near the limit.
	debug.SetMemoryLimit(memoryLimit)
	// The first SIGINT or SIGTERM ends the run at once, the report
	// written: while the document loads or the preflight waits, run
	// returns on ctx; while checks run, Ginkgo stops the one under way and
	// runs nothing after it. A second one stops the process without
	// waiting, even for a report being written.
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-signals
		stop()
		<-signals
		fmt.Fprintln(os.Stderr, "conformance: stopped by a second signal; the report may be incomplete")
		os.Exit(1)
	}()
	exit(run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

// exit ends the process with the status err calls for, saying why on
// standard error unless the report has said it.
func exit(err error) {
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errChecksFailed), errors.Is(err, errBreaking), errors.Is(err, errReplayFailed):
		os.Exit(1)
	case errors.As(err, new(usageError)):
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}
}

// memoryLimit is the soft limit of a run's memory: 192 MiB, under the
// 256 MiB the README promises.
const memoryLimit = 192 << 20

// errChecksFailed says that the suite ran and at least one check failed;
// the report has said which.
var errChecksFailed = errors.New("checks failed")

// usageError is a mistake in the command line or the environment, or a
// base URL that cannot be reached: nothing was judged.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}
