// The catalogue panel: the items of each resource, a page at a time, read
// from the admin API's catalogue endpoint and followed through the Link of
// each page, with the resource's filters and a search of the values.

import { $, ADMIN, el, loader, request, state } from "./petmock.js";
import { loadHealth } from "./operations.js";

// setupCatalogue offers the resources of the contract, and shows the
// first.
export function setupCatalogue(resources) {
  const select = $("cat-resource");
  select.replaceChildren(...resources.map((r) => el("option", { value: r.name }, r.name)));
  select.hidden = resources.length < 2;
  state.cat.resource = resources[0].name;
  renderFilters();
}

// currentResource is the resource of the contract the catalogue shows.
function currentResource() {
  return state.contract && state.contract.resources.find((r) => r.name === state.cat.resource);
}

// renderFilters offers a select for each filter of the resource.
function renderFilters() {
  const r = currentResource();
  const selects = (r ? r.filters : []).filter((f) => f.values && f.values.length).map((f) =>
    el("select", { "aria-label": "Filter by " + f.name, dataset: { filter: f.name }, onchange: (e) => {
      state.cat.filters[f.name] = e.target.value;
      firstPage();
    } },
    el("option", { value: "" }, "any " + f.name),
    f.values.map((v) => el("option", { value: v }, v))));
  $("cat-filters").replaceChildren(...selects);
}

// catalogueURL is the URL of the first page the user asks for.
function catalogueURL() {
  const p = new URLSearchParams();
  p.set("limit", state.cat.limit);
  p.set("order", state.cat.order);
  if (state.cat.q) p.set("q", state.cat.q);
  for (const [name, value] of Object.entries(state.cat.filters)) if (value) p.set(name, value);
  return ADMIN + "catalogue/" + encodeURIComponent(state.cat.resource) + "?" + p;
}

// nextLink returns the path of the rel="next" link of a Link header. Only
// its path is kept, so that the page never follows a link elsewhere.
function nextLink(header) {
  if (!header) return "";
  for (const part of header.split(",")) {
    const m = part.match(/<([^>]*)>\s*;\s*rel="?next"?/);
    if (m) {
      const u = new URL(m[1], location.href);
      return u.pathname.startsWith(ADMIN + "catalogue/") ? u.pathname + u.search : "";
    }
  }
  return "";
}

// loadCatalogue shows the page the user asks for.
export const loadCatalogue = loader(async () => {
  if (!state.key || !state.cat.resource) return;
  const url = state.cat.url || catalogueURL();
  const { data, res } = await request(url);
  if (url !== (state.cat.url || catalogueURL())) return; // the user moved on meanwhile
  state.cat.next = nextLink(res.headers.get("Link"));
  renderCatalogue(data);
});

// renderCatalogue shows a page of items.
function renderCatalogue(page) {
  const r = currentResource();
  const columns = r && r.properties && r.properties.length ? r.properties : Object.keys(page.items[0] || {});
  const enums = {};
  for (const f of r ? r.filters : []) if (f.values) enums[f.name] = f.values;
  $("cat-table").tHead.replaceChildren(el("tr", {}, columns.map((c) => el("th", { scope: "col" }, c))));
  const rows = page.items.map((item) => el("tr", { dataset: { id: item[r ? r.idProperty : "id"] } },
    columns.map((c) => {
      const v = item[c];
      if (r && c === r.idProperty) return el("td", { class: "id" }, v);
      if (enums[c] && typeof v === "string") {
        return el("td", {}, el("span", { class: "pill v" + Math.max(0, enums[c].indexOf(v)) % 5 }, v));
      }
      const text = v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
      return el("td", { title: text.length > 40 ? text : undefined }, text);
    })));
  $("cat-table").tBodies[0].replaceChildren(...rows);
  $("cat-empty").hidden = page.items.length > 0;
  const from = state.cat.stack.length * state.cat.limit;
  let info;
  if (state.cat.q) {
    info = page.items.length + " found on this page, in " + (page.scanned || 0).toLocaleString("en") + " items searched";
  } else if (page.items.length) {
    info = (from + 1).toLocaleString("en") + "–" + (from + page.items.length).toLocaleString("en") + " of " + page.total.toLocaleString("en");
  } else {
    info = "";
  }
  $("cat-info").textContent = info;
  $("cat-total").textContent = page.total.toLocaleString("en") + (Object.values(state.cat.filters).some(Boolean) ? " selected" : "");
  $("cat-prev").disabled = state.cat.stack.length === 0;
  $("cat-first").disabled = state.cat.stack.length === 0;
  $("cat-next").disabled = !state.cat.next;
}

// firstPage shows the first page again, as after a change of the query.
export function firstPage() {
  state.cat.url = "";
  state.cat.stack = [];
  loadCatalogue();
}

// clearCatalogue forgets what the catalogue showed, once the key is.
export function clearCatalogue() {
  $("cat-table").tBodies[0].replaceChildren();
  $("count-catalogue").textContent = "";
}

// wireCatalogue makes the catalogue's controls work.
export function wireCatalogue() {
  let searchTimer = 0;
  $("cat-search").addEventListener("input", (e) => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => {
      state.cat.q = e.target.value.trim();
      firstPage();
    }, 250);
  });
  $("cat-order").addEventListener("change", (e) => {
    state.cat.order = e.target.value;
    firstPage();
  });
  $("cat-limit").addEventListener("change", (e) => {
    state.cat.limit = Number(e.target.value);
    firstPage();
  });
  $("cat-resource").addEventListener("change", (e) => {
    state.cat.resource = e.target.value;
    state.cat.filters = {};
    renderFilters();
    firstPage();
    loadHealth();
  });
  $("cat-next").addEventListener("click", () => {
    if (!state.cat.next) return;
    state.cat.stack.push(state.cat.url || catalogueURL());
    state.cat.url = state.cat.next;
    loadCatalogue();
  });
  $("cat-prev").addEventListener("click", () => {
    if (!state.cat.stack.length) return;
    state.cat.url = state.cat.stack.pop();
    if (state.cat.stack.length === 0) state.cat.url = "";
    loadCatalogue();
  });
  $("cat-first").addEventListener("click", firstPage);
}
