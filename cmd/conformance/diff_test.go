package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/petstore/contract/spec/compat"
)

// shelter is the older document of the comparisons below: three
// operations, a query parameter, a request body and responses with
// properties, and an enumeration on each side of the wire.
const shelter = `openapi: 3.0.3
info:
  title: Shelter
  version: 1.0.0
security:
  - bearerAuth: []
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - name: status
          in: query
          required: false
          schema:
            type: string
            enum: [available, pending, sold]
      responses:
        '200':
          description: The pets.
          content:
            application/json:
              schema:
                type: array
                items:
                  $ref: '#/components/schemas/Pet'
    post:
      operationId: createPet
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/NewPet'
      responses:
        '201':
          description: The pet created.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Pet'
        '400':
          description: The body is not a NewPet.
  /pets/{petId}:
    get:
      operationId: getPet
      description: Returns one pet.
      x-petmock-choice: Nothing to say.
      parameters:
        - name: petId
          in: path
          required: true
          schema:
            type: integer
      responses:
        '200':
          description: The pet.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Pet'
        '404':
          description: No pet has that id.
  /health:
    get:
      operationId: health
      security: []
      responses:
        '204':
          description: The service is up.
components:
  securitySchemes:
    bearerAuth:
      type: http
      scheme: bearer
  schemas:
    NewPet:
      type: object
      required: [name]
      properties:
        name:
          type: string
        age:
          type: integer
        size:
          type: string
          enum: [small, medium, large]
    Pet:
      type: object
      required: [id, name]
      properties:
        id:
          type: integer
        name:
          type: string
        age:
          type: integer
          example: 3
`

// edit is one replacement in shelter: the text old, which must occur
// once, becomes new.
type edit struct{ old, new string }

// evolve returns shelter with edits made, failing the test if one does
// not apply: a case that changes nothing would pass for the wrong reason.
func evolve(tb testing.TB, edits ...edit) string {
	tb.Helper()
	doc := shelter
	for _, e := range edits {
		if n := strings.Count(doc, e.old); n != 1 {
			tb.Fatalf("edit %q occurs %d times in the document, want once", e.old, n)
		}
		doc = strings.Replace(doc, e.old, e.new, 1)
	}
	return doc
}

// writeDoc writes a document to a file of the test's and returns its path.
func writeDoc(tb testing.TB, name, doc string) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), name)
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// diffBinary runs conformance diff on two documents given as text, each
// written to a file, with args before them.
func diffBinary(tb testing.TB, old, new string, args ...string) result {
	tb.Helper()
	args = append(append([]string{"diff"}, args...), writeDoc(tb, "old.yaml", old), writeDoc(tb, "new.yaml", new))
	return runBinary(tb, nil, args...)
}

