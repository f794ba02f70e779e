//go:build soak

package main

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// Bounds of a start on a hostile document: the time to serve it or to
// refuse it, and the peak memory of the process meanwhile. A document of
// 60,000 paths, 47 MB, is read, compiled and given a catalogue of 50 items
// for each of its 30,000 resources: it once took 138 s and 7.85 GB, and
// has bounds of its own.
const (
	maxHostileTime    = 10 * time.Second
	maxHostilePeak    = 300 << 20
	maxManyPathsTime  = 60 * time.Second
	maxManyPathsPeak  = 3 << 30
	manyPaths         = 60_000
	hostileHeader     = "openapi: 3.0.3\ninfo: {title: Hostile, version: 1.0.0}\nservers: [{url: /v1}]\n"
	hostileAnswerPath = "/v1/x"
)

// hostileAnswer is a document of one operation, GET /x, that answers with
// schema.
func hostileAnswer(schema string) string {
	return hostileHeader + "paths:\n  /x:\n    get:\n      responses:\n        '200': {description: ok, content: {application/json: {schema: " + schema + "}}}\n"
}

// manyPathsDocument writes a document of n paths, half of them
// collections with GET and POST, half the item below each, in YAML as
// published documents are written, one keyword a line: 47 MB for 60,000.
func manyPathsDocument(w io.Writer, n int) {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	fmt.Fprint(bw, hostileHeader+"paths:\n")
	for i := 0; i < n; i += 2 {
		fmt.Fprintf(bw, `  /things%[1]d:
    get:
      operationId: listThings%[1]d
      summary: The things of family %[1]d
      parameters:
        - name: limit
          in: query
          schema:
            type: integer
            minimum: 1
            maximum: 100
      responses:
        '200':
          description: A page of things
          content:
            application/json:
              schema:
                type: array
                items:
                  $ref: '#/components/schemas/Thing'
    post:
      operationId: createThing%[1]d
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/NewThing'
      responses:
        '201':
          description: Created
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Thing'
  /things%[1]d/{id}:
    get:
      operationId: getThing%[1]d
      summary: One thing of family %[1]d
      parameters:
        - name: id
          in: path
          required: true
          schema:
            type: integer
            format: int64
      responses:
        '200':
          description: The thing
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Thing'
        '404':
          description: Not found
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Error'
`, i)
	}
	fmt.Fprint(bw, `components:
  schemas:
    NewThing:
      type: object
      required: [name]
      properties:
        name: {type: string, maxLength: 100}
        tags: {type: array, items: {type: string}}
    Thing:
      allOf:
        - $ref: '#/components/schemas/NewThing'
        - type: object
          required: [id]
          properties:
            id: {type: integer, format: int64}
            createdAt: {type: string, format: date-time}
    Error:
      type: object
      required: [code, message]
      properties:
        code: {type: string}
        message: {type: string}
`)
}

// Bounds of a start on a document of 60,000 paths whose operations share
// $ref parameters, headers and responses, as published documents do: the
// memory of a start is to grow with the distinct schemas and parameters,
// not with the operations times their references. It once took 7.2 GB
// and 45 s.
const (
	maxSharedRefsTime = 15 * time.Second
	maxSharedRefsPeak = 1 << 30
)

