package admin_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"flag"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
)

// The console's tests drive it in a real Chromium, headless, through the
// DevTools protocol. A machine without Chromium skips them and says so;
// CI installs it and sets PETMOCK_BROWSER_TESTS=required, which makes a
// missing Chromium a failure instead.

var updateScreenshot = flag.Bool("update-screenshot", false, "rewrite testdata/console.png, the README's picture of the console")

// screenshotFile is the README's picture of the console.
const screenshotFile = "../../testdata/console.png"

// chromium returns the path of a Chromium or Chrome to drive: the one
// PETMOCK_CHROMIUM names, or the first one found on the PATH.
func chromium() string {
	if p := os.Getenv("PETMOCK_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser is a headless Chromium with one tab, and what its page logged
// and requested.
type browser struct {
	ctx context.Context

	mu       sync.Mutex // guards errors and requests
	errors   []string   // console errors, uncaught exceptions and error entries of the browser log
	requests []*network.Request
}

// newBrowser starts a Chromium with a profile of its own, which the end of
// the test closes.
func newBrowser(t testing.TB) *browser {
	t.Helper()
	path := chromium()
	if path == "" {
		if os.Getenv("PETMOCK_BROWSER_TESTS") == "required" {
			t.Fatal("PETMOCK_BROWSER_TESTS=required, and no Chromium was found: install it (apt-get install chromium) or name it in PETMOCK_CHROMIUM")
		}
		t.Skip("no Chromium found, so the console's browser tests are skipped: install it (apt-get install chromium), or name one in PETMOCK_CHROMIUM")
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		// Without these, Chromium calls home, and a closed network
		// refuses it.
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 800),
	)
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		chromedp.Cancel(ctx)
		cancel()
		cancelAlloc()
	})
	b := &browser{ctx: ctx}
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	err := chromedp.Listen(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				b.errors = append(b.errors, "console."+string(ev.Type)+": "+strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			text := ev.ExceptionDetails.Text
			if ex := ev.ExceptionDetails.Exception; ex != nil {
				text += " " + ex.Description
			}
			b.errors = append(b.errors, "exception: "+text)
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError {
				b.errors = append(b.errors, "log ("+string(ev.Entry.Source)+"): "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		case *network.EventRequestWillBeSent:
			b.requests = append(b.requests, ev.Request)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// do runs actions in the tab, and fails the test on an error. Bound only
// so that a broken page fails the test rather than hanging it.
func (b *browser) do(t testing.TB, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v\nthe page logged: %q", what, err, b.loggedErrors())
	}
}

// waitUntil waits for a JavaScript condition of the page to hold.
func (b *browser) waitUntil(t testing.TB, what, condition string) {
	t.Helper()
	b.do(t, "waiting until "+what, chromedp.Poll[chromedp.Void](condition,
		chromedp.WithPollingInterval(25*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second)))
}

// eval returns the value of a JavaScript expression in the page.
func eval[T any](t testing.TB, b *browser, expression string) T {
	t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expression))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expression, err)
	}
	return v
}

func (b *browser) loggedErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errors...)
}

// noErrors fails the test if the page logged an error.
func (b *browser) noErrors(t testing.TB) {
	t.Helper()
	for _, e := range b.loggedErrors() {
		t.Errorf("the page logged an error: %s", e)
	}
}

// choose picks an option of a select, as a user does: the value changes,
// and the page is told.
func choose(sel, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(
		`(() => { const s = document.querySelector(%q); s.value = %q; s.dispatchEvent(new Event("change", {bubbles: true})); })()`, sel, value))
}

// console is a mock and a browser on its console.
type console struct {
	*browser
	ts   *testServer
	root string // the mock's origin, such as http://127.0.0.1:4010
}

// openConsole serves a mock for cfg and opens its console, without a key.
func openConsole(t testing.TB, cfg mockserver.Config) *console {
	t.Helper()
	ts := newTestServer(t, cfg)
	t.Cleanup(ts.Close) // ends the page's event stream before the HTTP server closes
	b := newBrowser(t)
	c := &console{browser: b, ts: ts, root: strings.TrimSuffix(ts.URL, "/v1")}
	b.do(t, "opening the console", chromedp.Navigate(c.root+admin.Prefix))
	b.waitUntil(t, "the operations are shown", `document.querySelector("#op-list li") !== null`)
	return c
}

