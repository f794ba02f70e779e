package main

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
)

// TestBinaryFaults starts the petmock binary with a fault for every
// request, and checks what a real client, and curl where installed, see
// of each fault; that the control plane is spared; and that the log names
// the fault of each request.
func TestBinaryFaults(t *testing.T) {
	p := startBinary(t, "--fault", "reset", "--fault-rate", "1", "--log-format", "json")
	root := strings.TrimSuffix(p.url, "/v1")
	// A connection of its own for each request: on one it reused,
	// net/http would send an idempotent request again after the fault.
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	send := func(method, url, body string) (*http.Response, error) {
		req, _ := http.NewRequest(method, url, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		return client.Do(req)
	}
	if _, err := send("GET", p.url+"/pets", ""); !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("GET /v1/pets with --fault reset: %v, want ECONNRESET", err)
	}
	curl, _ := exec.LookPath("curl")
	if curl != "" {
		out, err := exec.Command(curl, "-sS", "-H", "Authorization: Bearer "+mockserver.DefaultAPIKey, p.url+"/pets").CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 56 || !strings.Contains(string(out), "reset") {
			t.Errorf("curl of /v1/pets with --fault reset: %v %s, want exit status 56, a reset", err, out)
		}
	}
	resp, err := send("PATCH", root+"/__petmock/settings", `{"fault":null}`)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("PATCH settings with every API request reset: %v %v, want 200: faults are the API's alone", resp, err)
	}
	resp.Body.Close()

	for _, tt := range []struct {
		fault string
		sees  func(resp *http.Response, err error) string
		curl  int
	}{
		{"empty", func(_ *http.Response, err error) string {
			if !errors.Is(err, io.EOF) {
				return "want EOF with no answer"
			}
			return ""
		}, 52},
		{"malformed-chunk", func(resp *http.Response, err error) string {
			if err != nil {
				return "want an answer's head"
			}
			defer resp.Body.Close()
			if _, err := io.ReadAll(resp.Body); err == nil || !strings.Contains(err.Error(), "chunk") {
				return "want a chunk error reading the body"
			}
			return ""
		}, 56},
	} {
		for _, client := range []string{"net/http", "curl"} {
			if client == "curl" && curl == "" {
				continue
			}
			resp, err := send("POST", root+"/__petmock/forced", `{"fault":"`+tt.fault+`"}`)
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("POST forced %s: %v %v", tt.fault, resp, err)
			}
			resp.Body.Close()
			if client == "curl" {
				err := exec.Command(curl, "-sS", "-o", "/dev/null", "-H", "Authorization: Bearer "+mockserver.DefaultAPIKey, p.url+"/pets").Run()
				var exit *exec.ExitError
				if !errors.As(err, &exit) || exit.ExitCode() != tt.curl {
					t.Errorf("curl meeting %s: %v, want exit status %d", tt.fault, err, tt.curl)
				}
				continue
			}
			if problem := tt.sees(send("GET", p.url+"/pets", "")); problem != "" {
				t.Errorf("GET /v1/pets meeting %s: %s", tt.fault, problem)
			}
		}
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	p.cmd.Wait()
	for _, fault := range []string{"reset", "empty", "malformed-chunk"} {
		if !bytes.Contains([]byte(p.stderr.String()), []byte(`"fault":"`+fault+`"`)) {
			t.Errorf("the log names no %s fault:\n%s", fault, p.stderr.String())
		}
	}
}
