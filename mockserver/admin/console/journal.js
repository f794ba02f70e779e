// The journal panel: every request of the API as it is answered, newest
// first, each with its request and answer, keys hidden, and the fault or
// the expectation that answered it instead of the app's handler.

import { $, ADMIN, el, loader, request, state, timeOfDay, toast } from "./petmock.js";

// loadJournal shows the last hundred requests.
export const loadJournal = loader(async () => {
  if (!state.key) return;
  const { data } = await request(ADMIN + "requests?limit=100");
  state.log.entries = data.requests;
  renderJournal();
});

// entryKey tells an entry of the journal from the others.
const entryKey = (x) => x.time + " " + x.method + " " + x.path + "?" + (x.query || "");

// renderJournal shows the entries the filter keeps, newest first.
export function renderJournal() {
  const filter = state.log.filter.toLowerCase();
  const shown = state.log.entries.filter((x) => !filter ||
    (x.method + " " + x.path + (x.query ? "?" + x.query : "") + " " + x.status + " " + (x.fault || "")).toLowerCase().includes(filter));
  const items = shown.map((x) => {
    const key = entryKey(x);
    const open = state.log.open.has(key);
    const target = x.path + (x.query ? "?" + x.query : "");
    const row = el("button", { type: "button", class: "log-row", "aria-expanded": open ? "true" : "false",
      onclick: () => toggleEntry(key) },
      el("time", { dateTime: x.time }, timeOfDay(x.time)),
      el("span", { class: "method " + x.method }, x.method),
      el("span", { class: "path", title: target }, target, source(x),
        x.fault ? [" ", el("span", { class: "badge bad fault" }, x.fault)] : null,
        x.expectation ? [" ", el("span", { class: "badge warn fault" }, "expectation " + x.expectation)] : null),
      el("span", { class: "status s" + String(x.status)[0], title: x.status ? null : "no answer: the connection was closed" }, x.status || "—"),
      el("span", { class: "dur" + (x.durationMs >= 1000 ? " slow" : "") }, x.durationMs.toFixed(x.durationMs < 10 ? 1 : 0) + " ms"));
    const li = el("li", { dataset: { method: x.method, path: x.path, status: x.status, duration: x.durationMs } }, row);
    if (open) li.append(entryDetail(x));
    return li;
  });
  $("log-list").replaceChildren(...items);
  $("log-empty").hidden = state.log.entries.length > 0;
  const kept = state.settings ? " of " + state.settings.journal + " kept" : "";
  $("log-total").textContent = state.log.entries.length + kept;
  $("count-journal").textContent = String(state.log.entries.length);
}

// source marks an entry of a request petmock proxied: who answered, and
// how many rules the backend's answer broke.
function source(x) {
  if (!x.source) return null;
  const broken = (x.violations || []).length;
  return el("span", { class: "source " + x.source, title: x.fallback || "" }, x.source,
    broken ? el("span", { class: "badge bad" }, broken + " broken") : null);
}

// toggleEntry opens or closes an entry, and keeps the focus on it.
function toggleEntry(key) {
  if (state.log.open.has(key)) state.log.open.delete(key);
  else state.log.open.add(key);
  const focused = document.activeElement && document.activeElement.closest("#log-list li");
  const index = focused ? [...$("log-list").children].indexOf(focused) : -1;
  renderJournal();
  if (index >= 0 && $("log-list").children[index]) $("log-list").children[index].querySelector(".log-row").focus();
}

// entryDetail shows the request and the answer of an entry; the
// violations panel shows those of its answers so too.
export function entryDetail(x) {
  const side = (title, m) => el("div", {},
    el("h3", {}, title),
    el("table", { class: "headers" }, el("tbody", {}, Object.entries(m.headers || {}).sort().map(([name, values]) =>
      el("tr", {}, el("td", {}, name), el("td", {}, values.join(", ")))))),
    m.body ? el("pre", { class: "body" }, pretty(m.body) + (m.truncated ? "\n… cut at 4 KiB" : "")) : el("p", { class: "muted small" }, "No body."));
  const from = x.source ? " from the " + x.source + (x.fallback ? " (" + x.fallback + ")" : "") : "";
  const answer = x.status ? "Response " + x.status + from : "No response";
  return el("div", { class: "log-detail" }, side("Request", x.request), side(answer + (x.fault ? " (fault: " + x.fault + ")" : ""), x.response));
}

// pretty indents a JSON body; another is shown as it is.
function pretty(body) {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

// clearJournal forgets what the journal showed, once the key is.
export function clearJournal() {
  $("log-list").replaceChildren();
  $("count-journal").textContent = "";
}

// closeEntries closes the open entries; it reports whether there were any.
export function closeEntries() {
  if (!state.log.open.size) return false;
  state.log.open.clear();
  renderJournal();
  return true;
}

// saveJournal saves the journal as GET /__petmock/requests answers it,
// keys and secrets hidden, to a file that conformance replay reads.
async function saveJournal() {
  const { data } = await request(ADMIN + "requests");
  const blob = new Blob([JSON.stringify(data, null, 2) + "\n"], { type: "application/json" });
  const a = el("a", { href: URL.createObjectURL(blob), download: "petmock-journal-" + new Date().toISOString().replace(/[:.]/g, "-") + ".json" });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  toast("Saved " + data.requests.length + (data.requests.length === 1 ? " request" : " requests") + ": replay them with conformance replay FILE --base-url URL.");
}

// wireJournal makes the journal's controls work.
export function wireJournal() {
  $("log-filter").addEventListener("input", (e) => {
    state.log.filter = e.target.value.trim();
    renderJournal();
  });
  $("log-pause").addEventListener("click", (e) => {
    state.log.paused = !state.log.paused;
    e.target.setAttribute("aria-pressed", String(state.log.paused));
    e.target.textContent = state.log.paused ? "Paused" : "Pause";
    if (!state.log.paused) loadJournal();
  });
  $("log-save").addEventListener("click", () => saveJournal().catch((err) => toast(err.message, true)));
  $("log-clear").addEventListener("click", async () => {
    try {
      await request(ADMIN + "requests", { method: "DELETE" });
      state.log.open.clear();
      loadJournal();
    } catch (err) {
      toast(err.message, true);
    }
  });
  $("log-list").addEventListener("keydown", (e) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    const rows = [...document.querySelectorAll("#log-list .log-row")];
    const i = rows.indexOf(document.activeElement);
    const next = rows[i + (e.key === "ArrowDown" ? 1 : -1)];
    if (next) {
      e.preventDefault();
      next.focus();
    }
  });
}
