package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// syntaxError says why a document does not parse, err being the YAML
// parser's error: a document that begins as JSON does, with { or [, gets
// the JSON error, with its line and column; any other the YAML one, with
// its line. Either is the error of the one language the document is
// written in, not the two of a parser that tried both.
func syntaxError(data []byte, err error) error {
	if language(data) == "JSON" {
		var v any
		var se *json.SyntaxError
		if jerr := json.Unmarshal(data, &v); errors.As(jerr, &se) {
			line, col := position(data, se.Offset)
			return fmt.Errorf("the document does not parse as JSON: line %d, column %d: %v", line, col, se)
		}
	}
	return fmt.Errorf("the document does not parse as %s: %s", language(data), YAMLError(err))
}

// yamlLine finds the line of a message of the YAML parser.
var yamlLine = regexp.MustCompile(`^line (\d+): `)

// parserProblems are the problems the YAML parser, rather than its
// scanner, finds: yaml.v3 tells their line counted from 0, where it tells
// a scanner's from 1, and leaves the line out when it is the first.
var parserProblems = []string{
	"did not find expected <stream-start>",
	"did not find expected <document start>",
	"found undefined tag handle",
	"did not find expected node content",
	"did not find expected '-' indicator",
	"did not find expected key",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found duplicate %TAG directive",
}

// YAMLError returns the message of an error of the YAML parser with the
// line that a reader's editor shows, counted from 1: yaml.v3 tells the line
// of the problems its parser finds, such as a flow mapping left open
// ({a: 1), one too low, and none on the first line. The line of a flow
// collection left open is the line it begins on. Messages of other errors
// are returned as they are, without the "yaml: " they begin with.
func YAMLError(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line, rest := 0, msg
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		rest = msg[len(m[0]):]
	}
	for _, p := range parserProblems {
		if rest == p {
			return fmt.Sprintf("line %d: %s", line+1, rest)
		}
	}
	return msg
}

// language names the language a document is written in: JSON when it
// begins as JSON does, with { or [, and YAML otherwise.
func language(data []byte) string {
	if trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff"); len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		return "JSON"
	}
	return "YAML"
}

// position returns the line and column, from 1, of the byte at offset,
// where a JSON error's offset points just past the byte at fault.
func position(data []byte, offset int64) (line, col int) {
	offset = min(max(offset-1, 0), int64(len(data)))
	before := data[:offset]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = 1 + len(before) - (bytes.LastIndexByte(before, '\n') + 1)
	return line, col
}
