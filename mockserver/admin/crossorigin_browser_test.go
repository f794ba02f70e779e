package admin_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

// A page of another origin, such as one a developer visits while petmock
// runs, tries what the published key would let it do: read the journal
// and change a setting, with fetch. The browser itself is the judge.

// otherPage serves a page of another origin: a second server, on another
// port of the loopback address.
func otherPage(t testing.TB) *httptest.Server {
	t.Helper()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><title>another page</title><p>Nothing to see.</p>")
	}))
	t.Cleanup(page.Close)
	return page
}

// attempts are the page's two fetches, each with the published key; each
// comes back as "read: <body>" or "failed: <error>".
const attempts = `(async () => {
	const petmock = %q, key = "Bearer " + %q;
	const attempt = (p) => p.then(async (r) => "read: " + r.status + " " + await r.text(), (e) => "failed: " + e);
	const journal = await attempt(fetch(petmock + "/__petmock/requests", {headers: {Authorization: key}}));
	const patch = await attempt(fetch(petmock + "/__petmock/settings", {
		method: "PATCH", headers: {Authorization: key, "Content-Type": "application/json"}, body: '{"failRate":1}'}));
	return [journal, patch];
})()`

// runAttempts opens the page of another origin and makes its fetches to
// petmock at root.
func runAttempts(t *testing.T, b *browser, page, root string) []string {
	t.Helper()
	b.do(t, "opening the other page", chromedp.Navigate(page))
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](fmt.Sprintf(attempts, root, mockserver.DefaultAPIKey), chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("the page's fetches: %v", err)
	}
	if len(got) != 2 {
		t.Fatalf("the page's fetches: %q", got)
	}
	return got
}

func TestAnotherOriginCannotReadTheJournalOrChangeASetting(t *testing.T) {
	page := otherPage(t)
	ts := newTestServer(t, mockserver.Config{})
	ts.do(t, "POST", "/pets", `{"name":"Private Biscuit","categoryId":2}`)
	b := newBrowser(t)
	got := runAttempts(t, b, page.URL, ts.root)
	for i, what := range []string{"reading the journal", "changing the fail rate"} {
		if !strings.HasPrefix(got[i], "failed: ") || strings.Contains(got[i], "Private Biscuit") {
			t.Errorf("a page of %s %s with fetch: %s, want the browser to refuse it", page.URL, what, got[i])
		}
	}
	if v := ts.settings(t); v.FailRate != 0 || len(v.Changes) != 0 {
		t.Errorf("after the page's PATCH, the fail rate is %v, with changes %+v", v.FailRate, v.Changes)
	}
}

// TestAnAllowedOriginCanUseTheControlPlane runs the same fetches from an
// origin --admin-origin allows: both succeed, so the test above fails for
// the reason it says, and not because the page cannot fetch at all.
func TestAnAllowedOriginCanUseTheControlPlane(t *testing.T) {
	page := otherPage(t)
	ts := newTestServer(t, mockserver.Config{}, admin.Config{Origins: []string{page.URL}})
	ts.do(t, "POST", "/pets", `{"name":"Private Biscuit","categoryId":2}`)
	b := newBrowser(t)
	got := runAttempts(t, b, page.URL, ts.root)
	if !strings.HasPrefix(got[0], "read: 200 ") || !strings.Contains(got[0], "Private Biscuit") {
		t.Errorf("an allowed page reading the journal: %s", got[0])
	}
	if !strings.HasPrefix(got[1], "read: 200 ") {
		t.Errorf("an allowed page changing the fail rate: %s", got[1])
	}
	if v := ts.settings(t); v.FailRate != 1 {
		t.Errorf("after the allowed page's PATCH, the fail rate is %v, want 1", v.FailRate)
	}
}
