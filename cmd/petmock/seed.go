package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/cmd/internal/cli"
	"github.com/petstore/contract/spec"
)

// seedOptions are the settings of petmock seed.
type seedOptions struct {
	baseURL     string
	apiKey      string
	spec        string // the document's file; "" for the embedded one
	resource    string // the resource to create items of; "" for the document's first
	from        string
	catalogue   catalogue.Seeded
	concurrency int
	retries     int
	timeout     time.Duration
	dryRun      bool
}

// seedUsage heads the --help of petmock seed.
const seedUsage = "Usage: petmock seed --base-url URL [--api-key KEY] (--from FILE | --count N) [flags]\n"

// seedAliases name the flag of petmock seed that a user who types another
// word probably means.
var seedAliases = map[string]string{
	"url": "base-url", "base": "base-url", "server": "base-url",
	"key": "api-key", "token": "api-key",
	"file": "from", "fixture": "from", "fixtures": "from", "input": "from",
	"pets": "count", "n": "count",
	"parallel": "concurrency", "workers": "concurrency", "jobs": "concurrency",
}

// parseSeedOptions reads the flags of petmock seed. --help writes the
// usage to stdout.
func parseSeedOptions(args []string, getenv func(string) string, stdout io.Writer) (seedOptions, error) {
	o := seedOptions{
		apiKey:      getenv("PETSTORE_API_KEY"),
		catalogue:   catalogue.Seeded{Seed: catalogue.DefaultSeed},
		concurrency: 1, // keeps the order of the items, and so their ids
		retries:     5,
		timeout:     10 * time.Second,
	}
	fs := flag.NewFlagSet("petmock seed", flag.ContinueOnError)
	fs.StringVar(&o.baseURL, "base-url", "", "base `URL` of the deployment, ending in /v1")
	fs.StringVar(&o.apiKey, "api-key", o.apiKey, "API `key` (default $PETSTORE_API_KEY)")
	fs.StringVar(&o.spec, "spec", "", "the OpenAPI document in this `file` describes the deployment (default: the built-in one)")
	fs.StringVar(&o.resource, "resource", "", "create items of this `resource` (default: the document's first, pets in the Petstore)")
	fs.StringVar(&o.from, "from", "", "create the items of this fixture `file` (their ids are not sent)")
	fs.IntVar(&o.catalogue.Count, "count", 0, "create this `number` of generated items instead")
	fs.Uint64Var(&o.catalogue.Seed, "seed", o.catalogue.Seed, "seed of the generated items")
	fs.Func("status-mix", "weights of the values of the status property of generated items, such as 60:30:10", func(v string) error {
		mix, err := parseMix(v)
		o.catalogue.StatusMix = mix
		return err
	})
	fs.IntVar(&o.concurrency, "concurrency", o.concurrency, "requests in flight at once; more is faster, but the items are then created out of order, and get other ids")
	fs.IntVar(&o.retries, "retries", o.retries, "retries of a request answered 429 or 5xx, or not answered")
	fs.DurationVar(&o.timeout, "timeout", o.timeout, "timeout of each request")
	fs.BoolVar(&o.dryRun, "dry-run", false, "show the requests without sending them")
	if err := parseFlags(fs, args, seedAliases, seedUsage, stdout); err != nil {
		return o, err
	}
	u, err := url.Parse(o.baseURL)
	switch {
	case o.baseURL == "":
		return o, usagef("--base-url is required")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return o, usagef("--base-url %q: want an http or https URL such as https://staging.example/v1", o.baseURL)
	case (o.from == "") == (o.catalogue.Count == 0):
		return o, usagef("give either --from FILE or --count N")
	case o.catalogue.Count < 0:
		return o, usagef("--count %d: must be positive", o.catalogue.Count)
	case o.apiKey == "" && !o.dryRun:
		return o, usagef("--api-key or PETSTORE_API_KEY is required")
	case o.concurrency < 1:
		return o, usagef("--concurrency %d: must be at least 1", o.concurrency)
	case o.retries < 0:
		return o, usagef("--retries %d: must not be negative", o.retries)
	case o.timeout <= 0:
		return o, usagef("--timeout %s: must be positive", o.timeout)
	}
	o.baseURL = strings.TrimSuffix(o.baseURL, "/")
	return o, nil
}

