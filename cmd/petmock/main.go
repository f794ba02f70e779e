// Command petmock serves a stateful mock of the Petstore API.
//
//	go run ./cmd/petmock
//
// serves at http://127.0.0.1:4010/v1 with the development key
// petmock-dev-key. Run it with --help for the flags; each has an environment
// variable too.
//
//	petmock fixtures --seed 7 --count 200 > catalogue.json
//	petmock seed --base-url URL --api-key KEY --from catalogue.json
//
// write a deterministic catalogue, and load one into any deployment.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitStatus(err, os.Stderr))
}

// exitStatus reports err on stderr, in one line, and returns the status
// to exit with: 2 for a mistake in the command line or the environment, 1
// for any other error, and 0 for none or for --help, whose usage run has
// written already.
func exitStatus(err error, stderr io.Writer) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(usageError)):
		fmt.Fprintln(stderr, "petmock:", err)
		return 2
	default:
		fmt.Fprintln(stderr, "petmock:", err)
		return 1
	}
}

// run runs the subcommand named by args[0], or the server.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "fixtures":
			return fixtures(args[1:], stdout)
		case "seed":
			return seed(ctx, args[1:], getenv, stdout, stderr)
		}
	}
	return serve(ctx, args, getenv, stdout, stderr)
}

// usageError is a mistake in the command line or the environment.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}
