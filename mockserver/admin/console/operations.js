// The operations panel: the operations of the document, with their
// statuses and deprecation counted down to a sunset on petmock's clock,
// and the health of the mock. It needs no key.

import { $, ADMIN, clockText, el, loader, petmockNow, request, span, state } from "./petmock.js";

// singular returns the name of one item of the resource name, as the
// contract gives it: "1 pet", not "1 pets".
function singular(name) {
  const r = state.contract && state.contract.resources.find((r) => r.name === name);
  return (r && r.singular) || name;
}

// loadHealth shows the health of the mock, and the number of items of the
// resource the catalogue shows.
export const loadHealth = loader(async () => {
  const { data } = await request(ADMIN + "health", { key: false });
  state.health = data;
  renderHealth();
});

// renderHealth shows the health last read, counted in the names the
// contract gives, which may come after it.
export function renderHealth() {
  const data = state.health;
  if (!data) return;
  const parts = [];
  for (const [name, value] of Object.entries(data)) {
    if (name !== "status") parts.push(el("span", {}, value.toLocaleString("en") + " " + (value === 1 ? singular(name) : name)));
  }
  $("health").replaceChildren(el("span", {}, "status: " + data.status), ...parts);
  if (state.cat.resource && state.key) {
    $("count-catalogue").textContent = (data[state.cat.resource] ?? "").toLocaleString("en");
  }
}

// renderOperations shows the operations of the contract.
export function renderOperations() {
  const c = state.contract;
  if (!c) return;
  const items = c.operations.map((op) => {
    const d = op.deprecated;
    const meta = [el("span", {}, op.summary || "")];
    meta.push(...(op.statuses || []).map((s) => el("span", { class: "status s" + String(s)[0] }, s)));
    meta.push(op.resource
      ? el("span", { class: "badge kind", title: "Kept by petmock: what a client creates here can be read back" }, op.resource)
      : el("span", { class: "badge kind plain", title: "Answered from the document's examples and schemas, nothing kept" }, "plain"));
    const node = el("li", { class: "op" + (d ? " deprecated" : "") + (d && d.removed ? " removed" : ""), id: "op-" + op.id },
      el("span", { class: "method " + op.method }, op.method),
      el("div", {}, el("span", { class: "op-path" }, op.path), el("span", { class: "op-id" }, op.id)),
      el("div", { class: "op-meta" }, meta),
    );
    if (op.note) node.append(el("div", { class: "op-meta op-note" }, op.note));
    if (d) {
      const line = [el("span", { class: "badge " + (d.removed ? "bad" : "warn") }, d.removed ? "removed" : "deprecated")];
      if (d.since) line.push(el("span", {}, "since " + d.since.slice(0, 10)));
      if (d.sunset) {
        line.push(el("span", {}, "sunset " + d.sunset.slice(0, 10)));
        line.push(el("span", { class: "countdown", dataset: { sunset: d.sunset } }));
      }
      if (d.replacedBy) line.push(el("span", {}, "use " + d.replacedBy + " instead"));
      node.append(el("div", { class: "op-meta" }, line));
    }
    return node;
  });
  $("op-list").replaceChildren(...items);
  renderMadeOf(c);
  const deprecated = c.operations.filter((op) => op.deprecated).length;
  $("count-operations").textContent = deprecated ? deprecated + " deprecated" : String(c.operations.length);
  $("count-operations").classList.toggle("alert", deprecated > 0);
  const sunset = c.operations.map((op) => op.deprecated && op.deprecated.sunset).filter(Boolean)[0];
  $("set-now-sunset").hidden = !sunset;
  $("set-now-sunset").dataset.value = sunset ? new Date(Date.parse(sunset) + 86400000).toISOString().slice(0, 10) : "";
  tick();
}

// renderMadeOf says what petmock made of the document: the resources it
// found, with their operations, and its start-up notes, among them why
// paths that look like a resource are served as plain operations.
function renderMadeOf(c) {
  const resources = c.resources.map((r) => {
    const ops = c.operations.filter((op) => op.resource === r.name).map((op) => op.id);
    return el("li", {}, el("strong", {}, r.name), " (" + (r.idProperty ? "by " + r.idProperty + ": " : "") + ops.join(", ") + ")");
  });
  const plain = c.operations.filter((op) => !op.resource).length;
  const summary = c.resources.length === 0
    ? "petmock found no resource in this document: its " + c.operations.length + " " + (c.operations.length === 1 ? "operation answers" : "operations answer") + " from the document's examples and schemas, and " + (c.operations.length === 1 ? "keeps" : "keep") + " nothing."
    : c.resources.length + " " + (c.resources.length === 1 ? "resource keeps" : "resources keep") + " what clients create" + (plain ? "; " + plain + " " + (plain === 1 ? "operation answers" : "operations answer") + " from the document alone." : ".");
  const notes = (c.notes || []).map((n) => el("li", {}, n));
  $("made-of").replaceChildren(
    el("p", { id: "made-of-summary" }, summary),
    resources.length ? el("ul", { class: "made-of-resources" }, resources) : "",
    notes.length ? el("details", { id: "made-of-notes" }, el("summary", {}, notes.length + " start-up " + (notes.length === 1 ? "note" : "notes")), el("ul", {}, notes)) : "",
  );
  $("cat-none").replaceChildren(...(c.resources.length ? [] : [
    el("p", {}, summary),
    ...(c.notes || []).filter((n) => n.includes("plain operations")).map((n) => el("p", { class: "muted small" }, n)),
  ]));
  $("cat-none").hidden = c.resources.length > 0;
}

// tick redraws what depends on the clock: the countdowns to a sunset,
// which petmock's clock decides, and the clock itself.
export function tick() {
  const now = petmockNow();
  for (const node of document.querySelectorAll(".countdown")) {
    const left = Date.parse(node.dataset.sunset) - now;
    node.textContent = left > 0 ? "removed in " + span(left) : "answers 410 Gone since " + span(-left);
  }
  if (state.contract) {
    const set = state.settings && state.settings.clock === "set";
    $("side-clock").textContent = clockText(now) + (set ? " (set)" : "");
    if (state.settings) $("set-clock").textContent = "petmock's time: " + clockText(now) + (set ? ", set" : ", the real time");
  }
}