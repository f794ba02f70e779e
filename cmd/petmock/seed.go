package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/petstore/contract/mockserver"
)

// seedOptions are the settings of petmock seed.
type seedOptions struct {
	baseURL     string
	apiKey      string
	from        string
	catalogue   mockserver.Catalogue
	concurrency int
	retries     int
	timeout     time.Duration
	dryRun      bool
}

func parseSeedOptions(args []string, getenv func(string) string, stderr io.Writer) (seedOptions, error) {
	o := seedOptions{
		apiKey:      getenv("PETSTORE_API_KEY"),
		catalogue:   mockserver.Catalogue{Seed: mockserver.DefaultSeed},
		concurrency: 4,
		retries:     5,
		timeout:     10 * time.Second,
	}
	fs := flag.NewFlagSet("petmock seed", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.baseURL, "base-url", "", "base `URL` of the deployment, ending in /v1")
	fs.StringVar(&o.apiKey, "api-key", o.apiKey, "API `key` (default $PETSTORE_API_KEY)")
	fs.StringVar(&o.from, "from", "", "create the pets of this fixture `file` (their ids are not sent)")
	fs.IntVar(&o.catalogue.Count, "count", 0, "create this `number` of generated pets instead")
	fs.Uint64Var(&o.catalogue.Seed, "seed", o.catalogue.Seed, "seed of the generated pets")
	fs.Func("status-mix", "weights of available:pending:sold for generated pets, such as 60:30:10", func(v string) error {
		mix, err := parseMix(v)
		o.catalogue.StatusMix = mix
		return err
	})
	fs.IntVar(&o.concurrency, "concurrency", o.concurrency, "requests in flight at once")
	fs.IntVar(&o.retries, "retries", o.retries, "retries of a request answered 429 or 5xx, or not answered")
	fs.DurationVar(&o.timeout, "timeout", o.timeout, "timeout of each request")
	fs.BoolVar(&o.dryRun, "dry-run", false, "show the requests without sending them")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: petmock seed --base-url URL [--api-key KEY] (--from FILE | --count N) [flags]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, usageError{err}
	}
	u, err := url.Parse(o.baseURL)
	switch {
	case fs.NArg() > 0:
		return o, usagef("unexpected argument %q", fs.Arg(0))
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

// seed loads a catalogue into a deployment through createPet only.
func seed(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	o, err := parseSeedOptions(args, getenv, stderr)
	if err != nil {
		return err
	}
	pets, err := seedPets(o)
	if err != nil {
		return err
	}
	if o.dryRun {
		for _, p := range pets {
			fmt.Fprintf(stdout, "POST %s/pets %s\n", o.baseURL, newPetJSON(p))
		}
		fmt.Fprintf(stdout, "dry run: would create %d pets\n", len(pets))
		return nil
	}

	client := &http.Client{
		Timeout: o.timeout,
		// The key must not follow a redirect to wherever it leads.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	s := &seeder{opts: o, client: client, progress: newProgress(stderr, len(pets))}
	res := s.run(ctx, pets)
	s.progress.done()
	fmt.Fprintf(stdout, "created %d, skipped %d, failed %d of %d pets\n", res.created, res.skipped, res.failed, len(pets))
	for _, msg := range res.problems {
		fmt.Fprintln(stdout, "  "+msg)
	}
	if res.failed > 0 || res.skipped > 0 {
		return fmt.Errorf("%d pets failed and %d were skipped", res.failed, res.skipped)
	}
	return nil
}

func seedPets(o seedOptions) ([]mockserver.Pet, error) {
	if o.from == "" {
		pets, err := mockserver.Generate(o.catalogue)
		if err != nil {
			return nil, usageError{err}
		}
		return pets, nil
	}
	f, err := os.Open(o.from)
	if err != nil {
		return nil, usageError{err}
	}
	defer f.Close()
	pets, err := mockserver.ReadFixture(f)
	if err != nil {
		return nil, usagef("--from %s: %v", o.from, err)
	}
	return pets, nil
}

// newPetJSON is the createPet body for p: its id is the server's to give.
func newPetJSON(p mockserver.Pet) []byte {
	b, _ := json.Marshal(struct {
		Name       string `json:"name"`
		CategoryID int64  `json:"categoryId"`
		Status     string `json:"status,omitempty"`
	}{p.Name, p.CategoryID, p.Status})
	return b
}

// seeder sends createPet requests with bounded concurrency.
type seeder struct {
	opts     seedOptions
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

func (s *seeder) run(ctx context.Context, pets []mockserver.Pet) seedResult {
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
				o, msg := s.create(ctx, pets[i])
				if o == stopped {
					stop()
				}
				note(o, msg)
			}
		})
	}
	sent := 0
	for ; sent < len(pets); sent++ {
		select {
		case jobs <- sent:
			continue
		case <-ctx.Done():
		}
		break
	}
	close(jobs)
	wg.Wait()
	for range len(pets) - sent {
		note(skipped, "")
	}
	return res
}

// create sends one createPet, retrying 429, 5xx and transport failures
// with exponential back-off, honouring Retry-After.
func (s *seeder) create(ctx context.Context, p mockserver.Pet) (outcome, string) {
	body := newPetJSON(p)
	backoff := 200 * time.Millisecond
	for attempt := 0; ; attempt++ {
		if ctx.Err() != nil {
			return skipped, ""
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.opts.baseURL+"/pets", bytes.NewReader(body))
		if err != nil {
			return stopped, err.Error()
		}
		req.Header.Set("Authorization", "Bearer "+s.opts.apiKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := s.client.Do(req)
		var status int
		var answer []byte
		var wait time.Duration
		if err == nil {
			answer, _ = io.ReadAll(io.LimitReader(resp.Body, 512))
			resp.Body.Close()
			status = resp.StatusCode
			wait = retryAfter(resp.Header.Get("Retry-After"))
		}
		// What a deployment answers may repeat the key: it is never shown.
		shown := strings.TrimSpace(strings.ReplaceAll(string(answer), s.opts.apiKey, "[redacted]"))
		switch {
		case err != nil && ctx.Err() != nil:
			return skipped, ""
		case status >= 200 && status < 300:
			return created, ""
		case status == http.StatusUnauthorized || status == http.StatusForbidden:
			return stopped, fmt.Sprintf("%q: %d %s; stopping, the key is not accepted", p.Name, status, shown)
		case status >= 300 && status < 500 && status != http.StatusTooManyRequests:
			// A redirect is not followed: the key would go with it.
			return failed, fmt.Sprintf("%q: %d %s", p.Name, status, shown)
		}
		// 429, 5xx, or no answer: retry.
		what := fmt.Sprintf("%d %s", status, shown)
		if err != nil {
			what = strings.ReplaceAll(err.Error(), s.opts.apiKey, "[redacted]")
		}
		if attempt == s.opts.retries {
			return stopped, fmt.Sprintf("%q: %s; stopping after %d retries", p.Name, what, s.opts.retries)
		}
		if wait == 0 {
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

// retryAfter reads a Retry-After in seconds, capped at 30 s. An HTTP-date
// or nothing gives 0.
func retryAfter(v string) time.Duration {
	secs, err := strconv.Atoi(v)
	if err != nil || secs < 0 {
		return 0
	}
	return min(time.Duration(secs)*time.Second, 30*time.Second)
}