// unlock types the key into the page, as a user does.
func (c *console) unlock(t testing.TB, key string) {
	t.Helper()
	c.do(t, "unlocking",
		chromedp.WaitVisible(chromedp.ID("key-input")),
		chromedp.SendKeys(chromedp.ID("key-input"), key+"\n"),
	)
	c.waitUntil(t, "the catalogue is shown", `document.querySelector("#cat-table tbody tr") !== null && !document.getElementById("catalogue").hidden`)
	c.waitUntil(t, "the event stream is open", `document.getElementById("live").classList.contains("on")`)
}

func TestConsoleLoadsWithoutErrors(t *testing.T) {
	for _, path := range []string{"/", admin.Prefix} {
		t.Run(path, func(t *testing.T) {
			c := openConsole(t, mockserver.Config{})
			c.do(t, "opening "+path, chromedp.Navigate(c.root+path))
			// Without a key: the operations, and a form that asks for one.
			c.waitUntil(t, "getPet is shown deprecated", `/removed in \d/.test(document.querySelector("#op-getPet .countdown")?.textContent)`)
			if !eval[bool](t, c.browser, `!document.getElementById("unlock").hidden && document.getElementById("catalogue").hidden`) {
				t.Error("without a key, the catalogue is shown or the key is not asked for")
			}
			c.unlock(t, key)
			for i := range 7 {
				c.do(t, "pressing "+strconv.Itoa(i+1), chromedp.KeyEvent(strconv.Itoa(i+1)))
			}
			c.waitUntil(t, "the expectations are shown by key 7", `!document.getElementById("expectations").hidden`)
			c.do(t, "pressing 6", chromedp.KeyEvent("6"))
			c.waitUntil(t, "the violations are shown by key 6", `!document.getElementById("violations").hidden && document.getElementById("viol-backend").textContent.includes("--proxy")`)
			c.do(t, "pressing 5", chromedp.KeyEvent("5"))
			c.waitUntil(t, "the operations are shown by key 5", `!document.getElementById("operations").hidden`)
			c.waitUntil(t, "the journal and the settings are loaded",
				`document.getElementById("log-total").textContent !== "" && document.getElementById("set-latency").value === "0s"`)
			c.noErrors(t)
		})
	}
}

// TestConsoleShowsAnyDocument opens the console of a document unlike the
// Petstore: no resource, and an operation with only a default answer,
// whose statuses are none.
func TestConsoleShowsAnyDocument(t *testing.T) {
	c := openConsole(t, mockserver.Config{Contract: document(t, defaultOnlyPaths)})
	c.waitUntil(t, "ping is shown", `document.getElementById("op-ping") !== null`)
	c.do(t, "unlocking",
		chromedp.WaitVisible(chromedp.ID("key-input")),
		chromedp.SendKeys(chromedp.ID("key-input"), key+"\n"),
	)
	c.waitUntil(t, "the force form offers ping", `[...document.getElementById("force-op").options].some((o) => o.value === "ping")`)
	c.noErrors(t)
}

// TestConsoleSaysWhatItMadeOfTheDocument: a document whose paths look like
// a resource but are served as plain operations opens on a catalogue that
// says why it holds nothing, and an operations panel that marks each
// operation plain with the note of its path; the Petstore's marks its
// operations with their resource.
func TestConsoleSaysWhatItMadeOfTheDocument(t *testing.T) {
	c := openConsole(t, mockserver.Config{Contract: document(t, plainCollectionPaths)})
	c.do(t, "unlocking",
		chromedp.WaitVisible(chromedp.ID("key-input")),
		chromedp.SendKeys(chromedp.ID("key-input"), key+"\n"),
	)
	c.waitUntil(t, "the catalogue says no resource was found, and why",
		`(() => { const n = document.getElementById("cat-none"); return !n.hidden && n.textContent.includes("found no resource") && n.textContent.includes("no item path"); })()`)
	c.do(t, "opening the operations", chromedp.Click(chromedp.CSS(`.nav-item[data-section="operations"]`)))
	c.waitUntil(t, "listThings is marked plain, with its note",
		`(() => { const op = document.getElementById("op-listThings"); return op && op.querySelector(".badge.plain") && op.querySelector(".op-note")?.textContent.includes("no item path"); })()`)
	c.waitUntil(t, "the start-up notes are listed", `document.querySelector("#made-of-notes")?.textContent.includes("no item path")`)
	c.noErrors(t)

	p := openConsole(t, mockserver.Config{})
	p.unlock(t, key)
	p.do(t, "opening the operations", chromedp.Click(chromedp.CSS(`.nav-item[data-section="operations"]`)))
	p.waitUntil(t, "listPets is marked with its resource",
		`document.querySelector("#op-listPets .badge.kind")?.textContent === "pets" && document.getElementById("cat-none").hidden && document.getElementById("made-of-summary").textContent.includes("1 resource keeps")`)
	p.noErrors(t)
}

