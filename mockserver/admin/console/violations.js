// The violations panel: with petmock --proxy, the requests and the
// backend's answers that break the document, newest first, each with the
// rules broken, its request and its answer, keys hidden.

import { $, ADMIN, el, loader, request, state, timeOfDay, toast } from "./petmock.js";
import { entryDetail } from "./journal.js";

// loadViolations shows the answers the view keeps, and the backend.
export const loadViolations = loader(async () => {
  if (!state.key) return;
  const { data } = await request(ADMIN + "violations");
  state.viol.backend = data.backend;
  state.viol.entries = data.violations;
  renderViolations();
});

// entryKey tells an answer of the view from the others.
const entryKey = (x) => x.time + " " + x.method + " " + x.path + "?" + (x.query || "");

// renderViolations shows the answers, newest first, and what petmock
// proxies to.
export function renderViolations() {
  const v = state.viol;
  $("viol-backend").replaceChildren(...(v.backend
    ? ["Requests to ", el("code", {}, v.backend), ", and its answers, that break the document, newest first. Each is relayed as it came, but with --proxy-strict; the rules broken are named."]
    : ["petmock answers every request itself. Start it with ", el("code", {}, "--proxy URL"), " to check a backend's answers against the document here."]));
  const items = v.entries.map((x) => {
    const key = entryKey(x);
    const open = v.open.has(key);
    const target = x.path + (x.query ? "?" + x.query : "");
    const rules = (x.violations || []).map((b) => b.rule);
    const row = el("button", { type: "button", class: "log-row viol-row", "aria-expanded": open ? "true" : "false",
      onclick: () => toggle(key) },
      el("time", { dateTime: x.time }, timeOfDay(x.time)),
      el("span", { class: "method " + x.method }, x.method),
      el("span", { class: "path", title: target }, target),
      el("span", { class: "status s" + String(x.status)[0] }, x.status),
      el("span", { class: "rules" }, rules.map((r) => el("span", { class: "badge bad rule" }, r))));
    const li = el("li", { dataset: { method: x.method, path: x.path, status: x.status, rules: rules.join(" ") } }, row);
    if (open) {
      li.append(el("ul", { class: "broken" }, (x.violations || []).map((b) =>
        el("li", {}, el("span", { class: "badge bad rule" }, b.rule), " ", b.message))));
      li.append(entryDetail(x));
    }
    return li;
  });
  $("viol-list").replaceChildren(...items);
  $("viol-empty").hidden = v.entries.length > 0 || !v.backend;
  $("viol-total").textContent = v.backend ? String(v.entries.length) : "";
  $("count-violations").textContent = v.entries.length ? String(v.entries.length) : "";
}

// toggle opens or closes an answer.
function toggle(key) {
  if (state.viol.open.has(key)) state.viol.open.delete(key);
  else state.viol.open.add(key);
  renderViolations();
}

// clearViolations forgets what the panel showed, once the key is.
export function clearViolations() {
  $("viol-list").replaceChildren();
  $("count-violations").textContent = "";
}

// wireViolations makes the panel's button work.
export function wireViolations() {
  $("viol-clear").addEventListener("click", async () => {
    try {
      await request(ADMIN + "violations", { method: "DELETE" });
      state.viol.open.clear();
      loadViolations();
    } catch (err) {
      toast(err.message, true);
    }
  });
}
