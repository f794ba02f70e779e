// Command petbench measures petmock against the performance targets, with
// one command from the root of the repository:
//
//	go run ./cmd/petbench
//
// It builds petmock and the conformance CLI, installs the wrk load
// generator if it is missing (with apt-get), and compares petmock with a
// static Go handler that writes the same bytes, in the same run, with the
// same load, and a backend behind petmock --proxy with the same backend
// called directly. It prints requests/s, p50 and p99 latency and the ratio for
// each target, and exits 1 if one is missed. Ratios measured in one run
// repeat across machines far better than absolute figures do.
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
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errMissed):
		os.Exit(1)
	default:
		fmt.Fprintln(os.Stderr, "petbench:", err)
		os.Exit(2)
	}
}

// errMissed reports that a target was missed; the table says which.
var errMissed = errors.New("a target was missed")
