// The expectations panel: canned answers for the requests of the app that
// match them, which petmock checks against the document before it sets
// one; listed in the order a request looks at them, each with what it
// matches, what it answers and how often it did, and dropped one at a time
// or all at once. A form sets one more.

import { $, ADMIN, el, loader, request, state, toast } from "./petmock.js";

// loadExpectations shows the expectations.
export const loadExpectations = loader(async () => {
  if (!state.key) return;
  const { data } = await request(ADMIN + "expectations");
  state.expectations = data.expectations;
  renderExpectations();
});

// conditions says what else than its method and path a request must have.
function conditions(when) {
  const out = [];
  for (const [name, value] of Object.entries(when.query || {})) out.push("?" + name + "=" + value);
  for (const [pointer, value] of Object.entries(when.body || {})) out.push("body" + (pointer || " ") + " = " + JSON.stringify(value));
  return out;
}

// renderExpectations shows the expectations in the order they are looked at.
function renderExpectations() {
  const list = state.expectations;
  $("exp-list").replaceChildren(...list.map((x) => {
    const times = x.times ? x.remaining + " of " + x.times + " left" : "every time";
    return el("li", { class: "expectation", dataset: { id: x.id, operation: x.operation } },
      el("span", { class: "method " + x.when.method }, x.when.method),
      el("div", { class: "exp-when" },
        el("span", { class: "op-path" }, x.when.path),
        el("span", { class: "op-id" }, x.operation),
        ...conditions(x.when).map((c) => el("code", {}, c))),
      el("span", { class: "status s" + String(x.answer.status)[0] }, x.answer.status),
      el("span", { class: "muted small" }, times + " · answered " + x.matched),
      el("button", { type: "button", class: "ghost small", "aria-label": "Drop expectation " + x.id, onclick: () => drop(x.id) }, "Drop"),
      el("details", { class: "exp-answer" }, el("summary", { class: "small" }, "The answer"),
        el("pre", { class: "body" }, JSON.stringify(x.answer, null, 2))));
  }));
  $("exp-empty").hidden = list.length > 0;
  $("exp-clear").hidden = list.length === 0;
  $("count-expectations").textContent = list.length ? String(list.length) : "";
}

// drop drops one expectation.
async function drop(id) {
  try {
    await request(ADMIN + "expectations/" + id, { method: "DELETE" });
    toast("Expectation " + id + " dropped.");
    loadExpectations();
  } catch (err) {
    toast(err.message, true);
  }
}

// expect sets the expectation written in the form, and shows what
// petmock refused.
async function expect(event) {
  event.preventDefault();
  $("exp-error").hidden = true;
  let body;
  try {
    body = JSON.parse($("exp-text").value);
  } catch (err) {
    $("exp-error").textContent = "expectation: not JSON: " + err.message;
    $("exp-error").hidden = false;
    return;
  }
  try {
    const { data } = await request(ADMIN + "expectations", { method: "PUT", body });
    toast("Expectation " + data.id + " set: " + data.when.method + " " + data.when.path + " answers " + data.answer.status + ".");
    loadExpectations();
  } catch (err) {
    $("exp-error").textContent = err.message;
    $("exp-error").hidden = false;
  }
}

// clearExpectations forgets what the panel showed, once the key is.
export function clearExpectations() {
  state.expectations = [];
  $("exp-list").replaceChildren();
  $("count-expectations").textContent = "";
}

// wireExpectations makes the form and the buttons work.
export function wireExpectations() {
  $("exp-form").addEventListener("submit", expect);
  $("exp-clear").addEventListener("click", async () => {
    try {
      await request(ADMIN + "expectations", { method: "DELETE" });
      loadExpectations();
    } catch (err) {
      toast(err.message, true);
    }
  });
}
