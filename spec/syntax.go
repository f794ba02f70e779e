package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
	return fmt.Errorf("the document does not parse as %s: %s", language(data), strings.TrimPrefix(err.Error(), "yaml: "))
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
