// Command petmock serves a stateful mock of the Petstore API.
//
//	go run ./cmd/petmock
//
// serves at http://127.0.0.1:4010/v1 with the development key
// petmock-dev-key. Run it with -h for the flags; each has an environment
// variable too.
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
	case errors.As(err, new(usageError)):
		fmt.Fprintln(os.Stderr, "petmock:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "petmock:", err)
		os.Exit(1)
	}
}

// usageError is a mistake in the command line or the environment.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}
