package check

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/petstore/contract/spec"
)

// Defaults of Settings, and so of conformance.Config.
const (
	// DefaultMaxCreates bounds the POST requests of one run. A full run
	// against the Petstore document sends about 60 of them (65 in a
	// strict run), of which a correct server stores about 20: the rest
	// carry invalid bodies or no valid key, and a faulty server might
	// store them all the same. Each resource or operation a document adds
	// takes more.
	DefaultMaxCreates = 200
	// DefaultTimeout bounds each request, from sending it to reading the
	// whole answer.
	DefaultTimeout = 10 * time.Second
	// DefaultSettle is how long a created pet may take to show in getPet
	// and listPets.
	DefaultSettle = 3 * time.Second
	// DefaultRecheck is how old the earliest item the run created is at
	// least when the run reads its items again, at its end: enough for a
	// deployment that loses a write a second or so after taking it, a
	// cache that expires it, to show it; a whole run against petmock takes
	// less than a second, so that any shorter wait lets such a
	// deployment pass.
	DefaultRecheck = 2 * time.Second
)

// Settings say which deployment a run judges and how, as
// conformance.Config does: the zero values of the optional fields are
// documented defaults, which Resolved fills in.
type Settings struct {
	// BaseURL is the address of the deployment, with the version segment,
	// as ParseBaseURL takes it. Required.
	BaseURL string
	// APIKey is the run's key: sent as the document asks, never shown.
	APIKey string
	// Strict also holds the deployment to petmock's gap decisions.
	Strict bool
	// ReadOnly sends no request that can change state.
	ReadOnly bool
	// MaxCreates bounds the POST requests of the run. Zero means
	// DefaultMaxCreates.
	MaxCreates int
	// Timeout bounds each request, from sending it to the last byte of the
	// answer. Zero means DefaultTimeout.
	Timeout time.Duration
	// Settle is how long a write may take to show. Zero means
	// DefaultSettle; a negative value reads once.
	Settle time.Duration
	// Recheck is how old the earliest item the run created, and left
	// alone, is at least when the run reads it again, at its end. Zero
	// means DefaultRecheck; a negative value reads without waiting.
	Recheck time.Duration
	// Contract is the document the run judges by. Nil means
	// spec.Default().
	Contract *spec.Contract
	// RunID names the run in the names of the items it creates. Empty
	// means one made from the clock and the seed.
	RunID string
	// Seed seeds the run's random choices. Zero means the seed the run is
	// given (New).
	Seed uint64
	// Transport sends the requests. Nil means a clone of
	// http.DefaultTransport that reads at most judge.MaxHeaderBytes of
	// headers.
	Transport http.RoundTripper
	// Now tells the time. Nil means time.Now.
	Now func() time.Time
	// Seen, if not nil, is told of the status of every answer, by
	// operation: the run's coverage.
	Seen func(op string, status int)
}

// Resolved returns s with the default of every optional field it leaves
// zero.
func (s Settings) Resolved() Settings {
	if s.MaxCreates == 0 {
		s.MaxCreates = DefaultMaxCreates
	}
	if s.Timeout == 0 {
		s.Timeout = DefaultTimeout
	}
	if s.Settle == 0 {
		s.Settle = DefaultSettle
	}
	if s.Recheck == 0 {
		s.Recheck = DefaultRecheck
	}
	if s.Now == nil {
		s.Now = time.Now
	}
	return s
}

// Document returns the contract s judges by: Contract, or spec.Default().
func (s Settings) Document() (*spec.Contract, error) {
	if s.Contract != nil {
		return s.Contract, nil
	}
	return spec.Default()
}

// ParseBaseURL parses the base URL of a deployment: an absolute http or
// https URL without query, fragment or user info, returned without a
// trailing slash. Its errors name the field at fault and say what is
// wanted.
func ParseBaseURL(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, errors.New("base url: required, such as https://petstore.example.com/v1")
	}
	example := "such as https://petstore.example.com/v1 or http://127.0.0.1:4010/v1"
	if !strings.Contains(raw, "://") {
		return nil, fmt.Errorf("base url %q: must start with http:// or https://, %s", raw, example)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("base url %q: not a URL, %s", raw, example)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("base url %q: must start with http:// or https://, %s", raw, example)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("base url %q: has no host", raw)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, fmt.Errorf("base url %q: must have no query, fragment or user info", raw)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}