// TestDiffChanges: each change of the contract is listed on a line of its
// own that names the operation and the field, as breaking or not, and the
// exit status is 1 if and only if one breaks clients of the older
// document.
func TestDiffChanges(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		edits    []edit
		severity compat.Severity
		line     []string // what the change's line says, beside its severity
	}{
		{"an operation removed", []edit{{"    post:\n      operationId: createPet\n", "    x-post:\n      operationId: createPet\n"}},
			compat.Breaking, []string{"POST /pets:", "removed"}},
		{"a path removed", []edit{{"  /health:\n", "  /healthz:\n"}},
			compat.Breaking, []string{"GET /health:", "removed"}},
		{"a new required request property", []edit{{"      required: [name]\n      properties:\n        name:", "      required: [name, age]\n      properties:\n        name:"}},
			compat.Breaking, []string{"POST /pets:", "request property `age`", "required"}},
		{"a request property's type changed", []edit{{"        age:\n          type: integer\n        size:", "        age:\n          type: string\n        size:"}},
			compat.Breaking, []string{"POST /pets:", "`age` request property", "`integer` to `string`"}},
		{"a request enumeration narrowed", []edit{{"enum: [small, medium, large]", "enum: [small, medium]"}},
			compat.Breaking, []string{"POST /pets:", "enum value `large`", "request property `size`"}},
		{"a required response property removed", []edit{{"      required: [id, name]\n", "      required: [id]\n"}, {"        id:\n          type: integer\n        name:\n          type: string\n", "        id:\n          type: integer\n"}},
			compat.Breaking, []string{"GET /pets/{petId}:", "removed", "`name`", "`200`"}},
		{"a response status removed", []edit{{"        '200':\n          description: The pet.\n          content:\n            application/json:\n              schema:\n                $ref: '#/components/schemas/Pet'\n", ""}},
			compat.Breaking, []string{"GET /pets/{petId}:", "removed", "`200`"}},
		{"a parameter became required", []edit{{"          required: false\n", "          required: true\n"}},
			compat.Breaking, []string{"GET /pets:", "`status`", "became required"}},
		{"security added", []edit{{"      operationId: health\n      security: []\n", "      operationId: health\n"}},
			compat.Breaking, []string{"GET /health:", "anonymous access", "`bearerAuth`"}},
		{"a new optional request property", []edit{{"        size:\n", "        colour:\n          type: string\n        size:\n"}},
			compat.NonBreaking, []string{"POST /pets:", "optional request property `colour`"}},
		{"a new operation", []edit{{"  /health:\n", "  /pets/{petId}/photos:\n    get:\n      operationId: listPhotos\n      parameters:\n        - {name: petId, in: path, required: true, schema: {type: integer}}\n      responses:\n        '200':\n          description: The photos.\n  /health:\n"}},
			compat.NonBreaking, []string{"GET /pets/{petId}/photos:", "added"}},
		{"a new response property", []edit{{"          example: 3\n", "          example: 3\n        colour:\n          type: string\n"}},
			compat.NonBreaking, []string{"GET /pets/{petId}:", "property `colour`", "response", "`200`"}},
		{"a request enumeration widened", []edit{{"enum: [small, medium, large]", "enum: [small, medium, large, huge]"}},
			compat.NonBreaking, []string{"POST /pets:", "`huge`", "request property `size`"}},
		// A client must do without an optional property, and the server
		// may ignore one it no longer knows.
		{"an optional response property removed", []edit{{"        age:\n          type: integer\n          example: 3\n", ""}},
			compat.NonBreaking, []string{"GET /pets/{petId}:", "removed", "optional property `age`", "`200`"}},
		{"a request property removed", []edit{{"        age:\n          type: integer\n        size:", "        size:"}},
			compat.MayBreak, []string{"POST /pets:", "removed", "request property `age`"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := diffBinary(t, shelter, evolve(t, tc.edits...), "--no-color")
			want := 0
			if tc.severity == compat.Breaking {
				want = 1
			}
			if r.code != want {
				t.Errorf("exit %d, want %d: the change is %s\n%s", r.code, want, tc.severity, r)
			}
			line := changeLine(r.stdout, tc.severity, tc.line[0])
			if line == "" {
				t.Fatalf("no %s change of %s is listed\n%s", tc.severity, tc.line[0], r)
			}
			for _, s := range tc.line[1:] {
				if !strings.Contains(line, s) {
					t.Errorf("the line %q does not say %q\n%s", line, s, r)
				}
			}
		})
	}
}

// changeLine returns the first line of a text report that lists a change
// of severity s at where, or "".
func changeLine(report string, s compat.Severity, where string) string {
	for line := range strings.Lines(report) {
		if rest, ok := strings.CutPrefix(line, s.String()+" "); ok && strings.HasPrefix(strings.TrimLeft(rest, " "), where) {
			return strings.TrimSpace(line)
		}
	}
	return ""
}

