package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// options are petbench's settings.
type options struct {
	wrk     wrkSettings
	rounds  int // runs of each load; the best counts
	startup int // start-ups to time
	million int // the large store
	// spec, when set, is a document whose resource list and generated
	// answer are measured instead of the Petstore's targets.
	spec string
	// only names the steps to run, by stepNames; nil runs them all.
	only map[string]bool
}

// stepNames name the steps of a run, for --only, in the order they run.
var stepNames = []string{"throughput", "proxy", "store", "durability", "startup", "conformance"}

// parseOptions reads petbench's flags over the defaults of a full run, and
// rejects settings wrk or the timings cannot use.
func parseOptions(args []string, stderr io.Writer) (options, error) {
	o := options{wrk: wrkSettings{threads: 1, connections: 32, duration: 10 * time.Second}, rounds: 2, startup: 20, million: 1_000_000}
	fs := flag.NewFlagSet("petbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.DurationVar(&o.wrk.duration, "duration", o.wrk.duration, "length of each load run (whole seconds)")
	fs.IntVar(&o.wrk.connections, "connections", o.wrk.connections, "connections kept open by wrk")
	fs.IntVar(&o.wrk.threads, "threads", o.wrk.threads, "wrk threads")
	fs.IntVar(&o.rounds, "rounds", o.rounds, "load runs of each kind, the servers compared taking turns; the best of them counts, for petmock and the baseline alike")
	fs.IntVar(&o.startup, "startups", o.startup, "start-ups to time")
	fs.StringVar(&o.spec, "spec", "", "measure petmock serving the OpenAPI document in this `file`: a resource's list and an answer generated from the document, each against the baseline, and the one over the other")
	quick := fs.Bool("quick", false, "short runs, for a first look: 3s loads, one round, 5 start-ups")
	fs.Func("only", "run only these `steps`, comma-separated, of "+strings.Join(stepNames, ", "), func(v string) error {
		o.only = map[string]bool{}
		for _, name := range strings.Split(v, ",") {
			if !slices.Contains(stepNames, name) {
				return fmt.Errorf("%q: want steps of %s", name, strings.Join(stepNames, ", "))
			}
			o.only[name] = true
		}
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if *quick {
		o.wrk.duration, o.rounds, o.startup = 3*time.Second, 1, 5
	}
	if o.wrk.duration < time.Second || o.rounds < 1 || o.startup < 1 || o.wrk.connections < 1 || o.wrk.threads < 1 {
		return o, errors.New("--duration must be at least 1s, and --rounds, --startups, --connections and --threads at least 1")
	}
	return o, nil
}
