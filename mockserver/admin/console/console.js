// petmock console. Plain JavaScript, no build step, nothing from elsewhere.
//
// Everything the page shows comes from petmock's admin API on this origin.
// The key is asked for once and kept in this tab's sessionStorage; it goes
// in the Authorization header of requests to this origin only, never in a
// URL, and never into the page. Without it, the page shows what needs no
// key: the operations and the health of the mock.
"use strict";

(() => {
  const KEY = "petmock.key";
  const ADMIN = "/__petmock/";
  const SECTIONS = ["catalogue", "journal", "settings", "scenarios", "operations"];

  const state = {
    key: sessionStorage.getItem(KEY) || "",
    section: "catalogue",
    contract: null,
    offset: 0, // petmock's clock minus the browser's, in ms
    settings: null,
    dirty: new Set(), // settings fields the user is editing
    cat: { resource: "", filters: {}, q: "", order: "desc", limit: 20, url: "", stack: [], next: "" },
    log: { paused: false, open: new Set(), entries: [], filter: "" },
    forced: [],
    stream: null,
    retry: 0,
  };

  // ---- Small helpers.

  const $ = (id) => document.getElementById(id);

  // el builds an element; children are nodes or text, never HTML.
  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(props || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === "class") node.className = value;
      else if (name === "dataset") Object.assign(node.dataset, value);
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else if (name in node && name !== "list") node[name] = value;
      else node.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  function toast(message, bad) {
    const t = el("div", { class: bad ? "toast bad" : "toast" }, message);
    $("toasts").append(t);
    setTimeout(() => t.remove(), bad ? 6000 : 3000);
  }

  // ApiError is an Error body petmock answered with.
  class ApiError extends Error {
    constructor(status, body) {
      super((body && body.message) || "petmock answered " + status);
      this.status = status;
      this.field = this.message.includes(":") ? this.message.slice(0, this.message.indexOf(":")) : "";
    }
  }

  // request sends a request to petmock's admin API, on this origin, with
  // the key when there is one. A 401 locks the console.
  async function request(path, opts = {}) {
    if (!path.startsWith(ADMIN)) throw new Error("not an admin path: " + path);
    const headers = new Headers();
    if (opts.key !== false && state.key) headers.set("Authorization", "Bearer " + state.key);
    let body;
    if (opts.body !== undefined) {
      headers.set("Content-Type", "application/json");
      body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    }
    const res = await fetch(path, {
      method: opts.method || "GET",
      headers,
      body,
      cache: "no-store",
      credentials: "omit",
      redirect: "error",
      signal: opts.signal,
    });
    let data = null;
    if ((res.headers.get("Content-Type") || "").startsWith("application/json")) data = await res.json();
    if (res.status === 401 && opts.key !== false) {
      lock("petmock refused the key (" + ((data && data.message) || "401") + "). Enter it again.");
    }
    if (!res.ok) throw new ApiError(res.status, data);
    return { data, res };
  }

  // loader makes fn run one at a time: a call while it runs makes it run
  // once more after, so that a burst of events costs two loads, not many.
  function loader(fn) {
    let running = false;
    let again = false;
    const run = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        await fn();
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 401)) toast(err.message, true);
      } finally {
        running = false;
        if (again) {
          again = false;
          run();
        }
      }
    };
    return run;
  }

  const pad = (n, w = 2) => String(n).padStart(w, "0");

  function clockText(ms) {
    const d = new Date(ms);
    return d.getUTCFullYear() + "-" + pad(d.getUTCMonth() + 1) + "-" + pad(d.getUTCDate()) + " " +
      pad(d.getUTCHours()) + ":" + pad(d.getUTCMinutes()) + ":" + pad(d.getUTCSeconds()) + " UTC";
  }

  function timeOfDay(iso) {
    const d = new Date(iso);
    return pad(d.getHours()) + ":" + pad(d.getMinutes()) + ":" + pad(d.getSeconds()) + "." + pad(d.getMilliseconds(), 3);
  }

  // petmockNow is the time petmock acts at, as far as the last answer said.
  const petmockNow = () => Date.now() + state.offset;

  function span(ms) {
    const neg = ms < 0;
    let s = Math.floor(Math.abs(ms) / 1000);
    const days = Math.floor(s / 86400);
    s -= days * 86400;
    const text = (days ? days.toLocaleString("en") + " d " : "") +
      pad(Math.floor(s / 3600)) + ":" + pad(Math.floor((s % 3600) / 60)) + ":" + pad(s % 60);
    return neg ? "-" + text : text;
  }

  // ---- Sections and the key.

  function show(section) {
    if (!SECTIONS.includes(section)) return;
    state.section = section;
    for (const button of document.querySelectorAll(".nav-item")) {
      if (button.dataset.section === section) button.setAttribute("aria-current", "page");
      else button.removeAttribute("aria-current");
    }
    const locked = !state.key && $(section).hasAttribute("data-needs-key");
    for (const name of SECTIONS) $(name).hidden = name !== section || locked;
    $("unlock").hidden = !locked;
    if (locked) {
      $("unlock-why").textContent = "The " + section + " comes from petmock's admin API, which takes the same keys as the API.";
      $("key-input").focus();
    }
  }

  async function unlock(event) {
    event.preventDefault();
    const input = $("key-input");
    const key = input.value.trim();
    input.value = "";
    if (!key) return;
    $("key-error").hidden = true;
    const res = await fetch(ADMIN + "settings", {
      headers: { Authorization: "Bearer " + key },
      cache: "no-store",
      credentials: "omit",
      redirect: "error",
    });
    if (!res.ok) {
      const body = await res.json().catch(() => null);
      $("key-error").textContent = (body && body.message) || "petmock answered " + res.status;
      $("key-error").hidden = false;
      input.focus();
      return;
    }
    state.key = key;
    sessionStorage.setItem(KEY, key);
    unlocked();
    toast("Unlocked: the key stays in this tab.");
  }

  function unlocked() {
    $("lock").hidden = false;
    show(state.section);
    loadEverything();
    listen();
  }

  function lock(why) {
    state.key = "";
    sessionStorage.removeItem(KEY);
    if (state.stream) state.stream.abort();
    state.stream = null;
    $("lock").hidden = true;
    setLive("", "Locked");
    for (const id of ["cat-table", "log-list", "set-changes", "force-list"]) {
      const node = $(id);
      if (node.tBodies) node.tBodies[0].replaceChildren();
      else node.replaceChildren();
    }
    $("count-catalogue").textContent = "";
    $("count-journal").textContent = "";
    $("count-scenarios").textContent = "";
    if (why) {
      $("key-error").textContent = why;
      $("key-error").hidden = false;
    }
    show(state.section);
  }

  // ---- Live updates: Server-Sent Events read with fetch, so that the key
  // goes in a header rather than in the URL, as EventSource would need.

  function setLive(cls, text) {
    $("live").className = "live " + cls;
    $("live-text").textContent = text;
  }

  async function listen() {
    if (!state.key) return;
    if (state.stream) state.stream.abort();
    const ctrl = new AbortController();
    state.stream = ctrl;
    try {
      const res = await fetch(ADMIN + "events", {
        headers: { Authorization: "Bearer " + state.key, Accept: "text/event-stream" },
        cache: "no-store",
        credentials: "omit",
        redirect: "error",
        signal: ctrl.signal,
      });
      if (res.status === 401) {
        lock("petmock refused the key. Enter it again.");
        return;
      }
      if (!res.ok || !res.body) throw new Error("events: " + res.status);
      setLive("on", "Live");
      if (state.retry > 0) loadEverything(); // what changed while the stream was down
      state.retry = 0;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffered = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffered += value.replace(/\r\n?/g, "\n");
        let end;
        while ((end = buffered.indexOf("\n\n")) >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          let name = "";
          for (const line of block.split("\n")) {
            if (line.startsWith("event:")) name = line.slice(6).trim();
          }
          if (name) onEvent(name);
        }
      }
    } catch (err) {
      if (ctrl.signal.aborted) return;
    }
    if (state.stream !== ctrl || !state.key) return;
    state.retry++;
    setLive("retry", "Reconnecting…");
    setTimeout(() => {
      if (state.stream === ctrl && state.key) listen();
    }, Math.min(1000 * state.retry, 5000));
  }

  function onEvent(name) {
    switch (name) {
      case "journal":
        if (!state.log.paused) loadJournal();
        break;
      case "store":
        loadCatalogue();
        loadHealth();
        break;
      case "settings":
        loadSettings();
        loadContract();
        break;
      case "forced":
        loadForced();
        break;
    }
  }

  function loadEverything() {
    loadContract();
    loadHealth();
    if (!state.key) return;
    loadSettings();
    loadJournal();
    loadForced();
    if (state.cat.resource) loadCatalogue();
  }

  // ---- The contract and the operations: public.

  const loadContract = loader(async () => {
    const { data } = await request(ADMIN + "contract", { key: false });
    state.contract = data;
    state.offset = Date.parse(data.now) - Date.now();
    $("doc-title").textContent = data.title || "the mock";
    $("doc-version").textContent = data.version || "";
    document.title = "petmock · " + (data.title || "console");
    if (!state.cat.resource && data.resources.length > 0) {
      setupCatalogue(data.resources);
      if (state.key) loadCatalogue();
    }
    renderOperations();
    setupForceForm();
  });

  const loadHealth = loader(async () => {
    const { data } = await request(ADMIN + "health", { key: false });
    const parts = [];
    for (const [name, value] of Object.entries(data)) {
      if (name !== "status") parts.push(el("span", {}, value.toLocaleString("en") + " " + name));
    }
    $("health").replaceChildren(el("span", {}, "status: " + data.status), ...parts);
    if (state.cat.resource && state.key) {
      $("count-catalogue").textContent = (data[state.cat.resource] ?? "").toLocaleString("en");
    }
  });

  function renderOperations() {
    const c = state.contract;
    if (!c) return;
    const items = c.operations.map((op) => {
      const d = op.deprecated;
      const meta = [el("span", {}, op.summary || "")];
      meta.push(...(op.statuses || []).map((s) => el("span", { class: "status s" + String(s)[0] }, s)));
      const node = el("li", { class: "op" + (d ? " deprecated" : "") + (d && d.removed ? " removed" : ""), id: "op-" + op.id },
        el("span", { class: "method " + op.method }, op.method),
        el("div", {}, el("span", { class: "op-path" }, op.path), el("span", { class: "op-id" }, op.id)),
        el("div", { class: "op-meta" }, meta),
      );
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
    const deprecated = c.operations.filter((op) => op.deprecated).length;
    $("count-operations").textContent = deprecated ? deprecated + " deprecated" : String(c.operations.length);
    $("count-operations").classList.toggle("alert", deprecated > 0);
    const sunset = c.operations.map((op) => op.deprecated && op.deprecated.sunset).filter(Boolean)[0];
    $("set-now-sunset").hidden = !sunset;
    $("set-now-sunset").dataset.value = sunset ? new Date(Date.parse(sunset) + 86400000).toISOString().slice(0, 10) : "";
    tick();
  }

  // tick redraws what depends on the clock: the countdowns to a sunset,
  // which petmock's clock decides, and the clock itself.
  function tick() {
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

  // ---- The catalogue: pages of the admin API's catalogue endpoint,
  // followed through their Link header.

  function setupCatalogue(resources) {
    const select = $("cat-resource");
    select.replaceChildren(...resources.map((r) => el("option", { value: r.name }, r.name)));
    select.hidden = resources.length < 2;
    state.cat.resource = resources[0].name;
    renderFilters();
  }

  function currentResource() {
    return state.contract && state.contract.resources.find((r) => r.name === state.cat.resource);
  }

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

  const loadCatalogue = loader(async () => {
    if (!state.key || !state.cat.resource) return;
    const url = state.cat.url || catalogueURL();
    const { data, res } = await request(url);
    if (url !== (state.cat.url || catalogueURL())) return; // the user moved on meanwhile
    state.cat.next = nextLink(res.headers.get("Link"));
    renderCatalogue(data);
  });

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

  function firstPage() {
    state.cat.url = "";
    state.cat.stack = [];
    loadCatalogue();
  }

  // ---- The journal.

  const loadJournal = loader(async () => {
    if (!state.key) return;
    const { data } = await request(ADMIN + "requests?limit=100");
    state.log.entries = data.requests;
    renderJournal();
  });

  const entryKey = (x) => x.time + " " + x.method + " " + x.path + "?" + (x.query || "");

  function renderJournal() {
    const filter = state.log.filter.toLowerCase();
    const shown = state.log.entries.filter((x) => !filter ||
      (x.method + " " + x.path + (x.query ? "?" + x.query : "") + " " + x.status).toLowerCase().includes(filter));
    const items = shown.map((x) => {
      const key = entryKey(x);
      const open = state.log.open.has(key);
      const target = x.path + (x.query ? "?" + x.query : "");
      const row = el("button", { type: "button", class: "log-row", "aria-expanded": open ? "true" : "false",
        onclick: () => toggleEntry(key) },
        el("time", { dateTime: x.time }, timeOfDay(x.time)),
        el("span", { class: "method " + x.method }, x.method),
        el("span", { class: "path", title: target }, target),
        el("span", { class: "status s" + String(x.status)[0] }, x.status),
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

  function toggleEntry(key) {
    if (state.log.open.has(key)) state.log.open.delete(key);
    else state.log.open.add(key);
    const focused = document.activeElement && document.activeElement.closest("#log-list li");
    const index = focused ? [...$("log-list").children].indexOf(focused) : -1;
    renderJournal();
    if (index >= 0 && $("log-list").children[index]) $("log-list").children[index].querySelector(".log-row").focus();
  }

  function entryDetail(x) {
    const side = (title, m) => el("div", {},
      el("h3", {}, title),
      el("table", { class: "headers" }, el("tbody", {}, Object.entries(m.headers || {}).sort().map(([name, values]) =>
        el("tr", {}, el("td", {}, name), el("td", {}, values.join(", ")))))),
      m.body ? el("pre", { class: "body" }, pretty(m.body) + (m.truncated ? "\n… cut at 4 KiB" : "")) : el("p", { class: "muted small" }, "No body."));
    return el("div", { class: "log-detail" }, side("Request", x.request), side("Response " + x.status, x.response));
  }

  function pretty(body) {
    try {
      return JSON.stringify(JSON.parse(body), null, 2);
    } catch {
      return body;
    }
  }

  // ---- Settings.

  const loadSettings = loader(async () => {
    if (!state.key) return;
    const { data } = await request(ADMIN + "settings");
    state.settings = data;
    state.offset = Date.parse(data.now) - Date.now();
    fillSettings(false);
  });

  const settingInputs = { latency: "set-latency", failRate: "set-failrate", now: "set-now", journal: "set-journal" };

  function fillSettings(all) {
    const s = state.settings;
    if (!s) return;
    const values = { latency: s.latency, failRate: String(s.failRate), now: s.clock === "set" ? s.now : "", journal: String(s.journal) };
    for (const [name, id] of Object.entries(settingInputs)) {
      if (all || !state.dirty.has(name)) {
        $(id).value = values[name];
        state.dirty.delete(name);
      }
    }
    const changes = s.changes.map((c) => el("li", {},
      el("time", { dateTime: c.time }, timeOfDay(c.time)),
      el("strong", {}, c.setting), " ", c.from, " → ", c.to));
    $("set-changes").replaceChildren(...(changes.length ? changes : [el("li", { class: "muted" }, "No change since petmock started.")]));
    const chaos = [];
    if (s.latency !== "0s") chaos.push(s.latency);
    if (s.failRate > 0) chaos.push(Math.round(s.failRate * 100) + "% fail");
    if (s.clock === "set") chaos.push("clock set");
    $("count-settings").textContent = chaos.join(", ");
    $("count-settings").classList.toggle("alert", chaos.length > 0);
    renderJournal();
    tick();
  }

  async function applySettings(event) {
    event.preventDefault();
    const patch = {};
    for (const name of state.dirty) {
      const value = $(settingInputs[name]).value.trim();
      if (name === "latency") patch.latency = value || "0s";
      if (name === "failRate") patch.failRate = value === "" ? 0 : Number(value);
      if (name === "now") patch.now = value === "" ? null : value;
      if (name === "journal") patch.journal = value === "" ? null : Number(value);
    }
    $("set-error").hidden = true;
    document.querySelectorAll("#settings-form .card").forEach((c) => c.classList.remove("invalid"));
    if (Object.keys(patch).length === 0) {
      toast("Nothing to change.");
      return;
    }
    try {
      const { data } = await request(ADMIN + "settings", { method: "PATCH", body: patch });
      state.settings = data;
      state.offset = Date.parse(data.now) - Date.now();
      state.dirty.clear();
      fillSettings(true);
      toast("Settings applied.");
    } catch (err) {
      $("set-error").textContent = err.message;
      $("set-error").hidden = false;
      const id = settingInputs[err.field];
      if (id) {
        $(id).closest(".card").classList.add("invalid");
        $(id).focus();
      }
    }
  }

  // ---- Scenarios.

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

  function setupForceForm() {
    const c = state.contract;
    if (!c) return;
    const select = $("force-op");
    const chosen = select.value;
    select.replaceChildren(el("option", { value: "" }, "any operation"),
      ...c.operations.map((op) => el("option", { value: op.id }, op.id + " · " + op.method + " " + op.path)));
    select.value = chosen;
    setupForceCodes();
  }

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
    select.replaceChildren(...options);
    const first = sorted.find((code) => code >= 400);
    select.value = chosen && [...select.options].some((o) => o.value === chosen) ? chosen : String(first || 503);
  }

  const loadForced = loader(async () => {
    if (!state.key) return;
    const { data } = await request(ADMIN + "forced");
    state.forced = data.forced;
    $("force-list").replaceChildren(...state.forced.map((f) => el("li", { dataset: { code: f.code, operation: f.operation || "" } },
      el("span", { class: "status s" + String(f.code)[0] }, f.code),
      el("span", {}, (f.operation || "any operation") + ": the next " + (f.remaining === 1 ? "request" : f.remaining + " requests")))));
    $("force-clear").hidden = state.forced.length === 0;
    $("count-scenarios").textContent = state.forced.length ? state.forced.length + " forced" : "";
    $("count-scenarios").classList.toggle("alert", state.forced.length > 0);
  });

  async function force(event) {
    event.preventDefault();
    $("force-error").hidden = true;
    const body = { code: Number($("force-code").value), count: Number($("force-count").value || 1) };
    if ($("force-op").value) body.operation = $("force-op").value;
    try {
      await request(ADMIN + "forced", { method: "POST", body });
      toast("The next " + (body.count === 1 ? "request" : body.count + " requests") + " to " + (body.operation || "any operation") + " answer " + body.code + ".");
      loadForced();
    } catch (err) {
      $("force-error").textContent = err.message;
      $("force-error").hidden = false;
    }
  }

  // ---- Wiring.

  function wire() {
    for (const button of document.querySelectorAll(".nav-item")) {
      button.addEventListener("click", () => show(button.dataset.section));
    }
    $("key-form").addEventListener("submit", (e) => unlock(e).catch((err) => toast(err.message, true)));
    $("see-operations").addEventListener("click", () => show("operations"));
    $("lock").addEventListener("click", () => {
      lock("");
      toast("The key is forgotten.");
    });

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

    for (const [name, id] of Object.entries(settingInputs)) {
      $(id).addEventListener("input", () => state.dirty.add(name));
    }
    for (const chips of document.querySelectorAll(".chips[data-for]")) {
      chips.addEventListener("click", (e) => {
        const value = e.target.dataset && e.target.dataset.value;
        if (value === undefined) return;
        const input = $(chips.dataset.for);
        input.value = value;
        input.dispatchEvent(new Event("input"));
      });
    }
    $("set-now-real").addEventListener("click", () => {
      $("set-now").value = "";
      state.dirty.add("now");
    });
    $("set-now-sunset").addEventListener("click", (e) => {
      $("set-now").value = e.target.dataset.value;
      state.dirty.add("now");
    });
    $("settings-form").addEventListener("submit", applySettings);
    $("set-revert").addEventListener("click", () => {
      state.dirty.clear();
      fillSettings(true);
      $("set-error").hidden = true;
    });

    $("sc-empty").addEventListener("click", () => scenario("empty", "POST", undefined, "Every resource emptied"));
    $("sc-reset").addEventListener("click", () => scenario("reset", "POST", undefined, "Back to the seed"));
    $("sc-load").addEventListener("click", loadFixture);
    $("sc-file").addEventListener("change", async (e) => {
      const file = e.target.files[0];
      if (file) $("sc-fixture").value = await file.text();
    });
    $("force-op").addEventListener("change", setupForceCodes);
    $("force-form").addEventListener("submit", force);
    $("force-clear").addEventListener("click", async () => {
      try {
        await request(ADMIN + "forced", { method: "DELETE" });
        loadForced();
      } catch (err) {
        toast(err.message, true);
      }
    });

    // Keys: 1 to 5 pick a section, / searches, Escape leaves a field or
    // closes the journal's open entries.
    document.addEventListener("keydown", (e) => {
      const typing = e.target.closest && e.target.closest("input, textarea, select");
      if (e.key === "Escape") {
        if (typing) e.target.blur();
        else if (state.log.open.size) {
          state.log.open.clear();
          renderJournal();
        }
        return;
      }
      if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
      const n = Number(e.key);
      if (n >= 1 && n <= SECTIONS.length) {
        show(SECTIONS[n - 1]);
        e.preventDefault();
      } else if (e.key === "/") {
        const search = state.section === "journal" ? $("log-filter") : $("cat-search");
        if (state.section !== "journal") show("catalogue");
        if (!search.closest("[hidden]")) {
          search.focus();
          e.preventDefault();
        }
      }
    });
  }

  wire();
  setInterval(tick, 1000);
  if (state.key) {
    unlocked();
  } else {
    show(state.section);
    loadContract();
    loadHealth();
  }
})();
