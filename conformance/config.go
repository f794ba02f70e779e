package conformance

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/petstore/contract/conformance/check"
	"github.com/petstore/contract/conformance/request"
	"github.com/petstore/contract/spec"
)

// Defaults of a Config, which check.Settings documents.
const (
	// DefaultMaxCreates bounds the POST requests of one run: a full run
	// against the Petstore document sends about 60.
	DefaultMaxCreates = check.DefaultMaxCreates
	// DefaultTimeout bounds each request, from sending it to reading the
	// whole answer.
	DefaultTimeout = check.DefaultTimeout
	// DefaultSettle is how long a created item may take to show.
	DefaultSettle = check.DefaultSettle
	// DefaultRecheck is how old the earliest item the run created is at
	// least when the run reads its items again, at its end.
	DefaultRecheck = check.DefaultRecheck
)

// NamePrefix begins the name of every item the suite creates, followed by
// the run id, so that they can be found later: the Petstore's interface
// has no way to delete a pet.
const NamePrefix = request.NamePrefix

// Labels that select specs. Run adds them to the label filter from Config.
const (
	// LabelMutating marks every spec that sends a request that can change
	// state (createPet). Config.ReadOnly leaves them out.
	LabelMutating = "mutating"
	// LabelStrict marks the specs that hold a server to petmock's gap
	// decisions rather than to the interface alone. They run only with
	// Config.Strict.
	LabelStrict = "strict"
)

// Config says which deployment to judge and how. The zero values of the
// optional fields are documented defaults.
type Config struct {
	// BaseURL is the address of the deployment, with the version segment,
	// such as https://petstore.example.com/v1. Required.
	BaseURL string
	// APIKey is sent as a bearer token. It is never printed: requests are
	// shown with $PETSTORE_API_KEY in its place.
	APIKey string

	// Strict also holds the server to petmock's gap decisions (the specs
	// labelled LabelStrict).
	Strict bool
	// ReadOnly sends no request that can change state: the specs labelled
	// LabelMutating are left out, and the client refuses any method but GET.
	ReadOnly bool
	// MaxCreates bounds the createPet requests of the run. A spec that
	// would exceed it is skipped. Zero means DefaultMaxCreates.
	MaxCreates int
	// Timeout bounds each request, from sending it to the last byte of the
	// answer. Zero means DefaultTimeout.
	Timeout time.Duration
	// Settle is how long a pet the suite created may take to show in
	// getPet and in listPets: the interface does not say that a write is
	// seen at once, so a deployment may be eventually consistent. The
	// suite reads again and again within it, and a pet seen at once costs
	// no wait. Zero means DefaultSettle; a negative value reads once.
	Settle time.Duration
	// Recheck is how old the earliest item the run created, and left
	// alone, is at least when the run reads such items again, at its end:
	// they must still be there, unchanged. Zero means DefaultRecheck; a
	// negative value reads them when the run ends, without waiting.
	Recheck time.Duration

	// Contract is the contract to judge against. Nil means
	// spec.Default(), the embedded document.
	Contract *spec.Contract
	// RunID names this run in the names of created pets. Empty means one
	// made from the clock and the seed.
	RunID string
	// Seed seeds the suite's random choices (ids that do not exist, limits,
	// statuses). Zero means the seed the checks are ordered by
	// (RunOptions.Seed), which the report prints, so a run can be
	// repeated exactly.
	Seed uint64
	// Transport sends the requests. Nil means a clone of
	// http.DefaultTransport that reads at most MaxHeaderBytes of headers.
	// Whatever the transport, the suite follows no redirect and reads at
	// most MaxBodyBytes of a body.
	Transport http.RoundTripper
	// Now tells the time, to know whether getPet's sunset has passed. Nil
	// means time.Now.
	Now func() time.Time
	// Output receives what a run ends with: the coverage summary, and the
	// checks skipped with their reasons. Nil means standard output, where
	// Ginkgo reports too.
	Output io.Writer
	// JUnitReport is the file a JUnit report of the run is written to;
	// empty writes none.
	JUnitReport string
}

// Validate reports the first mistake in c, such as a missing or relative
// base URL, or a Document that lacks what the checks are made of (such as a
// default for listPets' limit). Run fails every spec of a run whose Config
// does not validate.
func (c Config) Validate() error {
	if err := c.validateFields(); err != nil {
		return err
	}
	if c.Contract != nil {
		if _, err := check.ReadContract(c.Contract); err != nil {
			return fmt.Errorf("document: %w", err)
		}
	}
	return nil
}

// validateFields is Validate without the document.
func (c Config) validateFields() error {
	if _, err := c.baseURL(); err != nil {
		return err
	}
	if c.APIKey == "" {
		return errors.New("api key: required")
	}
	if strings.ContainsAny(c.APIKey, "\r\n") {
		return errors.New("api key: must not contain a line break")
	}
	if c.MaxCreates < 0 {
		return fmt.Errorf("max creates: %d must not be negative", c.MaxCreates)
	}
	if c.Timeout < 0 {
		return fmt.Errorf("timeout: %v must not be negative", c.Timeout)
	}
	return nil
}

// baseURL parses BaseURL, as check.ParseBaseURL does.
func (c Config) baseURL() (*url.URL, error) { return check.ParseBaseURL(c.BaseURL) }

// settings returns the settings of a run of c; seen is told of the
// status of every answer, by operation.
func (c Config) settings(seen func(op string, status int)) check.Settings {
	return check.Settings{
		BaseURL: c.BaseURL, APIKey: c.APIKey, Strict: c.Strict, ReadOnly: c.ReadOnly,
		MaxCreates: c.MaxCreates, Timeout: c.Timeout, Settle: c.Settle, Recheck: c.Recheck,
		Contract: c.Contract, RunID: c.RunID, Seed: c.Seed, Transport: c.Transport, Now: c.Now, Seen: seen,
	}
}

// contract returns the contract of the run: Contract, or spec.Default().
func (c Config) contract() (*spec.Contract, error) { return c.settings(nil).Document() }

// maxCreates returns MaxCreates, or its default.
func (c Config) maxCreates() int { return c.settings(nil).Resolved().MaxCreates }

// timeout returns Timeout, or its default.
func (c Config) timeout() time.Duration { return c.settings(nil).Resolved().Timeout }

func (c Config) output() io.Writer {
	if c.Output == nil {
		return os.Stdout
	}
	return c.Output
}

// labelFilter returns the Ginkgo label filter of a run: the user's filter,
// narrowed by ReadOnly and Strict.
func (c Config) labelFilter(user string) string {
	var parts []string
	if strings.TrimSpace(user) != "" {
		parts = append(parts, "("+user+")")
	}
	if c.ReadOnly {
		parts = append(parts, "!"+LabelMutating)
	}
	if !c.Strict {
		parts = append(parts, "!"+LabelStrict)
	}
	return strings.Join(parts, " && ")
}
