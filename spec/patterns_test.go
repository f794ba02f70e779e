package spec_test

import (
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// TestPatternsGoCannotRun: a pattern that looks ahead, which Go's regexp
// cannot run, is left out with a warning naming its place, strict or not,
// and the document is served; a code point escaped as ECMA-262 writes it,
// \u002F, is read as Go writes it, and held to.
func TestPatternsGoCannotRun(t *testing.T) {
	doc := "openapi: 3.0.3\ninfo: {title: Small, version: 1.0.0}\n" + get(`{type: object, properties: {
        bucket: {type: string, pattern: '^(?!xn--)[a-z0-9-]+$'},
        path: {type: string, pattern: '^\u002Fdata\u002F.+$'}}}`)
	for _, strict := range []bool{false, true} {
		c, err := spec.ReadOptions{Strict: strict}.Read([]byte(doc))
		if err != nil {
			t.Fatalf("strict %v: %v", strict, err)
		}
		var said string
		for _, w := range c.Warnings {
			if strings.Contains(w, "pattern") {
				said += w + "\n"
			}
		}
		if !strings.Contains(said, thing+".properties.bucket.pattern") || !strings.Contains(said, "looks ahead") {
			t.Errorf("strict %v: warnings %q, want the look-ahead of bucket named", strict, said)
		}
		if strings.Contains(said, "properties.path") {
			t.Errorf("strict %v: warnings %q, want path's \\u002F read as Go writes it", strict, said)
		}
		s := c.Doc.Paths.Value("/things").Get.Responses.Status(200).Value.Content.Get("application/json").Schema.Value
		if err := s.VisitJSON(map[string]any{"bucket": "xn--a", "path": "/data/x"}); err != nil {
			t.Errorf("strict %v: a value of the schema without the pattern left out: %v", strict, err)
		}
		if err := s.VisitJSON(map[string]any{"path": "data/x"}); err == nil {
			t.Errorf("strict %v: path data/x passed a pattern that asks for /data/", strict)
		}
	}
}

// TestPatternsWrittenAsLiterals: a pattern written as a JavaScript
// regular expression literal, between slashes and anchored within them,
// as PeerTube's "/^[a-z0-9._]+$/" and Sinao's "/^[0-9]{5}$/i", is read as
// the expression between the slashes, with a warning naming its place: as
// written, no value matched it. A pattern of slashes that is no such
// literal is left as it is.
func TestPatternsWrittenAsLiterals(t *testing.T) {
	doc := "openapi: 3.0.3\ninfo: {title: Small, version: 1.0.0}\n" + get(`{type: object, properties: {
        slug: {type: string, pattern: '/^[a-z0-9._]+$/'},
        nic: {type: string, pattern: '/^[0-9]{3}[a-z]$/i'},
        magnet: {type: string, pattern: '/magnet:\?xt=urn:[a-z0-9]+/i'},
        route: {type: string, pattern: '/api/'}}}`)
	c, err := spec.Read([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	said := strings.Join(c.Warnings, "\n")
	for _, name := range []string{"slug", "nic", "magnet"} {
		if !strings.Contains(said, thing+".properties."+name+".pattern") || !strings.Contains(said, "JavaScript regular expression literal") {
			t.Errorf("warnings %q, want the literal of %s named", said, name)
		}
	}
	if strings.Contains(said, "properties.route") {
		t.Errorf("warnings %q, want route's pattern left as it is", said)
	}
	s := c.Doc.Paths.Value("/things").Get.Responses.Status(200).Value.Content.Get("application/json").Schema.Value
	if err := s.VisitJSON(map[string]any{"slug": "my.name_1", "nic": "123A", "route": "/v1/api/x", "magnet": "MAGNET:?xt=urn:btih"}); err != nil {
		t.Errorf("values of the patterns read between the slashes: %v", err)
	}
	for _, v := range []map[string]any{{"slug": "My Name"}, {"nic": "12AB"}, {"route": "v1"}} {
		if err := s.VisitJSON(v); err == nil {
			t.Errorf("%v passed its pattern", v)
		}
	}
}