// seed loads a catalogue into a deployment through the create operation of
// one resource only.
func seed(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	o, err := parseSeedOptions(args, getenv, stdout)
	if err != nil {
		return err
	}
	contract, err := readContract(o.spec)
	if err != nil {
		return err
	}
	res, err := seedResource(contract, o.resource)
	if err != nil {
		return err
	}
	bodies, err := seedBodies(o, contract, res)
	if err != nil {
		return err
	}
	target := o.baseURL + res.CollectionPath
	if o.dryRun {
		for _, b := range bodies {
			fmt.Fprintf(stdout, "POST %s %s\n", target, b.json)
		}
		fmt.Fprintf(stdout, "dry run: would create %d %s\n", len(bodies), res.Name)
		return nil
	}

	client := &http.Client{
		Timeout: o.timeout,
		// The key must not follow a redirect to wherever it leads.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	if err := checkBaseURL(ctx, client, o, res); err != nil {
		return err
	}
	s := &seeder{opts: o, op: res.CreateOp, target: target, client: client, progress: newProgress(stderr, len(bodies), res.Name)}
	result := s.run(ctx, bodies)
	s.progress.done()
	fmt.Fprintf(stdout, "created %d, skipped %d, failed %d of %d %s\n", result.created, result.skipped, result.failed, len(bodies), res.Name)
	for _, msg := range result.problems {
		fmt.Fprintln(stdout, "  "+msg)
	}
	if result.failed > 0 || result.skipped > 0 {
		return fmt.Errorf("%d %s failed and %d were skipped", result.failed, res.Name, result.skipped)
	}
	return nil
}

// seedResource returns the resource to create items of: the one named, or
// the first of the document whose collection path has no parameter.
func seedResource(c *spec.Contract, name string) (*spec.Resource, error) {
	for _, r := range c.Resources {
		if (name == "" || r.Name == name) && len(r.ParentParams) == 0 {
			return r, nil
		}
	}
	if name != "" {
		return nil, usagef("--resource %q: the document has no such resource, or its path has parameters", name)
	}
	return nil, usagef("the document has no resource to create items of")
}

// seedBody is the body of one create request, and how to name its item.
type seedBody struct {
	json  []byte
	label string
}

// seedBodies returns the create bodies of the items to load: those of the
// fixture file, or generated ones.
func seedBodies(o seedOptions, c *spec.Contract, res *spec.Resource) ([]seedBody, error) {
	var items []json.RawMessage
	if o.from == "" {
		all, err := catalogue.Generate(c, o.catalogue)
		if err != nil {
			return nil, usageError{err}
		}
		items = all[res.Name]
	} else {
		all, err := readFixtureFile(c, o.from)
		if err != nil {
			return nil, usagef("--from %v", err)
		}
		items = all[res.Name]
	}
	out := make([]seedBody, 0, len(items))
	for i, item := range items {
		b, err := catalogue.CreateBody(c, res, item)
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: %w", res.Name, i, err)
		}
		label := fmt.Sprintf("%s[%d]", res.Name, i)
		var named struct{ Name string }
		if json.Unmarshal(b, &named) == nil && named.Name != "" {
			label = strconv.Quote(named.Name)
		}
		out = append(out, seedBody{json: b, label: label})
	}
	return out, nil
}

// seeder sends create requests with bounded concurrency.
type seeder struct {
	opts     seedOptions
	op       *spec.Operation // the create operation
	target   string          // the URL of the collection
	client   *http.Client
	progress *progress
}

// seedResult counts what happened to the pets. A pet is skipped when the
// run stopped before it was sent, or while it was in flight.
type seedResult struct {
	created, skipped, failed int
	problems                 []string // the first few, to show
}