func TestConsoleShowsWhatTheAPIDid(t *testing.T) {
	c := openConsole(t, mockserver.Config{})
	c.unlock(t, key)
	created := c.ts.do(t, "POST", "/pets", `{"name":"Brand-new Biscuit","categoryId":2,"status":"pending"}`).pet(t)
	// Newest first, the pet created is the first row of the catalogue,
	// and the create is the newest request of the journal.
	c.waitUntil(t, "the pet is in the catalogue", fmt.Sprintf(
		`document.querySelector("#cat-table tbody tr")?.dataset.id === "%d" && document.querySelector("#cat-table tbody").textContent.includes("Brand-new Biscuit")`, created.ID))
	c.waitUntil(t, "the create is in the journal",
		`(() => { const li = document.querySelector("#log-list li"); return li && li.dataset.method === "POST" && li.dataset.path === "/v1/pets" && li.dataset.status === "201"; })()`)
	// The search finds it among the others.
	c.do(t, "searching", chromedp.SendKeys(chromedp.ID("cat-search"), "biscuit"))
	c.waitUntil(t, "the search shows it alone",
		`document.querySelectorAll("#cat-table tbody tr").length === 1 && document.querySelector("#cat-table tbody").textContent.includes("Brand-new Biscuit")`)
	// Its request and answer show in the journal, the key hidden.
	c.do(t, "opening the create in the journal",
		chromedp.KeyEvent(kb.Escape), // leaves the search box, so that keys pick sections again
		chromedp.KeyEvent("2"),
		chromedp.Click(chromedp.CSS("#log-list li .log-row")),
	)
	c.waitUntil(t, "the request and the answer are shown", `(() => {
		const d = document.querySelector("#log-list li .log-detail");
		return d && d.textContent.includes("[redacted]") && d.textContent.includes('"name": "Brand-new Biscuit"') && d.textContent.includes("Location");
	})()`)
	c.noErrors(t)
}

func TestConsoleLatencySlowsTheNextAnswer(t *testing.T) {
	c := openConsole(t, mockserver.Config{})
	c.unlock(t, key)
	const latency = 250 * time.Millisecond
	c.do(t, "setting the latency",
		chromedp.KeyEvent("3"),
		chromedp.WaitVisible(chromedp.ID("set-latency")),
		chromedp.Clear(chromedp.ID("set-latency")),
		chromedp.SendKeys(chromedp.ID("set-latency"), "250ms"),
		chromedp.Click(chromedp.ID("set-apply")),
	)
	c.waitUntil(t, "the change is listed", `document.getElementById("set-changes").textContent.includes("0s → 250ms")`)
	if got := c.ts.settings(t).Latency; got != "250ms" {
		t.Fatalf("after the page set it, GET settings says latency %q, want 250ms", got)
	}
	// The server waits at least the latency before it answers: a lower
	// bound, which a slow machine cannot break.
	start := time.Now()
	c.ts.do(t, "GET", "/pets?limit=3", "")
	if elapsed := time.Since(start); elapsed < latency {
		t.Errorf("GET /v1/pets answered after %s, under the latency of %s", elapsed, latency)
	}
	if j := c.ts.journal(t); j[0].DurationMS < float64(latency.Milliseconds()) {
		t.Errorf("the journal says GET /v1/pets took %.1f ms, under the latency of %s", j[0].DurationMS, latency)
	}
	c.waitUntil(t, "the page shows the slow answer", `(() => {
		const li = document.querySelector("#log-list li");
		return li && li.dataset.path === "/v1/pets" && Number(li.dataset.duration) >= 250;
	})()`)
	c.noErrors(t)
}

