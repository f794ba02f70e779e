// Command conformance judges a Petstore deployment against the contract.
//
//	go run ./cmd/conformance --base-url https://staging.example/v1 --api-key "$PETSTORE_API_KEY"
//
// It exits 0 when every check passes, 1 when a check fails, and 2 on a
// usage error or when the base URL cannot be reached at all. Run it with -h
// for the flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errChecksFailed):
		os.Exit(1)
	case errors.As(err, new(usageError)):
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(1)
	}
}

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
