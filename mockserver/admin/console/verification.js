// The verification panel: which requests each expectation answered, and
// which requests of the app no expectation answered, with counts, as a
// frontend test asserts on them (GET /__petmock/verification); counted
// from petmock's start or the last reset, which the panel can make.

import { $, ADMIN, el, loader, request, state, timeOfDay, toast } from "./petmock.js";

// loadVerification shows what the verification counted.
export const loadVerification = loader(async () => {
  if (!state.key) return;
  const { data } = await request(ADMIN + "verification");
  state.verification = data;
  renderVerification();
});

// renderVerification shows the counts, the expectations and the requests
// none answered.
function renderVerification() {
  const v = state.verification;
  if (!v) return;
  $("ver-summary").textContent = v.received + (v.received === 1 ? " request" : " requests") + " since " + timeOfDay(v.since) +
    ": " + v.matched + " answered by an expectation, " + v.unmatched + " by none.";
  $("ver-expectations").replaceChildren(...v.expectations.map((e) => el("li", {
    class: "ver-row", dataset: { id: e.id, count: e.count, set: e.set ? "yes" : "no" } },
    el("span", { class: "method " + e.method }, e.method),
    el("span", { class: "op-path" }, e.path),
    el("span", { class: "op-id" }, "expectation " + e.id + " · " + e.operation + (e.set ? "" : " · dropped")),
    el("span", { class: "ver-count" }, e.count === 1 ? "1 request" : e.count + " requests"),
    e.requests.length ? el("span", { class: "muted small" }, "last: " + e.requests.slice(-3).map((r) => r.path + " at " + timeOfDay(r.time)).join(", ")) : null)));
  $("ver-unmatched").replaceChildren(...v.unmatchedRequests.map((u) => el("li", {
    class: "ver-row", dataset: { method: u.method, path: u.path, count: u.count } },
    el("span", { class: "method " + u.method }, u.method),
    el("span", { class: "op-path" }, u.path),
    el("span", { class: "op-id" }, u.operation || "no operation"),
    el("span", { class: "ver-count" }, u.count === 1 ? "1 request" : u.count + " requests"),
    el("span", { class: "muted small" }, "last at " + timeOfDay(u.last)))));
  $("ver-none").hidden = v.expectations.length > 0;
  $("ver-all").hidden = v.unmatchedRequests.length > 0 || v.received === 0;
  $("ver-omitted").hidden = !v.omitted;
  $("ver-omitted").textContent = v.omitted ? v.omitted + " more requests of other paths, past the 1,000 kept." : "";
  $("count-verification").textContent = v.unmatched ? v.unmatched + " unmatched" : "";
}

// clearVerification forgets what the panel showed, once the key is.
export function clearVerification() {
  state.verification = null;
  $("ver-expectations").replaceChildren();
  $("ver-unmatched").replaceChildren();
  $("ver-summary").textContent = "";
  $("count-verification").textContent = "";
}

// wireVerification makes the reset work.
export function wireVerification() {
  $("ver-reset").addEventListener("click", async () => {
    try {
      await request(ADMIN + "verification", { method: "DELETE" });
      toast("Counting from now.");
      loadVerification();
    } catch (err) {
      toast(err.message, true);
    }
  });
}