// sharedRefsDocument writes a document of n paths, half of them lists of
// reports and half the report below each, whose every operation refers to
// the same few parameters, responses and, through them, headers: 30 MB
// for 60,000. None is a resource: every answer is made from its schema.
func sharedRefsDocument(w io.Writer, n int) {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	fmt.Fprint(bw, "openapi: 3.0.3\ninfo: {title: Shared, version: 1.0.0}\nservers: [{url: /v1}]\nsecurity: [{key: []}]\npaths:\n")
	for i := 0; i < n; i += 2 {
		fmt.Fprintf(bw, `  /reports%[1]d:
    get:
      operationId: listReports%[1]d
      parameters:
        - $ref: '#/components/parameters/Limit'
        - $ref: '#/components/parameters/Cursor'
        - $ref: '#/components/parameters/RequestID'
      responses:
        '200':
          $ref: '#/components/responses/Reports'
        '400':
          $ref: '#/components/responses/BadRequest'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '404':
          $ref: '#/components/responses/NotFound'
        '429':
          $ref: '#/components/responses/TooMany'
  /reports%[1]d/{reportId}:
    parameters:
      - $ref: '#/components/parameters/ReportID'
    get:
      operationId: getReport%[1]d
      parameters:
        - $ref: '#/components/parameters/RequestID'
      responses:
        '200':
          $ref: '#/components/responses/Report'
        '401':
          $ref: '#/components/responses/Unauthorized'
        '404':
          $ref: '#/components/responses/NotFound'
`, i)
	}
	fmt.Fprint(bw, `components:
  securitySchemes:
    key: {type: apiKey, in: header, name: X-API-Key}
  parameters:
    Limit: {name: limit, in: query, schema: {type: integer, minimum: 1, maximum: 100, default: 20}}
    Cursor: {name: cursor, in: query, schema: {type: string, maxLength: 200}}
    RequestID: {name: X-Request-ID, in: header, schema: {type: string, format: uuid}}
    ReportID: {name: reportId, in: path, required: true, schema: {type: string, pattern: '^[a-z0-9-]{1,40}$'}}
  headers:
    RateLimit: {schema: {type: integer, minimum: 0}, description: Requests left}
    RateReset: {schema: {type: integer, minimum: 0}, description: Seconds to the next window}
    RequestID: {schema: {type: string, format: uuid}, description: The id of the request}
  schemas:
    Report:
      type: object
      required: [id, title, createdAt]
      properties:
        id: {type: string}
        title: {type: string, maxLength: 200}
        createdAt: {type: string, format: date-time}
        rows: {type: array, maxItems: 50, items: {$ref: '#/components/schemas/Row'}}
    Row:
      type: object
      properties:
        label: {type: string}
        value: {type: number}
    Error:
      type: object
      required: [code, message]
      properties:
        code: {type: string}
        message: {type: string}
  responses:
    Report:
      description: A report
      headers:
        X-RateLimit-Remaining: {$ref: '#/components/headers/RateLimit'}
        X-RateLimit-Reset: {$ref: '#/components/headers/RateReset'}
        X-Request-ID: {$ref: '#/components/headers/RequestID'}
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Report'}
    Reports:
      description: A page of reports
      headers:
        X-RateLimit-Remaining: {$ref: '#/components/headers/RateLimit'}
        X-RateLimit-Reset: {$ref: '#/components/headers/RateReset'}
        X-Request-ID: {$ref: '#/components/headers/RequestID'}
      content:
        application/json:
          schema: {type: array, maxItems: 100, items: {$ref: '#/components/schemas/Report'}}
    BadRequest:
      description: Bad request
      headers:
        X-Request-ID: {$ref: '#/components/headers/RequestID'}
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    Unauthorized:
      description: No key
      headers:
        X-Request-ID: {$ref: '#/components/headers/RequestID'}
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    NotFound:
      description: Not found
      headers:
        X-Request-ID: {$ref: '#/components/headers/RequestID'}
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
    TooMany:
      description: Too many requests
      headers:
        X-RateLimit-Reset: {$ref: '#/components/headers/RateReset'}
        X-Request-ID: {$ref: '#/components/headers/RequestID'}
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
`)
}

// TestSoakSharedRefs starts petmock on sharedRefsDocument's 60,000 paths
// and holds the start to its bounds of time and memory; a report and a
// page of reports must answer.
func TestSoakSharedRefs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.yaml")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	sharedRefsDocument(f, manyPaths)
	f.Close()
	s := startOn(t, path, 10*maxSharedRefsTime, nil, func(url string) {
		for _, p := range []string{"/reports59998/r-1", "/reports0?limit=5"} {
			req, _ := http.NewRequest("GET", url+p, nil)
			req.Header.Set("X-API-Key", "petmock-dev-key")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("GET %s: %d, want 200", p, resp.StatusCode)
			}
		}
	})
	if !s.served {
		t.Fatalf("refused:\n%s", s.stderr)
	}
	t.Logf("served in %v, peak memory %d MiB", s.elapsed.Round(time.Millisecond), s.peak>>20)
	if s.elapsed > maxSharedRefsTime || s.peak > maxSharedRefsPeak {
		t.Errorf("served in %v with a peak of %d MiB, want under %v and %d MiB", s.elapsed.Round(time.Millisecond), s.peak>>20, maxSharedRefsTime, maxSharedRefsPeak>>20)
	}
}

// hostileStart is what became of a start on a document: served, with its
// base URL, or refused, with its message; how long it took, and the peak
// memory of the process, sampled every 10 ms, or, for a process that
// exited before a sample, the most its rusage says, which counts the
// test's own memory at the fork too: a bound, not a measure (peakBound).
type hostileStart struct {
	served    bool
	url       string
	stderr    string
	elapsed   time.Duration
	peak      int64
	peakBound bool
}

