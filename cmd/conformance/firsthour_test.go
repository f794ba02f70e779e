package main

import (
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	ct "github.com/petstore/contract/conformance/conformancetest"
)

// TestSetupMistakesStopBeforeAnyCheck: a key the deployment refuses, a
// base URL without the version segment, one that leads to a login page or
// to a web page: each is a mistake of the run's setup, not a breach of the
// contract. The run stops before any check, with exit status 2 and one
// line that says what to fix.
func TestSetupMistakesStopBeforeAnyCheck(t *testing.T) {
	t.Parallel()
	petmock := serve(t, ct.Petmock(t))
	for _, tc := range []struct {
		name    string
		baseURL string
		env     []string
		says    string
	}{
		{"a wrong key", petmock, []string{"PETSTORE_API_KEY=not-the-key-at-all"}, "answered 401 Unauthorized: the API key was refused; check --api-key or PETSTORE_API_KEY. A deployment that refuses every key looks the same"},
		{"no version segment", strings.TrimSuffix(petmock, "/v1"), nil, "answered 404 Not Found: the base URL is not the API's: does it end in the version segment, such as /v1?"},
		{"a login page", serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/sso/login?next="+r.URL.Path, http.StatusFound)
		})), nil, "answered 302 Found: a redirect to /sso/login?next=/v1/pets, which the suite does not follow: is the base URL right"},
		{"a web page", serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte("<!doctype html><title>Petstore</title>"))
		})), nil, "answered 200 OK: an HTML page, not the API"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := tc.env
			if env == nil {
				env = []string{"PETSTORE_API_KEY=" + testKey}
			}
			r := runBinary(t, env, "--base-url", tc.baseURL, "--junit-report", "report.xml")
			if r.code != 2 {
				t.Fatalf("exit %d, want 2\n%s", r.code, r)
			}
			lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
			if len(lines) != 1 || !strings.HasPrefix(lines[0], "conformance: preflight: GET ") || !strings.Contains(lines[0], tc.says) {
				t.Errorf("stderr = %q, want one line that says %q", r.stderr, tc.says)
			}
			if strings.Contains(r.stdout, "Running Suite") || strings.Contains(r.stdout, "broken rule") {
				t.Errorf("checks ran after a setup mistake\n%s", r)
			}
			assertNoKey(t, r)
		})
	}
}

// TestNoColourOutsideATerminal: colour codes are for terminals; a CI log
// gets none, even without --no-color.
func TestNoColourOutsideATerminal(t *testing.T) {
	t.Parallel()
	r := runBinary(t, []string{"PETSTORE_API_KEY=" + testKey}, "--base-url", serve(t, ct.Petmock(t)), "--label-filter", "auth")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r)
	}
	if strings.Contains(r.stdout, "\x1b[") {
		t.Errorf("colour codes in output to a pipe:\n%q", r.stdout[:min(len(r.stdout), 300)])
	}
}

// TestJUnitReportsTheDeployment: the report names the deployment and the
// run, not the machine that ran it: the base URL as the suite's package,
// the run id, the seed and the coverage as properties, and each failure's
// rule as its type.
func TestJUnitReportsTheDeployment(t *testing.T) {
	t.Parallel()
	url := serve(t, ct.RewriteResponse(func(r *http.Request, rec *httptest.ResponseRecorder) {
		if rec.Code == http.StatusNotFound {
			rec.Body.Reset()
			rec.Body.WriteString(`{"error":"not found"}`)
		}
	})(t, ct.Petmock(t)))
	r := judge(t, url, "--seed", "42", "--label-filter", "getPet || auth")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.code, r)
	}
	var rep struct {
		Suites []struct {
			Package    string `xml:"package,attr"`
			Properties []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Type string `xml:"type,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(r.junit, &rep); err != nil || len(rep.Suites) != 1 {
		t.Fatalf("the report does not parse: %v\n%s", err, r.junit)
	}
	s := rep.Suites[0]
	if s.Package != url {
		t.Errorf("package %q, want the base URL %s", s.Package, url)
	}
	props := map[string]string{}
	for _, p := range s.Properties {
		props[p.Name] = p.Value
	}
	for name, want := range map[string]string{
		"base-url": url, "seed": "42", "document": "Petstore 1.0.0", "label-filter": "getPet || auth",
		"coverage.getPet": "GET /pets/{petId}: 200 seen",
	} {
		if !strings.Contains(props[name], want) {
			t.Errorf("property %s = %q, want it to hold %q", name, props[name], want)
		}
	}
	if !strings.HasPrefix(props["run-id"], "20") {
		t.Errorf("run-id = %q", props["run-id"])
	}
	for _, bad := range []string{".go:", "/work/", "[It]", "[BeforeSuite]"} {
		if strings.Contains(string(r.junit), bad) {
			t.Errorf("the report holds %q, which says nothing of the deployment", bad)
		}
	}
	var typed bool
	for _, c := range s.Cases {
		if c.Failure != nil && c.Failure.Type == "contract.response" {
			typed = true
		}
	}
	if !typed {
		t.Errorf("no failure carries its rule, contract.response, as its type")
	}
	assertNoKey(t, r)
}

// TestCommandLineMistakes: a mistake in the command line is said once, in
// one line, with what was probably meant.
func TestCommandLineMistakes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"--base-url", "http://127.0.0.1:1/v1", "--jnuit-report", "r.xml"}, "conformance: unknown flag --jnuit-report; did you mean --junit-report?"},
		{[]string{"--base-url", "127.0.0.1:4010/v1"}, `conformance: base url "127.0.0.1:4010/v1": must start with http:// or https://, such as https://petstore.example.com/v1 or http://127.0.0.1:4010/v1`},
	} {
		r := runBinary(t, []string{"PETSTORE_API_KEY=" + testKey}, tc.args...)
		if r.code != 2 || strings.TrimSpace(r.stderr) != tc.says {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q alone", tc.args, r.code, r.stderr, tc.says)
		}
	}
	if r := runBinary(t, nil, "--help"); r.code != 0 || !strings.Contains(r.stderr, "  --junit-report FILE") || strings.Contains(r.stderr, "\n  -junit") {
		t.Errorf("--help: exit %d, want the flags with two dashes\n%s", r.code, r.stderr)
	}
}
