package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// wrongExample is a document whose example does not match its schema, as
// many published documents have one.
const wrongExample = `openapi: 3.0.3
info: {title: Reports, version: 1.0.0}
servers: [{url: /v1}]
paths:
  /report:
    get:
      responses:
        '200':
          description: A report.
          content:
            application/json:
              schema: {type: object, properties: {day: {type: string, format: date-time}}}
              example: {day: 2024-01-31}
`

// runLogged runs petmock in-process with args until it has answered GET
// path under its base URL, then stops it, and returns its start line, the
// status of the answer and its log.
func runLogged(t *testing.T, path string, args ...string) (line string, status int, log string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"--addr", "127.0.0.1:0"}, args...), env(), outW, &stderr)
		outW.Close()
	}()
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatalf("no start line: %v (run: %v)", err, <-done)
	}
	go io.Copy(io.Discard, outR)
	line = strings.TrimSpace(line)
	status, _ = get(t, "GET", strings.Fields(line)[2]+path, "")
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("petmock did not stop")
	}
	return line, status, stderr.String() // run has returned: its log is written
}

// TestLenientDocument: a document with an example that does not match its
// schema is served, with one warning line naming the example; with
// --strict-document, or PETMOCK_STRICT_DOCUMENT, it is refused in one line
// that names it.
func TestLenientDocument(t *testing.T) {
	const place = "paths./report.get.responses.200.content.application/json.example"
	file := writeFile(t, "report.yaml", wrongExample)
	_, status, log := runLogged(t, "/report", "--spec", file)
	if status != 200 {
		t.Errorf("GET /v1/report: %d, want 200", status)
	}
	var warnings []string
	for l := range strings.Lines(log) {
		if strings.Contains(l, "level=WARN") {
			warnings = append(warnings, l)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], place) {
		t.Errorf("warnings:\n%s\nwant one that names %s", strings.Join(warnings, ""), place)
	}
	for _, tt := range []struct {
		args []string
		env  func(string) string
	}{
		{[]string{"--spec", file, "--strict-document"}, env()},
		{[]string{"--spec", file}, env("PETMOCK_STRICT_DOCUMENT", "true")},
	} {
		err := run(context.Background(), append(tt.args, "--addr", "127.0.0.1:0"), tt.env, io.Discard, io.Discard)
		if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), place) || strings.Contains(err.Error(), "\n") {
			t.Errorf("petmock %v: err = %v, want a usage error of one line that names %s", tt.args, err, place)
		}
	}
}

// TestSwagger2Document: a Swagger 2.0 document is served, converted, and
// the start line says so.
func TestSwagger2Document(t *testing.T) {
	file := writeFile(t, "swagger.yaml", `swagger: '2.0'
info: {title: Reports, version: '1'}
basePath: /v1
paths:
  /report:
    get:
      produces: [application/json]
      responses:
        '200': {description: A report., schema: {type: object, properties: {count: {type: integer}}}}
`)
	line, status, _ := runLogged(t, "/report", "--spec", file)
	if !strings.Contains(line, "/v1 (converted from Swagger 2.0) with ") {
		t.Errorf("start line = %q, want the base path /v1 and (converted from Swagger 2.0)", line)
	}
	if status != 200 {
		t.Errorf("GET /v1/report: %d, want 200", status)
	}
}
