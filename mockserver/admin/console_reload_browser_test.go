package admin_test

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

// TestConsoleShowsAReload: a version of the document petmock cannot serve
// shows in a banner, with why; once a server for a new version takes
// over, as petmock --watch makes one, the banner goes, the operations and
// the catalogue show the new document, and the page says what the reload
// kept.
func TestConsoleShowsAReload(t *testing.T) {
	first, err := mockserver.New(mockserver.Config{})
	if err != nil {
		t.Fatal(err)
	}
	h1, err := admin.New(first, admin.Config{})
	if err != nil {
		t.Fatal(err)
	}
	var cur atomic.Pointer[http.Handler]
	cur.Store(&h1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*cur.Load()).ServeHTTP(w, r) }))
	t.Cleanup(hs.Close)
	t.Cleanup(first.Close) // ends the page's event stream before the HTTP server closes
	b := newBrowser(t)
	c := &console{browser: b, root: hs.URL}
	b.do(t, "opening the console", chromedp.Navigate(c.root+admin.Prefix))
	b.waitUntil(t, "the operations are shown", `document.querySelector("#op-list li") !== null`)
	c.unlock(t, key)

	first.RefuseDocument("--spec pets.yaml: yaml: line 3: mapping values are not allowed in this context")
	c.waitUntil(t, "the banner says why", `!document.getElementById("document-refused").hidden &&
		document.getElementById("document-refused-message").textContent.includes("line 3: mapping values")`)

	next, err := mockserver.New(mockserver.Config{Contract: readContract(t, "evolved-ops.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	h2, err := admin.NewAfter(h1, next, admin.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := next.TakeOver(first, func() { cur.Store(&h2) }); err != nil {
		t.Fatal(err)
	}
	c.waitUntil(t, "the banner is gone and the new operations are shown", `document.getElementById("document-refused").hidden &&
		document.getElementById("op-listOrders") !== null`)
	c.waitUntil(t, "the catalogue offers the new resource", `[...document.querySelectorAll("#cat-resource option")].some((o) => o.value === "orders") &&
		document.getElementById("cat-resource").value === "pets"`)
	c.waitUntil(t, "the page says what the reload kept", `document.getElementById("document-reloaded").textContent.includes("kept 50 pets") &&
		[...document.querySelectorAll(".toast")].some((t) => t.textContent.startsWith("Document reloaded"))`)
	c.noErrors(t)
}
