package admin_test

import (
	"errors"
	"fmt"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/petstore/contract/mockserver/steer"

	"github.com/chromedp/chromedp"

	"github.com/petstore/contract/mockserver"
)

// TestConsoleExpectations: the expectations panel lists what is set, with
// how often each answered, sets one from its form, shows why petmock
// refuses another, and drops them.
func TestConsoleExpectations(t *testing.T) {
	c := openConsole(t, mockserver.Config{})
	c.unlock(t, key)
	c.ts.admin(t, "PUT", "expectations", `{"when":{"method":"GET","path":"/v1/pets/7"},"answer":{"status":404,"body":`+missing7+`}}`)
	c.do(t, "opening the expectations", chromedp.KeyEvent("7"), chromedp.WaitVisible(chromedp.ID("exp-form")))
	c.waitUntil(t, "the expectation is listed", `document.querySelector('#exp-list li[data-id="1"][data-operation="getPet"]') !== null`)
	c.ts.do(t, "GET", "/pets/7", "")
	c.waitUntil(t, "its answer is counted", `document.querySelector('#exp-list li[data-id="1"]').textContent.includes("answered 1")`)

	c.do(t, "setting one that breaks the document",
		chromedp.SendKeys(chromedp.ID("exp-text"), `{"when":{"method":"GET","path":"/v1/pets"},"answer":{"status":418}}`),
		press("#exp-set"),
	)
	c.waitUntil(t, "the refusal is shown", `document.getElementById("exp-error").textContent.startsWith("answer.status: 418 is not documented for listPets")`)
	// The browser logs the 400 it was sent, which is the one asked for.
	c.forgetErrors()
	c.do(t, "setting one that does not",
		chromedp.Evaluate[chromedp.Void](`document.getElementById("exp-text").value = ""`),
		chromedp.SendKeys(chromedp.ID("exp-text"), `{"when":{"method":"GET","path":"/pets","query":{"status":"sold"}},"answer":{"status":200,"body":[]},"times":3}`),
		press("#exp-set"),
	)
	c.waitUntil(t, "it is listed second", `document.querySelectorAll("#exp-list li").length === 2 &&
		document.querySelector('#exp-list li:nth-child(2)').textContent.includes("3 of 3 left")`)
	if resp := c.ts.do(t, "GET", "/pets?status=sold", ""); string(resp.body) != "[]\n" {
		t.Errorf("GET /v1/pets?status=sold after the page set an expectation: %s, want []", resp)
	}
	c.do(t, "dropping the first", press(`#exp-list li[data-id="1"] button`))
	c.waitUntil(t, "the first is gone", `document.querySelector('#exp-list li[data-id="1"]') === null && document.querySelectorAll("#exp-list li").length === 1`)
	c.do(t, "dropping them all", press("#exp-clear"))
	c.waitUntil(t, "none is listed", `document.querySelectorAll("#exp-list li").length === 0 && !document.getElementById("exp-empty").hidden`)
	if n := len(c.ts.Steering().Expectations()); n != 0 {
		t.Errorf("%d expectations after the page dropped them all", n)
	}
	c.noErrors(t)
}

// TestConsoleForcesAFault: the force form forces a fault, the next
// request meets it, and the journal shows it as a fault, with no status.
func TestConsoleForcesAFault(t *testing.T) {
	c := openConsole(t, mockserver.Config{})
	c.unlock(t, key)
	c.do(t, "forcing a reset on listPets",
		chromedp.KeyEvent("4"),
		chromedp.WaitVisible(chromedp.ID("force-op")),
		choose("#force-op", "listPets"),
		choose("#force-code", "fault:reset"),
		chromedp.Click(chromedp.ID("force-submit")),
	)
	c.waitUntil(t, "the fault is listed", `document.querySelector('#force-list li[data-fault="reset"][data-operation="listPets"]') !== null`)
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 10 * time.Second}
	req, _ := http.NewRequest("GET", c.ts.URL+"/pets", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	if _, err := client.Do(req); !errors.Is(err, syscall.ECONNRESET) {
		t.Errorf("GET /v1/pets after the page forced a reset: %v, want ECONNRESET", err)
	}
	c.do(t, "opening the journal", chromedp.KeyEvent("2"))
	c.waitUntil(t, "the journal shows the fault", `(() => {
		const li = document.querySelector("#log-list li");
		return li && li.dataset.path === "/v1/pets" && li.dataset.status === "0" && li.textContent.includes("reset");
	})()`)
	c.do(t, "setting a slow body for a share of the requests",
		chromedp.KeyEvent("3"),
		chromedp.WaitVisible(chromedp.ID("set-fault")),
		choose("#set-fault", "slow"),
		chromedp.SendKeys(chromedp.ID("set-faultrate"), "0.5"),
		chromedp.Click(chromedp.ID("set-apply")),
	)
	c.waitUntil(t, "the change is listed", `document.getElementById("set-changes").textContent.includes("none → slow")`)
	if s := c.ts.settings(t); s.Fault != steer.FaultSlow || s.FaultRate != 0.5 {
		t.Errorf("after the page set them, the fault is %q at %v, want slow at 0.5", s.Fault, s.FaultRate)
	}
	c.noErrors(t)
}