// TestDiffVersionNotBumped: a breaking change under the same version is
// said on a line of its own, right after the breaking changes, and is not
// counted as a change that does not break (TestDiffJSON holds the JSON
// report to the same).
func TestDiffVersionNotBumped(t *testing.T) {
	t.Parallel()
	r := diffBinary(t, shelter, evolve(t,
		edit{"  /health:\n", "  /healthz:\n"},
		edit{"        size:\n", "        colour:\n          type: string\n        size:\n"},
	), "--no-color")
	if r.code != 1 {
		t.Errorf("exit %d, want 1\n%s", r.code, r)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	var words []string
	for _, line := range lines[2 : len(lines)-1] {
		words = append(words, strings.Fields(line)[0])
	}
	if want := []string{"breaking", "version", "non-breaking", "non-breaking"}; !slices.Equal(words, want) {
		t.Errorf("the lines begin %q, want %q: the version's line right after the breaking change\n%s", words, want, r)
	}
	if !strings.Contains(r.stdout, "\nversion       info: a breaking change was detected but the version is still `1.0.0`\n") {
		t.Errorf("no line says that the version is still 1.0.0\n%s", r)
	}
	if !strings.HasSuffix(r.stdout, "\n1 breaking change, 2 non-breaking\n") {
		t.Errorf("the summary counts the version's line as a change\n%s", r)
	}
}

// TestDiffStrict: a change that may break some clients is listed as such
// and fails the comparison only with --strict.
func TestDiffStrict(t *testing.T) {
	t.Parallel()
	revision := evolve(t, edit{"        age:\n          type: integer\n        size:", "        size:"})
	for _, tc := range []struct {
		args []string
		want int
	}{{nil, 0}, {[]string{"--strict"}, 1}} {
		r := diffBinary(t, shelter, revision, tc.args...)
		if r.code != tc.want {
			t.Errorf("diff %q: exit %d, want %d\n%s", tc.args, r.code, tc.want, r)
		}
		if !strings.Contains(r.stdout, "0 breaking changes, 1 that may break, ") {
			t.Errorf("diff %q: the summary does not count the change that may break\n%s", tc.args, r)
		}
	}
}

// TestDiffIgnoresWhatClientsCannotSee: descriptions, summaries, examples
// and petmock's own extensions change nothing a client sends or receives,
// so a document that changes only them has no changes.
func TestDiffIgnoresWhatClientsCannotSee(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		edits []edit
	}{
		{"a description", []edit{{"description: Returns one pet.", "description: Returns one pet, by its id."}}},
		{"a response's description", []edit{{"description: No pet has that id.", "description: No pet has this id."}}},
		{"a summary", []edit{{"      operationId: listPets\n", "      operationId: listPets\n      summary: List the pets\n"}}},
		{"an example", []edit{{"example: 3", "example: 4"}}},
		{"an x-petmock- extension", []edit{{"x-petmock-choice: Nothing to say.", "x-petmock-choice: Something else to say."}}},
		{"an x-petmock- extension added", []edit{{"      operationId: health\n", "      operationId: health\n      x-petmock-order: By name.\n"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := diffBinary(t, shelter, evolve(t, tc.edits...))
			if r.code != 0 || !strings.HasSuffix(r.stdout, "\nno changes\n") {
				t.Errorf("exit %d, want 0 and no changes\n%s", r.code, r)
			}
		})
	}
}

// TestDiffSameDocument: the repository's document compared with itself
// has no changes.
func TestDiffSameDocument(t *testing.T) {
	t.Parallel()
	doc := repoFile(t, "spec/openapi.yaml")
	r := runBinary(t, nil, "diff", doc, doc)
	want := "old: Petstore 1.0.0 (" + doc + ")\nnew: Petstore 1.0.0 (" + doc + ")\nno changes\n"
	if r.code != 0 || r.stdout != want {
		t.Errorf("exit %d, want 0 and\n%s\n%s", r.code, want, r)
	}
}

// TestDiffEvolvedDocuments: the later versions of the repository's
// document, which petmock serves and conformance judges unchanged, only
// grow it: nothing breaks or may break a client of version 1.0.0. Going
// back from them is another matter: without the store's operations,
// their clients break; without the tag, a client that sends one may.
func TestDiffEvolvedDocuments(t *testing.T) {
	t.Parallel()
	base := repoFile(t, "spec/openapi.yaml")
	for _, tc := range []struct {
		file string
		says []string // lines of the report, between the headers and the summary
		back int      // the exit status of the comparison the other way round
	}{
		{"testdata/evolved-field.yaml", []string{
			"non-breaking  POST /pets: added the new optional request property `tag`",
			"non-breaking  POST /pets: added the optional property `tag` to the response with the `201` status",
			"non-breaking  GET /pets: added the optional property `items/tag` to the response with the `200` status",
			"non-breaking  GET /pets/{petId}: added the optional property `tag` to the response with the `200` status",
		}, 0},
		{"testdata/evolved-ops.yaml", []string{
			"non-breaking  GET /store/orders: endpoint added",
			"non-breaking  POST /store/orders: endpoint added",
			"non-breaking  GET /store/orders/{orderId}: endpoint added",
			"non-breaking  PUT /store/orders/{orderId}: endpoint added",
			"non-breaking  PATCH /store/orders/{orderId}: endpoint added",
			"non-breaking  DELETE /store/orders/{orderId}: endpoint added",
			"non-breaking  GET /store/inventory: endpoint added",
		}, 1},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			evolved := repoFile(t, tc.file)
			r := runBinary(t, nil, "diff", base, evolved)
			if r.code != 0 {
				t.Errorf("exit %d, want 0: the document only grows\n%s", r.code, r)
			}
			lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
			if len(lines) < 3 {
				t.Fatalf("the report has %d lines, want headers, changes and a summary\n%s", len(lines), r)
			}
			changes := lines[2 : len(lines)-1]
			for _, want := range tc.says {
				if !slices.Contains(changes, want) {
					t.Errorf("the report does not list %q\n%s", want, r)
				}
			}
			if len(changes) != len(tc.says) {
				t.Errorf("the report lists %d changes, want %d\n%s", len(changes), len(tc.says), r)
			}
			if want := fmt.Sprintf("0 breaking changes, %d non-breaking", len(tc.says)); lines[len(lines)-1] != want {
				t.Errorf("the summary is %q, want %q", lines[len(lines)-1], want)
			}
			back := runBinary(t, nil, "diff", evolved, base)
			if back.code != tc.back {
				t.Errorf("the other way round: exit %d, want %d\n%s", back.code, tc.back, back)
			}
		})
	}
}

