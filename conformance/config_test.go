package conformance

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/conformance/check"
	"github.com/petstore/contract/conformance/judge"
	"github.com/petstore/contract/spec"
)

func TestConfigValidate(t *testing.T) {
	noDefaultLimit, err := spec.Read([]byte(strings.Replace(string(spec.YAML()), "        default: 20\n", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	ok := Config{BaseURL: "https://petstore.example.com/v1", APIKey: "k"}
	tests := []struct {
		name string
		edit func(*Config)
		want string // "" for valid
	}{
		{"valid", func(*Config) {}, ""},
		{"a trailing slash", func(c *Config) { c.BaseURL += "/" }, ""},
		{"no base URL", func(c *Config) { c.BaseURL = "" }, "base url: required"},
		{"a relative base URL", func(c *Config) { c.BaseURL = "petstore.example.com/v1" }, "must start with http:// or https://"},
		{"no host", func(c *Config) { c.BaseURL = "http:///v1" }, "has no host"},
		{"a query", func(c *Config) { c.BaseURL += "?a=1" }, "must have no query"},
		{"user info", func(c *Config) { c.BaseURL = "https://u:p@petstore.example.com/v1" }, "must have no query, fragment or user info"},
		{"no key", func(c *Config) { c.APIKey = "" }, "api key: required"},
		{"a key with a line break", func(c *Config) { c.APIKey = "a\nb" }, "must not contain a line break"},
		{"negative max creates", func(c *Config) { c.MaxCreates = -1 }, "max creates: -1 must not be negative"},
		{"negative timeout", func(c *Config) { c.Timeout = -time.Second }, "must not be negative"},
		{"a document without a default limit", func(c *Config) { c.Contract = noDefaultLimit }, "document: listPets: limit needs a minimum, a maximum and a default"},
	}
	for _, tc := range tests {
		c := ok
		tc.edit(&c)
		err := c.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: Validate() = %v, want nil", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: Validate() = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestConfigDefaults(t *testing.T) {
	var c Config
	if c.maxCreates() != check.DefaultMaxCreates || c.timeout() != check.DefaultTimeout {
		t.Errorf("zero Config: max creates %d, timeout %v; want %d, %v", c.maxCreates(), c.timeout(), check.DefaultMaxCreates, check.DefaultTimeout)
	}
	c = Config{MaxCreates: 3, Timeout: time.Second}
	if c.maxCreates() != 3 || c.timeout() != time.Second {
		t.Errorf("Config{3, 1s}: max creates %d, timeout %v", c.maxCreates(), c.timeout())
	}
}

func TestLabelFilter(t *testing.T) {
	tests := []struct {
		cfg  Config
		user string
		want string
	}{
		{Config{}, "", "!strict"},
		{Config{Strict: true}, "", ""},
		{Config{ReadOnly: true}, "", "!mutating && !strict"},
		{Config{ReadOnly: true, Strict: true}, "auth || limit", "(auth || limit) && !mutating"},
		{Config{}, "auth", "(auth) && !strict"},
	}
	for _, tc := range tests {
		if got := tc.cfg.labelFilter(tc.user); got != tc.want {
			t.Errorf("%+v.labelFilter(%q) = %q, want %q", tc.cfg, tc.user, got, tc.want)
		}
	}
}

func TestPreflight(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	_, err = Preflight(context.Background(), Config{BaseURL: closed, APIKey: "k"})
	var ue *UnreachableError
	if !errors.As(err, &ue) || ue.URL != closed+"/pets?limit=1" {
		t.Errorf("Preflight of a closed port = %v, want an *UnreachableError for %s/pets?limit=1", err, closed)
	}

	var gotAuth string
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		http.NotFound(w, r)
	}))
	defer hs.Close()
	_, err = Preflight(context.Background(), Config{BaseURL: hs.URL, APIKey: "k"})
	var se *SetupError
	if !errors.As(err, &se) || !strings.Contains(se.Answer, "answered 404") || !strings.Contains(se.Fix, "version segment") {
		t.Errorf("Preflight of a base URL without the version segment = %v, want a *SetupError that hints at it", err)
	}
	if gotAuth != "Bearer k" {
		t.Errorf("Preflight sent Authorization %q, want the bearer key", gotAuth)
	}
}

// TestPreflightErrors: a preflight that gets no answer says why in plain
// words, and no error of its chain holds the key, even when the server
// echoed it into Go's error message.
func TestPreflightErrors(t *testing.T) {
	const key = "preflight-k3y"
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/silent/pets" {
			<-r.Context().Done() // the client gave up
			return
		}
		c, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer c.Close()
		c.Write([]byte(r.Header.Get("Authorization") + "\r\n\r\n"))
	}))
	defer hs.Close()

	_, err := Preflight(context.Background(), Config{BaseURL: hs.URL + "/echo", APIKey: key})
	if err == nil || !strings.Contains(err.Error(), "no HTTP answer: ") || !strings.Contains(err.Error(), judge.KeyVar) {
		t.Errorf("Preflight of a server that echoes the key as its status line = %v, want no HTTP answer, with %s", err, judge.KeyVar)
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		if strings.Contains(e.Error(), key) {
			t.Errorf("an error of the chain holds the key: %T %q", e, e)
		}
	}

	start := time.Now()
	_, err = Preflight(context.Background(), Config{BaseURL: hs.URL + "/silent", APIKey: key, Timeout: 100 * time.Millisecond})
	if err == nil || !strings.HasSuffix(err.Error(), ": no answer within 100ms") || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Preflight of a server that never answers = %v, want no answer within 100ms, a deadline exceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Preflight of a server that never answers took %v with a timeout of 100ms", d)
	}
}

// TestPreflightSetupMistakes: an answer that shows a mistake of the run's
// setup, not of the deployment, is a *SetupError that says what to fix;
// any other answer is for the checks to judge.
func TestPreflightSetupMistakes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		answer func(w http.ResponseWriter)
		fix    string // "" for no setup error
	}{
		{"the key refused", func(w http.ResponseWriter) { w.WriteHeader(401) }, "the API key was refused; check --api-key or PETSTORE_API_KEY. A deployment that refuses every key looks the same"},
		{"the key forbidden", func(w http.ResponseWriter) { w.WriteHeader(403) }, "the API key was refused"},
		{"no such path", func(w http.ResponseWriter) { w.WriteHeader(404) }, "does it end in the version segment, such as /v1?"},
		{"a login page", func(w http.ResponseWriter) {
			w.Header().Set("Location", "/login?next=%2Fv1%2Fpets")
			w.WriteHeader(302)
		}, "a redirect to /login?next=%2Fv1%2Fpets, which the suite does not follow: is the base URL right (https rather than http, or the API rather than a login page)?"},
		{"an HTML page", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte("<html>Welcome</html>"))
		}, "an HTML page, not the API"},
		{"the API", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte("[]"))
		}, ""},
		{"an outage", func(w http.ResponseWriter) { w.WriteHeader(503) }, ""},
	} {
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { tc.answer(w) }))
		note, err := Preflight(context.Background(), Config{BaseURL: hs.URL + "/v1", APIKey: "k3y-of-the-test"})
		hs.Close()
		var se *SetupError
		switch {
		case tc.fix == "" && err != nil:
			t.Errorf("%s: %v, want a note for the checks to judge", tc.name, err)
		case tc.fix != "" && (!errors.As(err, &se) || !strings.Contains(se.Fix, tc.fix)):
			t.Errorf("%s: %v (note %q), want a *SetupError that says %q", tc.name, err, note, tc.fix)
		}
	}
}
