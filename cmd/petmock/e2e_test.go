package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
)

var (
	buildOnce sync.Once
	builtDir  string
	builtBin  string
	buildErr  error
)

func TestMain(m *testing.M) {
	if os.Getenv(backendEnv) != "" {
		os.Exit(serveTestBackend())
	}
	code := m.Run()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}

// petmockBinary builds the petmock binary once for all the tests that run
// it as a process.
func petmockBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a binary")
	}
	buildOnce.Do(func() {
		if builtDir, buildErr = os.MkdirTemp("", "petmock-test-"); buildErr != nil {
			return
		}
		builtBin = filepath.Join(builtDir, "petmock")
		if out, err := exec.Command("go", "build", "-o", builtBin, ".").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

// binary is a petmock process.
type binary struct {
	cmd    *exec.Cmd
	url    string
	stderr *strings.Builder
}

// startBinary starts the petmock binary on a free port and waits for its
// start line.
func startBinary(t *testing.T, args ...string) *binary {
	t.Helper()
	cmd := exec.Command(petmockBinary(t), append([]string{"--addr", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	b := &binary{cmd: cmd, stderr: &strings.Builder{}}
	cmd.Stderr = b.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no start line: %v", err)
	}
	go io.Copy(io.Discard, stdout)
	b.url = strings.Fields(line)[2]
	return b
}

// TestBinaryEndToEnd builds the petmock binary, starts it on a free port,
// talks to it with a real client, and stops it with SIGTERM.
func TestBinaryEndToEnd(t *testing.T) {
	p := startBinary(t, "--log-format", "json")
	cmd, url, stderr := p.cmd, p.url, p.stderr

	do := func(method, path, body string) (int, []byte, http.Header) {
		t.Helper()
		req, _ := http.NewRequest(method, url+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+mockserver.DefaultAPIKey)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b, resp.Header
	}
	status, body, _ := do("POST", "/pets", `{"name":"Binky","categoryId":2,"status":"pending"}`)
	if status != 201 {
		t.Fatalf("POST /v1/pets: %d %s", status, body)
	}
	var created pet
	json.Unmarshal(body, &created)
	status, body, h := do("GET", "/pets/"+jsonNumber(created.ID), "")
	if status != 200 || h.Get("Sunset") == "" {
		t.Errorf("GET the created pet: %d %s, Sunset %q", status, body, h.Get("Sunset"))
	}
	if status, body, _ := do("GET", "/pets?status=pending&limit=100", ""); status != 200 || !strings.Contains(string(body), `"name":"Binky"`) {
		t.Errorf("GET /v1/pets?status=pending: %d %s, want the created pet in it", status, body)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("petmock exited with %v after SIGTERM\nstderr: %s", err, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("petmock did not exit after SIGTERM")
	}
	if logged := stderr.String(); !strings.Contains(logged, `"path":"/v1/pets"`) || strings.Contains(logged, mockserver.DefaultAPIKey) {
		t.Errorf("stderr should log requests without the key:\n%s", logged)
	}
}

func jsonNumber(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
