package mockserver

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/petstore/contract/spec"
)

// madeDocument has an operation of no resource whose answer is an array
// of objects, as a search or a report answers.
const madeDocument = `openapi: 3.0.3
info: {title: Made, version: 1.0.0}
servers: [{url: /v1}]
paths:
  /pets/findByStatus:
    get:
      operationId: findPetsByStatus
      parameters: [{name: status, in: query, schema: {type: string, enum: [available, sold]}}]
      responses:
        '200':
          description: The pets of that status.
          content:
            application/json:
              schema:
                type: array
                items:
                  type: object
                  required: [id, name]
                  properties:
                    id: {type: integer, format: int64}
                    name: {type: string}
                    photoUrls: {type: array, items: {type: string, format: uri}}
                    tags: {type: array, items: {type: object, properties: {id: {type: integer}, name: {type: string}}}}
`

// TestMadeAnswersAreKeptAsMade holds the answers kept for the requests
// made again to the answers made afresh: the same bytes, for each query.
func TestMadeAnswersAreKeptAsMade(t *testing.T) {
	c, err := spec.Read([]byte(madeDocument))
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Contract: c, ChaosSeed: 7})
	if err != nil {
		t.Fatal(err)
	}
	g := s.ops[s.gate.Operation("findPetsByStatus").Index].answer
	serve := func(s *Server, query string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest("GET", "http://petmock/v1/pets/findByStatus"+query, nil))
		return w
	}
	for _, query := range []string{"", "?status=sold", "?status=available", "?status=sold"} {
		// A server that has kept nothing makes the answer afresh.
		other, err := New(Config{Contract: c, ChaosSeed: 7})
		if err != nil {
			t.Fatal(err)
		}
		fresh := serve(other, query).Body.Bytes()
		for range 2 {
			if w := serve(s, query); w.Code != 200 || !bytes.Equal(w.Body.Bytes(), fresh) {
				t.Errorf("GET %s: %d %s, want 200 %s, the answer made afresh", query, w.Code, w.Body, fresh)
			}
		}
	}
	if n := len(g.made.bodies); n != 3 {
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