func TestConsoleForcesTheNextAnswer(t *testing.T) {
	c := openConsole(t, mockserver.Config{})
	c.unlock(t, key)
	c.do(t, "forcing a 503 on listPets",
		chromedp.KeyEvent("4"),
		chromedp.WaitVisible(chromedp.ID("force-op")),
		choose("#force-op", "listPets"),
		choose("#force-code", "503"),
		chromedp.Click(chromedp.ID("force-submit")),
	)
	c.waitUntil(t, "the forced answer is listed", `document.querySelector('#force-list li[data-code="503"][data-operation="listPets"]') !== null`)
	if resp := c.ts.do(t, "GET", "/pets/1", ""); resp.StatusCode != 200 {
		t.Errorf("GET /v1/pets/1, of another operation: %s, want 200", resp)
	}
	resp := c.ts.do(t, "GET", "/pets", "")
	if e := resp.apiError(t); resp.StatusCode != 503 || !strings.HasPrefix(e.Message, "forced: ") {
		t.Errorf("GET /v1/pets after the page forced 503: %s", resp)
	}
	if resp := c.ts.do(t, "GET", "/pets", ""); resp.StatusCode != 200 {
		t.Errorf("the request after: %s, want 200", resp)
	}
	c.waitUntil(t, "the forced answer is gone from the page", `document.querySelectorAll("#force-list li").length === 0`)
	c.noErrors(t)
}

// TestConsoleKeepsTheKeyToItself uses the console as a developer does,
// then looks for the key everywhere the page could have put it.
func TestConsoleKeepsTheKeyToItself(t *testing.T) {
	const secret = "console-secret-8d1f3e"
	c := openConsole(t, mockserver.Config{APIKeys: []string{secret}})
	c.unlock(t, secret)
	c.ts.do(t, "POST", "/pets", `{"name":"Rex","categoryId":1}`, "Authorization", "Bearer "+secret)
	c.do(t, "using every section",
		chromedp.KeyEvent("2"),
		chromedp.WaitVisible(chromedp.CSS("#log-list li .log-row")),
		chromedp.Click(chromedp.CSS("#log-list li .log-row")),
		chromedp.KeyEvent("3"),
		chromedp.SendKeys(chromedp.ID("set-journal"), "0"),
		chromedp.Click(chromedp.ID("set-apply")),
		chromedp.KeyEvent("4"),
		chromedp.Click(chromedp.ID("force-submit")),
		chromedp.KeyEvent("5"),
		chromedp.KeyEvent("1"),
	)
	c.waitUntil(t, "the forced answer is listed", `document.querySelectorAll("#force-list li[data-id]").length === 1`)
	c.waitUntil(t, "the journal size is changed", `document.getElementById("set-changes").textContent.includes("100 → 1000")`)

	html := eval[string](t, c.browser, `document.documentElement.outerHTML`)
	if strings.Contains(html, secret) {
		t.Error("the page's HTML holds the key")
	}
	if !strings.Contains(html, "[redacted]") {
		t.Error("the journal's entry, open, shows no [redacted] Authorization")
	}
	if where := eval[string](t, c.browser, `location.href + " " + JSON.stringify(localStorage) + " " + document.cookie`); strings.Contains(where, secret) {
		t.Errorf("the key is in the URL, localStorage or a cookie: %s", where)
	}
	if kept := eval[string](t, c.browser, `sessionStorage.getItem("petmock.key")`); kept != secret {
		t.Errorf("sessionStorage holds %q, want the key", kept)
	}
	origin, _ := url.Parse(c.root)
	c.mu.Lock()
	requests := c.requests
	c.mu.Unlock()
	withKey := 0
	for _, r := range requests {
		u, err := url.Parse(r.URL)
		if err != nil {
			t.Errorf("a request to %q", r.URL)
			continue
		}
		if u.Scheme == "data" {
			continue
		}
		if u.Scheme+"://"+u.Host != origin.Scheme+"://"+origin.Host {
			t.Errorf("a request to another origin: %s %s", r.Method, r.URL)
		}
		if strings.Contains(r.URL, secret) {
			t.Errorf("the key is in a URL: %s", r.URL)
		}
		for name, value := range r.Headers {
			if s := fmt.Sprint(value); strings.Contains(s, secret) {
				if !strings.EqualFold(name, "Authorization") || s != "Bearer "+secret {
					t.Errorf("the key is in the header %s of %s %s", name, r.Method, r.URL)
				}
				withKey++
			}
		}
	}
	if withKey == 0 {
		t.Error("no request carried the key in Authorization: the network was not watched")
	}
	c.noErrors(t)
}

