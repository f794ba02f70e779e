package spec_test

import (
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// TestTextWrittenAsNumbers: a pattern written as a number, api.video's
// "pattern": 0, is left out, and a description or a format so written is
// read as its text, each with a warning that names its place; an example
// that holds such members is a value, left as it is; read strictly, the
// document is refused, naming the place.
func TestTextWrittenAsNumbers(t *testing.T) {
	doc := "openapi: 3.0.3\ninfo: {title: Small, version: 1.0.0, description: 2024-01-31}\n" + get(`{type: object, description: 5, properties: {
        timecode: {type: string, pattern: 0},
        value: {type: string, format: 12},
        sample: {type: object, example: {pattern: 0}}}}`)
	c, err := spec.Read([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	said := strings.Join(c.Warnings, "\n")
	for _, want := range []string{
		thing + ".properties.timecode.pattern: 0, where a pattern is text; left out",
		thing + ".description: 5, where a description is text; read as the text \"5\"",
		thing + ".properties.value.format: 12, where a format is text; read as the text \"12\"",
	} {
		if !strings.Contains(said, want) {
			t.Errorf("warnings\n%s\nwant %q", said, want)
		}
	}
	if strings.Contains(said, "info.description") {
		t.Errorf("warnings\n%s\nname info.description, a date YAML reads as a timestamp, which is text to JSON", said)
	}
	s := c.Doc.Paths.Value("/things").Get.Responses.Status(200).Value.Content.Get("application/json").Schema.Value
	if s.Description != "5" || s.Properties["timecode"].Value.Pattern != "" || s.Properties["value"].Value.Format != "12" {
		t.Errorf("description %q, timecode's pattern %q, value's format %q; want 5, none and 12", s.Description, s.Properties["timecode"].Value.Pattern, s.Properties["value"].Value.Format)
	}
	if ex, _ := s.Properties["sample"].Value.Example.(map[string]any); ex == nil || ex["pattern"] == nil {
		t.Errorf("the example %v lost its member pattern, a value", s.Properties["sample"].Value.Example)
	}
	_, err = spec.ReadOptions{Strict: true}.Read([]byte(doc))
	if err == nil || !strings.Contains(err.Error(), thing+".description: 5, where a description is text") {
		t.Errorf("strict: %v, want the first place refused", err)
	}
}