// startOn runs petmock on the document in path, and waits for its start
// line or its exit, within limit. A petmock that served is stopped once
// probe, if not nil, has asked what it wants of it.
func startOn(t *testing.T, path string, limit time.Duration, stdin *os.File, probe func(url string)) hostileStart {
	t.Helper()
	cmd := exec.Command(petmockBinary(t), "--addr", "127.0.0.1:0", "--spec", path)
	cmd.Stdin = stdin
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		lines <- line
		io.Copy(io.Discard, stdout)
	}()
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	var s hostileStart
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(limit)
	for s.elapsed == 0 {
		select {
		case line := <-lines:
			if line == "" {
				<-exited
				s.elapsed = time.Since(start)
				break
			}
			s.elapsed, s.served, s.url = time.Since(start), true, strings.Fields(line)[2]
		case <-exited:
			s.elapsed = time.Since(start)
		case <-tick.C:
			if p := sampledPeak(cmd.Process.Pid); p > s.peak {
				s.peak = p
			}
		case <-deadline:
			cmd.Process.Kill()
			<-exited
			t.Fatalf("no start line and no exit within %v; peak memory %d MiB\n%s", limit, s.peak>>20, stderr.String())
		}
	}
	if s.served {
		if p := sampledPeak(cmd.Process.Pid); p > s.peak {
			s.peak = p
		}
		if probe != nil {
			probe(s.url)
		}
		cmd.Process.Signal(syscall.SIGTERM)
		<-exited
	}
	s.stderr = stderr.String()
	if s.peak == 0 {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			s.peak, s.peakBound = ru.Maxrss<<10, true
		}
	}
	return s
}

// sampledPeak is peakMemory of a process that may have exited: 0 then.
func sampledPeak(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(rest), "%d", &kb)
			return kb << 10
		}
	}
	return 0
}

// TestSoakHostileDocuments starts petmock on the documents of an attack:
// huge, asking for values without bound, nested without end, made of
// aliases, or referring outside themselves. Each is served or refused
// within its bounds of time and memory, a refusal in one line, and what is
// served answers.
func TestSoakHostileDocuments(t *testing.T) {
	dir := t.TempDir()
	var fetched atomic.Int64
	outside := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetched.Add(1)
		io.WriteString(w, "x: {type: string}\n")
	}))
	defer outside.Close()
	bomb := "x-a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
	for i := 1; i < 10; i++ {
		bomb += fmt.Sprintf("x-a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 9), ", "))
	}
	enum := make([]string, 10_000)
	for i := range enum {
		enum[i] = fmt.Sprintf("v%d", i)
	}
	tests := []struct {
		name   string
		doc    func(w io.Writer)
		refuse string // what the refusal says; "" for a document that is served
		probe  string // a path to GET once served, which must answer 200
	}{
		{"60,000 paths", func(w io.Writer) { manyPathsDocument(w, manyPaths) }, "", "/v1/things59998/50"},
		{"a minLength of 1e9", text(hostileAnswer("{type: string, minLength: 1000000000}")), "", hostileAnswerPath},
		{"a minItems of 1e8", text(hostileAnswer("{type: array, minItems: 100000000, items: {type: integer}}")), "", hostileAnswerPath},
		{"a minProperties of 1e8", text(hostileAnswer("{type: object, minProperties: 100000000}")), "", hostileAnswerPath},
		{"arrays of arrays of 100 items", text(hostileAnswer("{type: array, minItems: 100, items: {type: array, minItems: 100, items: {type: array, minItems: 100, items: {type: string, minLength: 4000}}}}")), "", hostileAnswerPath},
		{"an array of itself", text(hostileAnswer("{$ref: '#/components/schemas/Node'}") + "components:\n  schemas:\n    Node: {type: array, minItems: 1, items: {$ref: '#/components/schemas/Node'}}\n"), "", hostileAnswerPath},
		{"a 10,000-value enum", text(hostileHeader + "paths:\n  /x:\n    get:\n      parameters: [{name: kind, in: query, schema: {type: string, enum: [" + strings.Join(enum, ", ") + "]}}]\n      responses:\n        '200': {description: ok, content: {application/json: {schema: {type: string, enum: [" + strings.Join(enum, ", ") + "]}}}}\n"), "", hostileAnswerPath + "?kind=v9999"},
		{"a minimum over its maximum", text(hostileAnswer("{type: integer, minimum: 10, maximum: 1}")), "no value can match this schema: minimum 10 is over maximum 1", ""},
		{"10,000 levels deep", text(hostileHeader + "x-deep: " + strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000) + "\npaths: {}\n"), "the document", ""},
		{"1,001 levels deep", text(hostileHeader + "x-deep: " + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + "\npaths: {}\n"), "nested too deeply to read", ""},
		{"5 MB 100 levels deep", text(hostileAnswer(strings.Repeat("{type: object, properties: {a: ", 100) + "{type: string, enum: [" + strings.Repeat("abcdefghij, ", 400_000) + "z]}" + strings.Repeat("}}", 100))), "nested too deeply to read", ""},
		{"an alias bomb", text(hostileHeader + bomb + "paths: {}\n"), "excessive aliasing", ""},
		{"a key given twice", text(hostileHeader + "paths: {}\npaths: {}\n"), `"paths" is given twice`, ""},
		{"a $ref to a file", text(hostileAnswer("{$ref: '/etc/passwd#/x'}")), "disallowed external reference", ""},
		{"a $ref to HTTP", text(hostileAnswer("{$ref: '" + outside.URL + "/x.yaml#/x'}")), "disallowed external reference", ""},
		{"a $ref to /dev/stdin", text(hostileAnswer("{$ref: '/dev/stdin#/x'}")), "disallowed external reference", ""},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, strings.NewReplacer(" ", "-", ",", "", "$", "", "/", "").Replace(tt.name)+".yaml")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		tt.doc(f)
		f.Close()
		fi, _ := os.Stat(path)
		limit, peakBound := maxHostileTime, int64(maxHostilePeak)
		if tt.name == "60,000 paths" {
			limit, peakBound = maxManyPathsTime, maxManyPathsPeak
		}
		// A reader of stdin would wait on this pipe for ever.
		stdin, hold, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		var probed string
		s := startOn(t, path, limit, stdin, func(url string) {
			status, body := get(t, "GET", strings.TrimSuffix(url, "/v1")+tt.probe, "")
			probed = fmt.Sprintf("GET %s: %d, %d bytes", tt.probe, status, len(body))
			if status != 200 {
				t.Errorf("%s: GET %s = %d %.200s, want 200", tt.name, tt.probe, status, body)
			}
		})
		stdin.Close()
		hold.Close()
		switch {
		case tt.refuse == "" && !s.served:
			t.Errorf("%s: refused, want it served:\n%s", tt.name, s.stderr)
		case tt.refuse != "" && s.served:
			t.Errorf("%s: served, want it refused", tt.name)
		case tt.refuse != "":
			msg := strings.TrimSuffix(s.stderr, "\n")
			if strings.Contains(msg, "\n") || !strings.Contains(msg, tt.refuse) {
				t.Errorf("%s: refusal %q, want one line that says %q", tt.name, msg, tt.refuse)
			}
		}
		what := "served in"
		if !s.served {
			what = "refused in"
		}
		at := ""
		if s.peakBound {
			at = "at most "
		}
		t.Logf("%s (%.1f MB): %s %v, peak memory %s%d MiB %s", tt.name, float64(fi.Size())/1e6, what, s.elapsed.Round(time.Millisecond), at, s.peak>>20, probed)
		if s.elapsed > limit {
			t.Errorf("%s: took %v, want at most %v", tt.name, s.elapsed, limit)
		}
		if s.peak > peakBound {
			t.Errorf("%s: peak memory %d MiB, want at most %d MiB", tt.name, s.peak>>20, peakBound>>20)
		}
	}
	if n := fetched.Load(); n > 0 {
		t.Errorf("the document's HTTP $ref was fetched %d times, want never", n)
	}
}

