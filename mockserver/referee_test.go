package mockserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/spec"
	"github.com/petstore/contract/spec/corpus"
)

// An outside referee: Stoplight's Prism, a validating proxy written by
// others, is put in front of petmock serving each document of the corpus,
// and judges every answer petmock sends to a GET against the document. It
// is installed from the npm registry (npm install
// @stoplight/prism-cli@5.16.0); the test finds it on the PATH or where
// PETMOCK_PRISM names it, and is skipped without it, unless
// PETMOCK_PRISM_TESTS=required.

// prismViolation is one entry of Prism's sl-violations header.
type prismViolation struct {
	Location []string `json:"location"`
	Severity string   `json:"severity"`
	Message  string   `json:"message"`
}

// prism returns the path of a Prism to run, or skips the test.
func prism(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("PETMOCK_PRISM"); p != "" {
		return p
	}
	if p, err := exec.LookPath("prism"); err == nil {
		return p
	}
	if os.Getenv("PETMOCK_PRISM_TESTS") == "required" {
		t.Fatal("PETMOCK_PRISM_TESTS=required, and no prism was found: npm install @stoplight/prism-cli@5.16.0, and name its bin/prism in PETMOCK_PRISM")
	}
	t.Skip("no prism found, so the outside referee is not asked: npm install @stoplight/prism-cli@5.16.0, and name its bin/prism in PETMOCK_PRISM")
	return ""
}

// freePort returns a port of the loopback nobody listens on.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startPrism runs prism proxy of the document at path in front of
// upstream, and returns its URL once it answers.
func startPrism(t *testing.T, bin, path, upstream string) string {
	t.Helper()
	port := freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "proxy", "-h", "127.0.0.1", "-p", fmt.Sprint(port), path, upstream)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { cancel(); <-exited })
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		select {
		case <-exited:
			// Prism refuses some documents petmock serves, such as one
			// whose x-ms-examples name files its package leaves out:
			// the referee has nothing to say of them.
			t.Skipf("Prism cannot read the document: %s", fatalLine(out.String()))
		default:
		}
		if resp, err := http.Get(url + "/"); err == nil {
			resp.Body.Close()
			return url
		}
	}
	t.Fatalf("prism proxy of %s did not answer:\n%s", path, out.String())
	return ""
}

// fatalLine returns the line of Prism's output that says why it stopped.
func fatalLine(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "fatal") {
			return strings.TrimSpace(line)
		}
	}
	return strings.TrimSpace(out)
}

// TestPrismRefereesTheCorpus: Prism, in front of petmock serving each
// document of the corpus, finds no answer to a GET that breaks the
// document. Violations Prism finds in the test's own requests are the
// test's, not petmock's, and are counted apart.
func TestPrismRefereesTheCorpus(t *testing.T) {
	bin := prism(t)
	var documents, answers, requestViolations, answerViolations int
	for _, f := range corpus.Documents(t) {
		t.Run(f.Name, func(t *testing.T) {
			c, err := spec.ReadOptions{}.ReadFile(f.Path)
			if err != nil {
				t.Fatalf("%s (%s): %v", f.Name, f.Source, err)
			}
			gets := 0
			for _, op := range c.Operations {
				if op.Method == http.MethodGet && op.Base == c.Base {
					gets++
				}
			}
			if gets == 0 {
				t.Skip("no GET to referee")
			}
			srv, base := plainServer(t, mockserver.Config{Contract: c})
			cc := newCorpusClient(t, c, base)
			// Prism matches a request's path against the document's paths
			// and joins it to the upstream URL, which holds the base path.
			referee := startPrism(t, bin, f.Path, base+c.Base)
			documents++
			for _, op := range c.Operations {
				if op.Method != http.MethodGet || op.Base != c.Base {
					continue
				}
				ids, _, ok := cc.existing(t, srv, op)
				if !ok {
					continue
				}
				req, ok := cc.request(op, ids, false)
				if !ok {
					continue
				}
				uri := strings.TrimPrefix(req.URL.RequestURI(), c.Base)
				var headers []string
				for name := range req.Header {
					headers = append(headers, name, req.Header.Get(name))
				}
				_, resp, body := fetch(t, http.MethodGet, referee+uri, "", headers...)
				answers++
				var found []prismViolation
				// Past a number of them, Prism heads the list with a
				// sentence of its own.
				if h := strings.TrimPrefix(resp.Header.Get("sl-violations"), "Too many violations! "); h != "" {
					if err := json.Unmarshal([]byte(h), &found); err != nil {
						t.Fatalf("GET %s: Prism's sl-violations is no list: %v: %s", uri, err, h)
					}
				}
				for _, v := range found {
					where := strings.Join(v.Location, ".")
					switch {
					case v.Severity != "Error":
					case strings.HasPrefix(where, "response"):
						answerViolations++
						t.Errorf("GET %s: %d, which Prism finds breaks the document at %s: %s\n%.300s", uri, resp.StatusCode, where, v.Message, body)
					default:
						requestViolations++
						t.Logf("GET %s: the test's request breaks the document, Prism finds, at %s: %s", uri, where, v.Message)
					}
				}
			}
		})
	}
	t.Logf("Prism judged %d answers of petmock on %d documents: %d answers broke the document, %d requests of the test did",
		answers, documents, answerViolations, requestViolations)
}
