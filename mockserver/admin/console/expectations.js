// The expectations panel: canned answers for the requests of the app that
// match them, which petmock checks against the document before it sets
// one; listed in the order a request looks at them, each with what it
// matches (its matchers and its scenario), its priority, what it answers
// (or the fault it puts in its place) and how often it did, and dropped
// one at a time or all at once; the scenarios' states, reset at once. A
// form sets one more.

import { $, ADMIN, el, loader, request, state, toast } from "./petmock.js";

// loadExpectations shows the expectations.
export const loadExpectations = loader(async () => {
  if (!state.key) return;
  const [list, states] = await Promise.all([request(ADMIN + "expectations"), request(ADMIN + "states")]);
  state.expectations = list.data.expectations;
  state.states = states.data.states;
  renderExpectations();
  renderStates();
});

// matcher says what a matcher asks of a value: a string to equal, or one
// of equals, contains, matches and absent.
function matcher(m) {
  if (typeof m === "string") return "= " + JSON.stringify(m);
  if (m.absent) return "absent";
  if (m.equals !== undefined) return "= " + JSON.stringify(m.equals);
  if (m.contains !== undefined) return "contains " + JSON.stringify(m.contains);
  if (m.matches !== undefined) return "matches /" + m.matches + "/";
  if (m.equalsJson !== undefined) return "= " + JSON.stringify(m.equalsJson);
  return JSON.stringify(m);
}

// conditions says what else than its method and path a request must have.
function conditions(when) {
  const out = [];
  if (when.pathPattern) out.push("path matches /" + when.pathPattern + "/");
  for (const [name, m] of Object.entries(when.query || {})) out.push("?" + name + " " + matcher(m));
  for (const [name, m] of Object.entries(when.headers || {})) out.push(name + ": " + matcher(m));
  for (const [name, m] of Object.entries(when.cookies || {})) out.push("cookie " + name + " " + matcher(m));
  for (const [pointer, value] of Object.entries(when.body || {})) out.push("body" + (pointer || " ") + " = " + JSON.stringify(value));
  for (const m of when.bodyMatches || []) out.push((m.jsonPath ? "body " + m.jsonPath : "body") + " " + matcher(m));
  return out;
}

// extras says how an expectation answers, beside its answer: its
// priority, delay and fault, and its scenario.
function extras(x) {
  const out = [];
  if (x.priority) out.push(el("span", { class: "badge", title: "Looked at before those of a higher number" }, "priority " + x.priority));
  if (x.delay) out.push(el("span", { class: "badge" }, "delay " + x.delay));
  if (x.scenario) {
    const s = x.scenario;
    const text = "scenario " + s.name + (s.requiredState ? ": in " + s.requiredState : "") + (s.newState ? " → " + s.newState : "");
    out.push(el("span", { class: "badge warn scenario", dataset: { scenario: s.name } }, text));
  }
  return out;
}

// renderExpectations shows the expectations in the order they are looked at.
function renderExpectations() {
  const list = state.expectations;
  $("exp-list").replaceChildren(...list.map((x) => {
    const times = x.times ? x.remaining + " of " + x.times + " left" : "every time";
    const answered = x.answer ? el("span", { class: "status s" + String(x.answer.status)[0] }, x.answer.status) : el("span", {}, "");
    return el("li", { class: "expectation", dataset: { id: x.id, operation: x.operation, fault: x.fault || "" } },
      el("span", { class: "method " + x.when.method }, x.when.method),
      el("div", { class: "exp-when" },
        el("span", { class: "op-path" }, x.when.path),
        el("span", { class: "op-id" }, x.operation),
        ...conditions(x.when).map((c) => el("code", { class: "matcher" }, c)),
        ...extras(x)),
      x.fault ? el("span", { class: "exp-fault" }, answered, " ", el("span", { class: "badge bad" }, x.fault)) : answered,
      el("span", { class: "muted small" }, times + " · answered " + x.matched),
      el("button", { type: "button", class: "ghost small", "aria-label": "Drop expectation " + x.id, onclick: () => drop(x.id) }, "Drop"),
      el("details", { class: "exp-answer" }, el("summary", { class: "small" }, "The answer"),
        el("pre", { class: "body" }, JSON.stringify(x.answer, null, 2))));
  }));
  $("exp-empty").hidden = list.length > 0;
  $("exp-clear").hidden = list.length === 0;
  $("count-expectations").textContent = list.length ? String(list.length) : "";
}

// renderStates shows the scenarios the expectations name, and the state
// each is in.
function renderStates() {
  const states = state.states || [];
  $("exp-states").replaceChildren(...states.map((s) => el("li", { dataset: { scenario: s.name, state: s.state } },
    el("strong", {}, s.name), " is in ", el("code", {}, s.state))));
  $("exp-states-card").hidden = states.length === 0;
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
    const what = data.answer ? "answers " + data.answer.status : "meets the fault " + data.fault;
    toast("Expectation " + data.id + " set: " + data.when.method + " " + data.when.path + " " + what + ".");
    loadExpectations();
  } catch (err) {
    $("exp-error").textContent = err.message;
    $("exp-error").hidden = false;
  }
}

// clearExpectations forgets what the panel showed, once the key is.
export function clearExpectations() {
  state.expectations = [];
  state.states = [];
  $("exp-list").replaceChildren();
  $("exp-states").replaceChildren();
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
  $("exp-states-reset").addEventListener("click", async () => {
    try {
      await request(ADMIN + "states", { method: "DELETE" });
      toast("Every scenario is back in Started.");
      loadExpectations();
    } catch (err) {
      toast(err.message, true);
    }
  });
}
