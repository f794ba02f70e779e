package answer

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/spec"
)

// TestMadeAnswersAreKeptAsMade holds the answers kept for the requests
// made again to the answers made afresh: the same bytes, for each query.
func TestMadeAnswersAreKeptAsMade(t *testing.T) {
	c, err := spec.ReadFile("testdata/made.yaml")
	if err != nil {
		t.Fatal(err)
	}
	generated := func() *Generated {
		g, _, err := NewGenerated(c, c.Operation("findPetsByStatus"), shape.NewBuilder(c), map[*openapi3.Schema]error{})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	g := generated()
	serve := func(g *Generated, query string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		r := httptest.NewRequest("GET", "http://petmock/v1/pets/findByStatus"+query, nil)
		q, e := edge.ParseQuery(r.URL.RawQuery)
		if e != nil {
			t.Fatal(e)
		}
		if err := g.Serve(w, r, &edge.Call{Query: q}, 7, func(string) bool { return false }); err != nil {
			t.Fatal(err)
		}
		return w
	}
	for _, query := range []string{"", "?status=sold", "?status=available", "?status=sold"} {
		// A maker that has kept nothing makes the answer afresh.
		fresh := serve(generated(), query).Body.Bytes()
		for range 2 {
			if w := serve(g, query); w.Code != 200 || !bytes.Equal(w.Body.Bytes(), fresh) {
				t.Errorf("GET %s: %d %s, want 200 %s, the answer made afresh", query, w.Code, w.Body, fresh)
			}
		}
	}
	if n := len(g.first.made.bodies); n != 3 {
		t.Errorf("%d answers kept, want 3, one for each request", n)
	}
}

func TestMadeAnswersAreBounded(t *testing.T) {
	var m madeAnswers
	for i := range maxMadeAnswers + 10 {
		m.put(fmt.Sprint(i), []byte("body"))
	}
	if len(m.bodies) > maxMadeAnswers || len(m.order) != len(m.bodies) {
		t.Errorf("%d answers kept (%d in order), want at most %d", len(m.bodies), len(m.order), maxMadeAnswers)
	}
	if _, ok := m.get("0"); ok {
		t.Error("the oldest answer is still kept past the bound")
	}
	if body, ok := m.get(fmt.Sprint(maxMadeAnswers + 9)); !ok || string(body) != "body" {
		t.Error("the newest answer is not kept")
	}
	big := []byte(strings.Repeat("x", maxMadeBytes/3))
	for i := range 4 {
		m.put("big"+fmt.Sprint(i), big)
	}
	if m.bytes > maxMadeBytes {
		t.Errorf("%d bytes kept, want at most %d", m.bytes, maxMadeBytes)
	}
	m.put("huge", make([]byte, maxMadeBytes+1))
	if _, ok := m.get("huge"); ok {
		t.Error("an answer larger than the bound of bytes is kept")
	}
}