// repoFile returns the absolute path of a file of the repository.
func repoFile(tb testing.TB, name string) string {
	tb.Helper()
	path, err := filepath.Abs(filepath.Join("..", "..", name))
	if err != nil {
		tb.Fatal(err)
	}
	return path
}

// TestDiffStandardInput: - reads one of the two documents from standard
// input, which the report names as such.
func TestDiffStandardInput(t *testing.T) {
	t.Parallel()
	revision := evolve(t, edit{"  /health:\n", "  /healthz:\n"})
	for _, tc := range []struct {
		name  string
		args  func(file string) []string
		stdin string
		head  string
	}{
		{"the older", func(file string) []string { return []string{"diff", "-", file} }, shelter, "old: Shelter 1.0.0 (standard input)\n"},
		{"the newer", func(file string) []string { return []string{"diff", file, "-"} }, revision, "new: Shelter 1.0.0 (standard input)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			file := writeDoc(t, "doc.yaml", shelter)
			if tc.stdin == shelter {
				file = writeDoc(t, "doc.yaml", revision)
			}
			cmd := exec.Command(binary, tc.args(file)...)
			cmd.Stdin = strings.NewReader(tc.stdin)
			out, err := cmd.Output()
			var exitErr *exec.ExitError
			if !errors.As(err, &exitErr) || exitErr.ExitCode() != 1 {
				t.Fatalf("exit %v, want 1: a path was removed\n%s", err, out)
			}
			if !strings.Contains(string(out), tc.head) || !strings.Contains(string(out), "GET /health: api path removed") {
				t.Errorf("the report does not name standard input or the change\n%s", out)
			}
		})
	}
}

// TestDiffCannotCompare: a mistake of the command line, or a document
// that cannot be read, exits 2 with one line that says what is wrong and,
// for a document, names it; nothing is written to standard output.
func TestDiffCannotCompare(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := writeDoc(t, "good.yaml", shelter)
	file := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	missing := filepath.Join(dir, "missing.yaml")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{good}, "diff needs two documents, OLD and NEW"},
		{[]string{good, good, good}, `unexpected argument "` + good + `"`},
		{[]string{"-", "-"}, "only one of OLD and NEW can be -"},
		{[]string{"--format", "yaml", good, good}, "--format yaml: must be text or json"},
		{[]string{"--bogus", good, good}, "unknown flag --bogus"},
		{[]string{missing, good}, missing + ": no such file or directory"},
		{[]string{good, dir}, dir + ": is a directory"},
		{[]string{file("empty.yaml", "\n"), good}, "empty.yaml: the document is empty"},
		{[]string{file("list.yaml", "- a\n- b\n"), good}, "list.yaml: not an OpenAPI document"},
		{[]string{file("unclosed.yaml", "a: [\n"), good}, "unclosed.yaml: not YAML or JSON"},
		{[]string{file("notes.txt", "title: Shelter\n"), good}, "notes.txt: openapi: missing"},
		{[]string{good, file("swagger1.yaml", "swagger: '1.2'\n")}, `swagger1.yaml: swagger: version "1.2"`},
		{[]string{good, file("broken.yaml", strings.Replace(shelter, "$ref: '#/components/schemas/NewPet'", "$ref: '#/components/schemas/Nothing'", 1))}, "broken.yaml: load:"},
		{[]string{good, file("invalid.yaml", strings.Replace(shelter, "          type: integer\n      responses:", "          type: integr\n      responses:", 1))}, "invalid.yaml: validate:"},
		{[]string{good, file("external.yaml", strings.Replace(shelter, "$ref: '#/components/schemas/NewPet'", "$ref: 'pets.yaml#/NewPet'", 1))}, "external.yaml: load:"},
	} {
		r := runBinary(t, nil, append([]string{"diff"}, tc.args...)...)
		if r.code != 2 {
			t.Errorf("diff %q: exit %d, want 2\n%s", tc.args, r.code, r)
			continue
		}
		if r.stdout != "" {
			t.Errorf("diff %q wrote a report\n%s", tc.args, r)
		}
		if !strings.HasPrefix(r.stderr, "conformance: ") || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("diff %q: stderr %q, want one line that says %q", tc.args, r.stderr, tc.want)
		}
	}
}