// text returns a writer of the document doc.
func text(doc string) func(io.Writer) {
	return func(w io.Writer) { io.WriteString(w, doc) }
}

// TestSoakSignalWhileStarting sends SIGINT, then SIGTERM, to petmock at
// points of the start on 60,000 paths, reading, compiling, making the
// catalogue, and holds the time it takes to exit to a second.
func TestSoakSignalWhileStarting(t *testing.T) {
	path := filepath.Join(t.TempDir(), "many.yaml")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	manyPathsDocument(f, manyPaths)
	f.Close()
	for _, after := range []time.Duration{500 * time.Millisecond, 3 * time.Second, 6 * time.Second, 9 * time.Second} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			cmd := exec.Command(petmockBinary(t), "--addr", "127.0.0.1:0", "--spec", path)
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() {
				cmd.Wait()
				close(exited)
			}()
			time.Sleep(after)
			sent := time.Now()
			cmd.Process.Signal(sig)
			select {
			case <-exited:
			case <-time.After(time.Minute):
				cmd.Process.Kill()
				<-exited
				t.Fatalf("%v after %v: still running a minute later", sig, after)
			}
			took := time.Since(sent)
			if stdout.Len() > 0 {
				t.Logf("%v after %v: petmock had started already; it stopped in %v", sig, after, took.Round(time.Millisecond))
				continue
			}
			t.Logf("%v after %v of the start: exited %d in %v: %s", sig, after, cmd.ProcessState.ExitCode(), took.Round(time.Millisecond), strings.TrimSpace(stderr.String()))
			if took > time.Second {
				t.Errorf("%v after %v: exited %v after the signal, want within a second", sig, after, took)
			}
			if !strings.Contains(stderr.String(), "stopped by a signal while starting") {
				t.Errorf("%v after %v: stderr %q, want it to say the start was stopped", sig, after, stderr.String())
			}
		}
	}
}