// outcome is what happened to one pet.
type outcome int

const (
	created outcome = iota
	failed          // refused for itself, such as a 400: the run goes on
	stopped         // the deployment cannot take more: the run stops
	skipped         // not sent, or its fate is unknown
)

func (s *seeder) run(ctx context.Context, bodies []seedBody) seedResult {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	jobs := make(chan int)
	var mu sync.Mutex // guards res
	var res seedResult
	note := func(o outcome, msg string) {
		mu.Lock()
		defer mu.Unlock()
		switch o {
		case created:
			res.created++
		case failed, stopped:
			res.failed++
		case skipped:
			res.skipped++
		}
		if msg != "" && len(res.problems) < 10 {
			res.problems = append(res.problems, msg)
		}
		s.progress.update(res.created, res.failed, res.skipped)
	}
	var wg sync.WaitGroup
	for range s.opts.concurrency {
		wg.Go(func() {
			for i := range jobs {
				o, msg := s.create(ctx, bodies[i])
				if o == stopped {
					stop()
				}
				note(o, msg)
			}
		})
	}
	sent := 0
	for ; sent < len(bodies); sent++ {
		select {
		case jobs <- sent:
			continue
		case <-ctx.Done():
		}
		break
	}
	close(jobs)
	wg.Wait()
	for range len(bodies) - sent {
		note(skipped, "")
	}
	return res
}

// create sends one create request, retrying 429, 5xx and transport
// failures with exponential back-off, honouring Retry-After.
func (s *seeder) create(ctx context.Context, b seedBody) (outcome, string) {
	body := b.json
	backoff := 200 * time.Millisecond
	for attempt := 0; ; attempt++ {
		if ctx.Err() != nil {
			return skipped, ""
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.target, bytes.NewReader(body))
		if err != nil {
			return stopped, err.Error()
		}
		presentKey(req, s.op, s.opts.apiKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := s.client.Do(req)
		var status int
		var answer []byte
		var wait time.Duration
		if err == nil {
			answer, _ = io.ReadAll(io.LimitReader(resp.Body, 512))
			resp.Body.Close()
			status = resp.StatusCode
			wait = cli.RetryAfter(resp.Header, time.Now(), maxRetryWait)
		}
		// What a deployment answers may repeat the key: it is never shown.
		shown := strings.TrimSpace(cli.RedactKey(string(answer), s.opts.apiKey))
		switch {
		case err != nil && ctx.Err() != nil:
			return skipped, ""
		case status >= 200 && status < 300:
			return created, ""
		case status == http.StatusUnauthorized || status == http.StatusForbidden:
			return stopped, fmt.Sprintf("%q: %d %s; stopping, the key is not accepted", b.label, status, shown)
		case status >= 300 && status < 500 && status != http.StatusTooManyRequests:
			// A redirect is not followed: the key would go with it.
			return failed, fmt.Sprintf("%q: %d %s", b.label, status, shown)
		}
		// 429, 5xx, or no answer: retry.
		what := fmt.Sprintf("%d %s", status, shown)
		if err != nil {
			what = cli.RedactKey(err.Error(), s.opts.apiKey)
		}
		if attempt == s.opts.retries {
			return stopped, fmt.Sprintf("%q: %s; stopping after %d retries", b.label, what, s.opts.retries)
		}
		if resp == nil || resp.Header.Get("Retry-After") == "" {
			wait = backoff
			backoff = min(2*backoff, 5*time.Second)
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return skipped, ""
		}
	}
}

// maxRetryWait bounds the wait a Retry-After asks for.
const maxRetryWait = 30 * time.Second

// presentKey sets key on req as the first security requirement of op
// asks: a bearer token, HTTP basic credentials, or an API key in a header,
// the query or a cookie. A public operation gets none.
func presentKey(req *http.Request, op *spec.Operation, key string) {
	if len(op.Requirements) == 0 {
		return
	}
	for _, s := range op.Requirements[0] {
		s.Present(req, key)
	}
}
