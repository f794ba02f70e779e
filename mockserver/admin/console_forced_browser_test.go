package admin_test

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/petstore/contract/mockserver"
)

// TestConsoleForcedByOperation: the scenarios show what waits by the
// operation whose queue it waits in; a queue is cleared by its button,
// leaving what waits for any operation, which is dropped by its own; and
// the form offers every fault, dribble among them.
func TestConsoleForcedByOperation(t *testing.T) {
	c := openConsole(t, mockserver.Config{})
	c.unlock(t, key)
	c.ts.admin(t, "POST", "forced", `{"code":503,"count":2,"operation":"listPets"}`)
	c.ts.admin(t, "POST", "forced", `{"code":401,"count":2}`)
	c.do(t, "opening the scenarios", chromedp.KeyEvent("4"), chromedp.WaitVisible(chromedp.ID("force-op")))
	c.waitUntil(t, "the queues are shown", `(() => {
		const groups = [...document.querySelectorAll("#force-list li.group")].map((li) => li.dataset.group);
		return groups.join(",") === "listPets," &&
			document.querySelector('#force-list li[data-code="503"][data-operation="listPets"]').textContent.includes("the next 2 requests");
	})()`)
	c.ts.do(t, "GET", "/pets/1", "")
	c.waitUntil(t, "the 401 is shown getPet's", `(() => {
		const li = document.querySelector('#force-list li[data-code="401"]');
		return li && li.dataset.operation === "getPet" && li.textContent.includes("getPet took it first") &&
			document.querySelector('#force-list li.group[data-group="getPet"]') !== null;
	})()`)
	c.do(t, "clearing listPets", press(`#force-list li.group[data-group="listPets"] button`))
	c.waitUntil(t, "listPets's queue is gone", `document.querySelector('#force-list li[data-operation="listPets"]') === null &&
		document.querySelectorAll("#force-list li[data-id]").length === 1`)
	if got := c.ts.forced(t); len(got) != 1 || got[0].Operation != "getPet" {
		t.Errorf("after the page cleared listPets: %+v, want getPet's 401 alone", got)
	}
	c.do(t, "dropping the 401", press(`#force-list li[data-code="401"] button`))
	c.waitUntil(t, "nothing waits", `document.querySelectorAll("#force-list li").length === 0`)
	c.do(t, "forcing a dribble", choose("#force-op", "listPets"), choose("#force-code", "fault:dribble"), press("#force-submit"))
	c.waitUntil(t, "the dribble is listed", `(() => {
		const li = document.querySelector('#force-list li[data-fault="dribble"][data-operation="listPets"]');
		return li && li.textContent.includes("in 5 chunks over 1s");
	})()`)
	if !eval[bool](t, c.browser, `["reset", "empty", "malformed-chunk", "random-data", "slow", "dribble"].every((f) =>
		[...document.getElementById("force-code").options].some((o) => o.value === "fault:" + f) &&
		[...document.getElementById("set-fault").options].some((o) => o.value === f))`) {
		t.Error("the force form or the settings do not offer every fault")
	}
	c.noErrors(t)
}