// TestDiffJSON: --format json writes the documents, the changes and their
// counts as one object, with the exit status of the text report.
func TestDiffJSON(t *testing.T) {
	t.Parallel()
	r := diffBinary(t, shelter, evolve(t,
		edit{"  /health:\n", "  /healthz:\n"},
		edit{"        size:\n", "        colour:\n          type: string\n        size:\n"},
	), "--format", "json")
	if r.code != 1 {
		t.Errorf("exit %d, want 1: a path was removed\n%s", r.code, r)
	}
	var got struct {
		Old, New                        struct{ File, Title, Version string }
		Changes                         []compat.Change
		Versioning                      []compat.Remark
		Breaking, MayBreak, NonBreaking int
	}
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("the report is not the JSON object documented: %v\n%s", err, r)
	}
	if got.Old.Title != "Shelter" || got.New.Version != "1.0.0" || !strings.HasSuffix(got.Old.File, "old.yaml") || !strings.HasSuffix(got.New.File, "new.yaml") {
		t.Errorf("the documents are %+v and %+v", got.Old, got.New)
	}
	removed := compat.Change{Severity: compat.Breaking, Method: "GET", Path: "/health", Section: "paths", Text: "api path removed without deprecation", Rule: "api-path-removed-without-deprecation"}
	if len(got.Changes) == 0 || got.Changes[0] != removed {
		t.Errorf("the first change is not %+v\n%s", removed, r.stdout)
	}
	var added bool
	for _, c := range got.Changes {
		added = added || c.Severity == compat.NonBreaking && c.Method == "POST" && c.Path == "/pets" && strings.Contains(c.Text, "`colour`")
	}
	if !added {
		t.Errorf("no change says the request property colour was added\n%s", r.stdout)
	}
	if len(got.Versioning) != 1 || got.Versioning[0].Rule != "api-version-not-bumped" {
		t.Errorf("versioning %+v, want the version not bumped, apart from the changes\n%s", got.Versioning, r.stdout)
	}
	if got.Breaking != 1 || got.MayBreak != 0 || got.NonBreaking != len(got.Changes)-1 {
		t.Errorf("the counts are %d breaking, %d may break, %d non-breaking, of %d changes", got.Breaking, got.MayBreak, got.NonBreaking, len(got.Changes))
	}
}

// TestDiffColor: the severities are coloured on a terminal only, and
// neither with --no-color nor with NO_COLOR set.
func TestDiffColor(t *testing.T) {
	tty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no terminal to write to: %v", err)
	}
	defer tty.Close()
	env := func(vars ...string) func(string) string {
		return func(name string) string {
			if slices.Contains(vars, name) {
				return "1"
			}
			return ""
		}
	}
	for _, tc := range []struct {
		name    string
		noColor bool
		getenv  func(string) string
		w       io.Writer
		want    bool
	}{
		{"a terminal", false, env(), tty, true},
		{"a terminal, --no-color", true, env(), tty, false},
		{"a terminal, NO_COLOR", false, env("NO_COLOR"), tty, false},
		{"a buffer", false, env(), &bytes.Buffer{}, false},
	} {
		if got := useColor(tc.noColor, tc.getenv, tc.w); got != tc.want {
			t.Errorf("%s: colour %v, want %v", tc.name, got, tc.want)
		}
	}
	doc, err := compat.Read("shelter.yaml", []byte(shelter))
	if err != nil {
		t.Fatal(err)
	}
	report := &compat.Report{Changes: []compat.Change{{Severity: compat.Breaking, Method: "GET", Path: "/health", Section: "paths", Text: "api path removed without deprecation"}}}
	for _, color := range []bool{true, false} {
		var out bytes.Buffer
		if err := writeDiffText(&out, doc, doc, report, color); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(out.String(), "\x1b[31mbreaking"); got != color {
			t.Errorf("colour %v: the report has a red severity: %v\n%q", color, got, out.String())
		}
		if !color && strings.Contains(out.String(), "\x1b") {
			t.Errorf("colour off: the report has escape codes\n%q", out.String())
		}
	}
}