// press clicks the button selector selects as the page's own script would, so that a toast
// over it, which a user would move the mouse around, cannot take the
// click.
func press(selector string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).click()`, selector))
}

// forgetErrors forgets what the page logged so far, such as a refusal a
// test asked for.
func (b *browser) forgetErrors() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.errors = nil
}

// TestConsoleExpectationMatchers: the expectations panel shows each
// expectation's matchers, its priority, delay, fault and scenario, and the
// states of the scenarios, which it resets; one set from its form with
// matchers answers the requests that meet them.
func TestConsoleExpectationMatchers(t *testing.T) {
	c := openConsole(t, mockserver.Config{})
	c.unlock(t, key)
	c.ts.expect(t, `{"when":{"method":"GET","path":"/pets/{petId}","pathPattern":"^/v1/pets/1[0-9]$","headers":{"X-Trace":{"matches":"^[a-z]+$"}},
		"cookies":{"session":{"absent":true}},"query":{}},"answer":{"status":404,"body":`+missing7+`},"priority":2,"delay":"10ms"}`)
	c.ts.expect(t, `{"when":{"method":"POST","path":"/v1/pets","bodyMatches":[{"jsonPath":"$.name","contains":"Rex"}]},"fault":"reset",
		"scenario":{"name":"first pet","requiredState":"Started","newState":"created"}}`)
	c.do(t, "opening the expectations", chromedp.KeyEvent("7"), chromedp.WaitVisible(chromedp.ID("exp-form")))
	c.waitUntil(t, "the matchers are shown", `(() => {
		const one = document.querySelector('#exp-list li[data-id="1"]');
		const two = document.querySelector('#exp-list li[data-id="2"][data-fault="reset"]');
		if (!one || !two) return false;
		const a = one.textContent, b = two.textContent;
		return a.includes("path matches /^/v1/pets/1[0-9]$/") && a.includes("X-Trace: matches /^[a-z]+$/") &&
			a.includes("cookie session absent") && a.includes("priority 2") && a.includes("delay 10ms") &&
			b.includes("body $.name contains \"Rex\"") && b.includes("scenario first pet: in Started → created") && b.includes("reset");
	})()`)
	c.waitUntil(t, "the scenario's state is shown", `document.querySelector('#exp-states li[data-scenario="first pet"][data-state="Started"]') !== null &&
		!document.getElementById("exp-states-card").hidden`)
	c.ts.admin(t, "PUT", "states/first%20pet", `{"state":"created"}`)
	c.waitUntil(t, "the new state is shown", `document.querySelector('#exp-states li[data-scenario="first pet"][data-state="created"]') !== null`)
	c.do(t, "resetting the states", press("#exp-states-reset"))
	c.waitUntil(t, "the state is Started again", `document.querySelector('#exp-states li[data-scenario="first pet"][data-state="Started"]') !== null`)
	if got := c.ts.states(t)["first pet"]; got != "Started" {
		t.Errorf("after the page reset them, the scenario is in %q", got)
	}
	c.do(t, "setting one with a query matcher",
		chromedp.SendKeys(chromedp.ID("exp-text"), `{"when":{"method":"GET","path":"/v1/pets","query":{"status":{"contains":"ol"}}},"answer":{"status":200,"body":[]}}`),
		press("#exp-set"))
	c.waitUntil(t, "it is listed", `(() => {
		const li = document.querySelector('#exp-list li[data-id="3"]');
		return li && li.textContent.includes("?status contains \"ol\"");
	})()`)
	if resp := c.ts.do(t, "GET", "/pets?status=sold", ""); string(resp.body) != "[]\n" {
		t.Errorf("GET /v1/pets?status=sold after the page set a matcher: %s, want []", resp)
	}
	c.noErrors(t)
}

// TestConsoleVerification: the verification panel counts the requests
// each expectation answered and those none did, as they come, and counts
// from now when asked.
func TestConsoleVerification(t *testing.T) {
	c := openConsole(t, mockserver.Config{})
	c.unlock(t, key)
	c.ts.expect(t, `{"when":{"method":"GET","path":"/v1/pets/7"},"answer":{"status":404,"body":`+missing7+`}}`)
	c.do(t, "opening the verification", chromedp.KeyEvent("8"), chromedp.WaitVisible(chromedp.ID("ver-reset")))
	c.waitUntil(t, "the expectation is listed, with none answered", `document.querySelector('#ver-expectations li[data-id="1"][data-count="0"]') !== null`)
	c.ts.do(t, "GET", "/pets/7", "")
	c.ts.do(t, "GET", "/pets/7", "")
	c.ts.do(t, "GET", "/pets/8", "")
	c.waitUntil(t, "the requests are counted", `(() => {
		const one = document.querySelector('#ver-expectations li[data-id="1"][data-count="2"]');
		const none = document.querySelector('#ver-unmatched li[data-path="/v1/pets/8"][data-count="1"]');
		return one && none && document.getElementById("ver-summary").textContent.startsWith("3 requests since") &&
			document.getElementById("ver-summary").textContent.includes("2 answered by an expectation, 1 by none") &&
			document.getElementById("count-verification").textContent === "1 unmatched";
	})()`)
	c.do(t, "counting from now", press("#ver-reset"))
	c.waitUntil(t, "nothing is counted", `document.querySelectorAll("#ver-unmatched li").length === 0 &&
		document.querySelector('#ver-expectations li[data-id="1"][data-count="0"]') !== null &&
		document.getElementById("ver-summary").textContent.startsWith("0 requests")`)
	if v := c.ts.verification(t); v.Received != 0 {
		t.Errorf("after the page reset it, the verification counts %d requests", v.Received)
	}
	c.noErrors(t)
}