// TestConsoleScreenshot takes the README's picture of the console. With
// -update-screenshot it writes it to testdata/console.png; without, it
// checks that the picture there is one of the same size.
func TestConsoleScreenshot(t *testing.T) {
	c := openConsole(t, mockserver.Config{})
	c.do(t, "choosing the dark scheme and the size",
		chromedp.EmulateViewport(1280, 800),
		func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
			_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
			})
			return chromedp.Void{}, err
		},
	)
	c.unlock(t, key)
	ts := c.ts
	ts.admin(t, "PATCH", "settings", `{"latency":"40ms-120ms"}`)
	ts.do(t, "GET", "/pets?limit=20", "")
	ts.do(t, "POST", "/pets", `{"name":"Biscuit","categoryId":2,"status":"pending"}`)
	ts.do(t, "GET", "/pets?status=sold&limit=5", "")
	ts.do(t, "GET", "/pets/51", "")
	ts.do(t, "GET", "/pets/4242", "")
	ts.admin(t, "POST", "forced", `{"code":503,"operation":"listPets"}`)
	ts.do(t, "GET", "/pets", "")
	ts.do(t, "POST", "/pets", `{"name":"Rex"}`)
	c.do(t, "opening the journal",
		chromedp.KeyEvent("2"),
		chromedp.WaitVisible(chromedp.CSS("#log-list li:nth-child(7) .log-row")),
	)
	c.waitUntil(t, "seven requests are listed", `document.querySelectorAll("#log-list li").length === 7`)
	c.do(t, "opening the create",
		chromedp.Click(chromedp.CSS("#log-list li:nth-child(6) .log-row")),
		chromedp.WaitVisible(chromedp.CSS("#log-list .log-detail")),
		chromedp.Blur(chromedp.CSS("#log-list li:nth-child(6) .log-row")),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("toasts").replaceChildren()`),
	)
	shot, err := chromedp.Run(c.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	got, err := png.DecodeConfig(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("the screenshot is no PNG: %v", err)
	}
	if *updateScreenshot {
		if err := os.WriteFile(screenshotFile, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s, %dx%d", screenshotFile, got.Width, got.Height)
		return
	}
	f, err := os.Open(screenshotFile)
	if err != nil {
		t.Fatalf("%v; go test ./mockserver/admin -run TestConsoleScreenshot -update-screenshot writes it", err)
	}
	defer f.Close()
	want, err := png.DecodeConfig(f)
	if err != nil || want.Width != got.Width || want.Height != got.Height {
		t.Errorf("%s: %dx%d (%v), want a PNG of %dx%d, as the console shows now; -update-screenshot rewrites it",
			screenshotFile, want.Width, want.Height, err, got.Width, got.Height)
	}
	c.noErrors(t)
}

// TestConsoleWarnsOfThePublishedKey: with the published key, the page says
// so before it is unlocked; with a key of the user's, it does not.
func TestConsoleWarnsOfThePublishedKey(t *testing.T) {
	for _, tt := range []struct {
		cfg  mockserver.Config
		want bool
	}{
		{mockserver.Config{}, true},
		{mockserver.Config{AdminKeys: []string{"admin-5e2b"}}, false},
	} {
		c := openConsole(t, tt.cfg)
		c.waitUntil(t, "the contract is loaded", `document.getElementById("doc-title").textContent !== ""`)
		shown := eval[bool](t, c.browser, `!document.getElementById("published-key").hidden && document.getElementById("published-key").offsetHeight > 0`)
		if shown != tt.want {
			t.Errorf("admin keys %q: the published-key banner shown %v, want %v", tt.cfg.AdminKeys, shown, tt.want)
		}
		c.noErrors(t)
	}
}

// TestConsoleShowsSecretsWhenAsked: the settings panel switches the
// journal between hiding and showing the app's secrets.
func TestConsoleShowsSecretsWhenAsked(t *testing.T) {
	c := openConsole(t, mockserver.Config{})
	c.unlock(t, key)
	c.ts.do(t, "GET", "/pets?limit=1", "", "X-Auth-Token", "app-token-4b1c")
	c.do(t, "showing secrets",
		chromedp.KeyEvent("3"),
		chromedp.WaitVisible(chromedp.ID("set-secrets")),
		choose("#set-secrets", "shown"),
		chromedp.Click(chromedp.ID("set-apply")),
	)
	c.waitUntil(t, "the change is listed", `document.getElementById("set-changes").textContent.includes("hidden → shown")`)
	if got := c.ts.settings(t).JournalSecrets; got != "shown" {
		t.Fatalf("after the page showed them, journalSecrets is %q", got)
	}
	if j := c.ts.journal(t); j[0].Request.Header.Get("X-Auth-Token") != "app-token-4b1c" {
		t.Errorf("with secrets shown, the journal's X-Auth-Token is %q", j[0].Request.Header.Get("X-Auth-Token"))
	}
	c.noErrors(t)
}

// TestConsoleShowsViolations: with a backend, the violations panel lists
// its answers that broke the document, with the rule, the request and the
// answer, keys hidden; the journal says who answered.
func TestConsoleShowsViolations(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `[{"id":1,"name":"Rex","categoryId":"one"}]`)
	}))
	defer backend.Close()
	c := openConsole(t, mockserver.Config{Proxy: mockserver.Proxy{URL: backend.URL + "/v1"}})
	c.unlock(t, key)
	// The backend's answer breaks the document: a plain client asks.
	req, _ := http.NewRequest("GET", c.ts.URL+"/pets?limit=1", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	c.do(t, "opening the violations", chromedp.KeyEvent("6"))
	c.waitUntil(t, "the answer is listed with its rule", `(() => {
		const li = document.querySelector("#viol-list li");
		return li && li.dataset.path === "/v1/pets" && li.dataset.rules === "response.body" && document.getElementById("count-violations").textContent === "1";
	})()`)
	if backendShown := eval[string](t, c.browser, `document.getElementById("viol-backend").textContent`); !strings.Contains(backendShown, backend.URL) {
		t.Errorf("the panel says %q, not the backend's URL", backendShown)
	}
	c.do(t, "opening the answer", chromedp.Click(chromedp.CSS("#viol-list li .log-row")))
	c.waitUntil(t, "the rule, the request and the answer are shown", `(() => {
		const li = document.querySelector("#viol-list li");
		return li.querySelector(".broken") && li.textContent.includes("listPets answered 200") &&
			li.querySelector(".log-detail") && li.textContent.includes("[redacted]") && li.textContent.includes('"categoryId": "one"');
	})()`)
	c.do(t, "opening the journal", chromedp.KeyEvent("2"))
	c.waitUntil(t, "the journal says the backend answered, breaking a rule", `(() => {
		const li = document.querySelector("#log-list li");
		return li && li.querySelector(".source.backend") && li.textContent.includes("1 broken");
	})()`)
	c.do(t, "clearing the violations", chromedp.KeyEvent("6"), chromedp.Click(chromedp.ID("viol-clear")))
	c.waitUntil(t, "the list is empty", `document.querySelectorAll("#viol-list li").length === 0 && !document.getElementById("viol-empty").hidden`)
	c.noErrors(t)
}

// TestConsoleSendsTheKeyAsTheDocumentAsks: the console sends the key in
// the header the document petmock serves names, or as HTTP basic
// credentials, and never as anything else.
func TestConsoleSendsTheKeyAsTheDocumentAsks(t *testing.T) {
	const secret = "console-doc-key-5b7e"
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte(":"+secret))
	for _, tt := range []struct {
		name, scheme, header, value string
	}{
		{"apiKey header", "{type: apiKey, in: header, name: X-API-Key}", "X-API-Key", secret},
		{"basic", "{type: http, scheme: basic}", "Authorization", basic},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := openConsole(t, mockserver.Config{Contract: securedDocument(t, tt.scheme), APIKeys: []string{secret}})
			c.do(t, "unlocking",
				chromedp.WaitVisible(chromedp.ID("key-input")),
				chromedp.SendKeys(chromedp.ID("key-input"), secret+"\n"),
			)
			c.waitUntil(t, "the event stream is open", `document.getElementById("live").classList.contains("on")`)
			c.mu.Lock()
			requests := c.requests
			c.mu.Unlock()
			withKey := 0
			for _, r := range requests {
				for name, value := range r.Headers {
					if s := fmt.Sprint(value); strings.Contains(s, secret) || s == basic {
						if !strings.EqualFold(name, tt.header) || s != tt.value {
							t.Errorf("%s %s sends the key as %s: %s", r.Method, r.URL, name, s)
						}
						withKey++
					}
				}
			}
			if withKey == 0 {
				t.Errorf("no request sent the key in %s", tt.header)
			}
			c.noErrors(t)
		})
	}
}
