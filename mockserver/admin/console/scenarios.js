// The scenarios panel: every resource empty, back to the seed, or a
// fixture's, each one request to the admin API; and the answers, or the
// faults, forced on the next requests of the app.

import { $, ADMIN, el, loader, request, state, toast } from "./petmock.js";
import { firstPage } from "./catalogue.js";
import { loadHealth } from "./operations.js";

// scenario sends the request of a scenario, and shows the catalogue it
// leaves.
async function scenario(path, method, body, done) {
  try {
    const { data } = await request(ADMIN + path, { method, body });
    const counts = Object.entries(data).map(([k, v]) => v + " " + k).join(", ");
    toast(done + (counts ? ": " + counts : ""));
    firstPage();
    loadHealth();
    return true;
  } catch (err) {
    toast(err.message, true);
    return err;
  }
}

// loadFixture sends the fixture pasted or read from a file.
async function loadFixture() {
  const text = $("sc-fixture").value.trim();
  $("sc-error").hidden = true;
  if (!text) {
    $("sc-error").textContent = "fixture: paste one, or pick a file";
    $("sc-error").hidden = false;
    return;
  }
  const result = await scenario("fixture", "PUT", text, "Fixture loaded");
  if (result instanceof Error) {
    $("sc-error").textContent = result.message;
    $("sc-error").hidden = false;
  }
}

// FAULTS are the faults below HTTP, as the admin API's document lists
// them.
export const FAULTS = ["reset", "empty", "malformed-chunk", "random-data", "slow", "dribble"];

// setupForceForm offers the operations of the contract.
export function setupForceForm() {
  const c = state.contract;
  if (!c) return;
  const select = $("force-op");
  const chosen = select.value;
  select.replaceChildren(el("option", { value: "" }, "any operation"),
    ...c.operations.map((op) => el("option", { value: op.id }, op.id + " · " + op.method + " " + op.path)));
  select.value = chosen;
  setupForceCodes();
}

// setupForceCodes offers the statuses the operation chosen documents,
// and the outages.
function setupForceCodes() {
  const c = state.contract;
  const op = c.operations.find((o) => o.id === $("force-op").value);
  const codes = new Set(op ? op.statuses || [] : c.operations.flatMap((o) => o.statuses || []));
  const select = $("force-code");
  const chosen = select.value;
  const sorted = [...codes].sort((a, b) => a - b);
  const options = sorted.map((code) => el("option", { value: code },
    code + (code < 300 ? " (answers as usual)" : "")));
  options.push(el("option", { value: 500 }, "500 (outage)"), el("option", { value: 503 }, "503 (outage)"));
  for (const fault of FAULTS) {
    options.push(el("option", { value: "fault:" + fault }, fault + " (fault below HTTP)"));
  }
  select.replaceChildren(...options);
  const first = sorted.find((code) => code >= 400);
  select.value = chosen && [...select.options].some((o) => o.value === chosen) ? chosen : String(first || 503);
}

// loadForced shows the answers forced on the next requests, by the
// operation whose queue they wait in, each with a button that drops it,
// and each operation with one that drops all of its own.
export const loadForced = loader(async () => {
  if (!state.key) return;
  const { data } = await request(ADMIN + "forced");
  state.forced = data.forced;
  const queues = new Map();
  for (const f of state.forced) {
    const op = f.operation || "";
    if (!queues.has(op)) queues.set(op, []);
    queues.get(op).push(f);
  }
  // The operations' own queues first, then what waits for any.
  const ops = [...queues.keys()].sort((a, b) => (a === "") - (b === "") || a.localeCompare(b));
  const items = [];
  for (const op of ops) {
    const own = queues.get(op);
    items.push(el("li", { class: "group", dataset: { group: op } },
      el("strong", {}, op || "any operation"),
      el("span", { class: "muted small" }, op ? " what its next requests take, in turn" : " the next request of any operation that fits takes it, and its operation the rest"),
      op ? el("button", { type: "button", class: "ghost small", "aria-label": "Force nothing more on " + op, onclick: () => drop("forced?operation=" + encodeURIComponent(op)) }, "Clear " + op) : null));
    for (const f of own) {
      const what = f.fault ? el("span", { class: "badge bad" }, f.fault) : el("span", { class: "status s" + String(f.code)[0] }, f.code);
      const detail = f.fault === "dribble" ? " in " + f.chunks + " chunks over " + f.duration : f.fault === "slow" && f.bytesPerSecond ? " at " + f.bytesPerSecond + " bytes a second" : "";
      items.push(el("li", { dataset: { id: f.id, code: f.code || "", fault: f.fault || "", operation: f.operation || "" } },
        what,
        el("span", {}, detail + ": the next " + (f.remaining === 1 ? "request" : f.remaining + " requests") +
          (f.bound ? " (forced for any operation; " + f.operation + " took it first)" : "")),
        el("button", { type: "button", class: "ghost small", "aria-label": "Drop forced answer " + f.id, onclick: () => drop("forced/" + f.id) }, "Drop")));
    }
  }
  $("force-list").replaceChildren(...items);
  $("force-clear").hidden = state.forced.length === 0;
  $("count-scenarios").textContent = state.forced.length ? state.forced.length + " forced" : "";
  $("count-scenarios").classList.toggle("alert", state.forced.length > 0);
});

// drop drops forced answers with DELETE of path below the admin API.
async function drop(path) {
  try {
    await request(ADMIN + path, { method: "DELETE" });
    loadForced();
  } catch (err) {
    toast(err.message, true);
  }
}

// force forces the answer the form says.
async function force(event) {
  event.preventDefault();
  $("force-error").hidden = true;
  const chosen = $("force-code").value;
  const body = { count: Number($("force-count").value || 1) };
  if (chosen.startsWith("fault:")) body.fault = chosen.slice("fault:".length);
  else body.code = Number(chosen);
  if ($("force-op").value) body.operation = $("force-op").value;
  try {
    await request(ADMIN + "forced", { method: "POST", body });
    toast("The next " + (body.count === 1 ? "request" : body.count + " requests") + " to " + (body.operation || "any operation") +
      (body.fault ? " meet the fault " + body.fault : " answer " + body.code) + ".");
    loadForced();
  } catch (err) {
    $("force-error").textContent = err.message;
    $("force-error").hidden = false;
  }
}

// clearScenarios forgets what the scenarios showed, once the key is.
export function clearScenarios() {
  $("force-list").replaceChildren();
  $("count-scenarios").textContent = "";
}

// wireScenarios makes the scenarios' buttons and the force form work.
export function wireScenarios() {
  $("sc-empty").addEventListener("click", () => scenario("empty", "POST", undefined, "Every resource emptied"));
  $("sc-reset").addEventListener("click", () => scenario("reset", "POST", undefined, "Back to the seed"));
  $("sc-load").addEventListener("click", loadFixture);
  $("sc-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) $("sc-fixture").value = await file.text();
  });
  $("force-op").addEventListener("change", setupForceCodes);
  $("force-form").addEventListener("submit", force);
  $("force-clear").addEventListener("click", () => drop("forced"));
}
