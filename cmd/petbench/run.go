package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// bench holds what a run needs: the binaries, wrk and a scratch directory.
type bench struct {
	o       options
	wrk     string
	petmock string
	judge   string // the conformance CLI
	self    string // this binary, for the baseline
	scratch string
	// headers, when not nil, carry the key instead of the Petstore's
	// bearer token (see credentials).
	headers []string
	log     func(string, ...any)
}

// run measures every target, or serves a baseline when args name a
// hidden subcommand, static or reverse, as petbench does for itself.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case staticCommand:
			return serveStatic(ctx, args[1:], stdout)
		case reverseCommand:
			return serveReverse(ctx, args[1:], stdout)
		}
	}
	o, err := parseOptions(args, stderr)
	if err != nil {
		return err
	}
	logf := func(format string, a ...any) { fmt.Fprintf(stderr, "petbench: "+format+"\n", a...) }
	scratch, err := os.MkdirTemp("", "petbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	b := &bench{o: o, scratch: scratch, log: logf}
	if b.wrk, err = ensureWrk(ctx, logf); err != nil {
		return err
	}
	if b.self, err = os.Executable(); err != nil {
		return err
	}
	logf("building petmock and conformance")
	b.petmock = filepath.Join(scratch, "petmock")
	b.judge = filepath.Join(scratch, "conformance")
	for bin, pkg := range map[string]string{b.petmock: "./cmd/petmock", b.judge: "./cmd/conformance"} {
		if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s (run petbench from the root of the repository): %v\n%s", pkg, err, out)
		}
	}

	var results []result
	all := []func(context.Context) ([]result, error){b.throughput, b.proxyCost, b.storeSize, b.durability, b.startups, b.conformanceRun}
	var steps []func(context.Context) ([]result, error)
	for i, step := range all {
		if o.only == nil || o.only[stepNames[i]] {
			steps = append(steps, step)
		}
	}
	if o.spec != "" {
		steps = []func(context.Context) ([]result, error){b.documentThroughput}
	}
	for _, step := range steps {
		rs, err := step(ctx)
		if err != nil {
			return err
		}
		results = append(results, rs...)
	}
	fmt.Fprintf(stdout, "\npetbench: wrk -t%d -c%d, %s per run, best of %d runs each, the servers compared loaded in turn\n\n", o.wrk.threads, o.wrk.connections, o.wrk.duration, o.rounds)
	printTable(stdout, results)
	for _, r := range results {
		if !r.met() {
			return errMissed
		}
	}
	return nil
}
