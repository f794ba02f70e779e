package admin_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver"
)

func TestRequestJournal(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{JournalSize: 3, APIKeys: []string{"journal-secret"}})
	auth := "Bearer journal-secret"
	ts.do(t, "GET", "/pets?limit=1", "", "Authorization", auth)
	ts.do(t, "POST", "/pets", `{"name":"Logged","categoryId":1}`, "Authorization", auth, "Cookie", "session=abc")
	ts.do(t, "GET", "/pets/424242", "", "Authorization", auth)
	ts.do(t, "GET", "/pets?status=lost", "", "Authorization", auth)
	resp := ts.admin(t, "GET", "requests", "", auth)
	if strings.Contains(string(resp.body), "journal-secret") || strings.Contains(string(resp.body), "session=abc") {
		t.Errorf("the journal holds a secret: %s", resp.body)
	}
	// Keys sent anywhere else are hidden too: in other headers, in the
	// query, in the body.
	ts.do(t, "POST", "/pets?access_token=other-token&note=journal-secret", `{"name":"journal-secret","categoryId":1}`,
		"Authorization", auth, "X-Api-Key", "journal-secret", "X-Forwarded-Key", "Bearer journal-secret")
	leaky := ts.admin(t, "GET", "requests?limit=1", "", auth)
	for _, secret := range []string{"journal-secret", "other-token"} {
		if strings.Contains(string(leaky.body), secret) {
			t.Errorf("the journal shows %q: %s", secret, leaky.body)
		}
	}
	var got struct{ Requests []journal.Exchange }
	if err := json.Unmarshal(resp.body, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Requests) != 3 {
		t.Fatalf("journal of size 3 holds %d requests", len(got.Requests))
	}
	newest := got.Requests[0]
	if newest.Method != "GET" || newest.Path != "/v1/pets" || newest.Query != "status=lost" || newest.Status != 400 {
		t.Errorf("newest = %+v, want GET /v1/pets?status=lost 400", newest)
	}
	post := got.Requests[2]
	if post.Method != "POST" || post.Status != 201 || post.Request.Body != `{"name":"Logged","categoryId":1}` ||
		!strings.Contains(post.Response.Body, `"name":"Logged"`) || post.Request.Header.Get("Authorization") != "[redacted]" ||
		post.Response.Header.Get("Location") == "" {
		t.Errorf("POST exchange = %+v", post)
	}
	if one := ts.admin(t, "GET", "requests?limit=2", "", auth); !strings.Contains(string(one.body), "status=lost") || strings.Count(string(one.body), `"method"`) != 2 {
		t.Errorf("GET requests?limit=1: %s", one.body)
	}
	ts.admin(t, "DELETE", "requests", "", auth)
	if empty := ts.admin(t, "GET", "requests", "", auth); string(empty.body) != `{"requests":[]}`+"\n" {
		t.Errorf("after DELETE requests: %s", empty.body)
	}
}

func TestJournalTurnedOff(t *testing.T) {
	ts := newTestServer(t, mockserver.Config{JournalSize: -1})
	ts.do(t, "GET", "/pets", "")
	for _, method := range []string{"GET", "DELETE"} {
		if resp := ts.admin(t, method, "requests", ""); resp.StatusCode != 200 || string(resp.body) != `{"requests":[]}`+"\n" {
			t.Errorf("%s requests with the journal off: %s, want an empty journal", method, resp)
		}
	}
}
