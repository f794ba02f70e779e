// The console's plumbing, which every panel shares: the page's state, its
// requests to petmock's admin API, the key they carry, the stream of
// events that says what changed, and small helpers of the page.
//
// Everything the page shows comes from petmock's admin API on this origin.
// The key is asked for once and kept in this tab's sessionStorage; it goes
// in a header of requests to this origin only, as the document petmock
// serves asks for it (keyHeader), never in a URL, and never into the page.
// Without it, the page shows what needs no key: the operations and the
// health of the mock.

// KEY is where the tab keeps the key.
export const KEY = "petmock.key";

// ADMIN is where petmock's admin API lives.
export const ADMIN = "/__petmock/";

// state is the state of the page; each panel keeps its own part.
export const state = {
  key: sessionStorage.getItem(KEY) || "",
  section: "catalogue",
  contract: null,
  health: null,
  offset: 0, // petmock's clock minus the browser's, in ms
  settings: null,
  dirty: new Set(), // settings fields the user is editing
  cat: { resource: "", filters: {}, q: "", order: "desc", limit: 20, url: "", stack: [], next: "" },
  log: { paused: false, open: new Set(), entries: [], filter: "" },
  viol: { open: new Set(), entries: [], backend: "" },
  forced: [],
  expectations: [],
  states: [],
  verification: null,
  stream: null,
  retry: 0,
};

// hooks are what the console does when the plumbing says so: console.js
// sets them.
export const hooks = {
  // refused is told why petmock refused the key: the console locks.
  refused: (why) => {},
  // event is told the name of each event of the stream.
  event: (name) => {},
  // reconnected is told that the stream is back, after changes it missed.
  reconnected: () => {},
};

// ---- Small helpers of the page.

// $ returns the element of an id.
export const $ = (id) => document.getElementById(id);

// el builds an element; children are nodes or text, never HTML.
export function el(tag, props, ...children) {
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

// toast shows a message for a while, a bad one longer.
export function toast(message, bad) {
  const t = el("div", { class: bad ? "toast bad" : "toast" }, message);
  $("toasts").append(t);
  setTimeout(() => t.remove(), bad ? 6000 : 3000);
}

// ApiError is an Error body petmock answered with.
export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || "petmock answered " + status);
    this.status = status;
    this.field = this.message.includes(":") ? this.message.slice(0, this.message.indexOf(":")) : "";
  }
}

// keyHeader returns the header that carries key, as [name, value]: as
// the document petmock serves asks for it, which the contract says, such
// as X-API-Key or HTTP basic credentials; a bearer token until the
// contract is read, which the admin API always takes.
export function keyHeader(key) {
  const form = (state.contract && state.contract.key) || { header: "Authorization", scheme: "Bearer" };
  if (form.scheme === "Basic") {
    const bytes = new TextEncoder().encode(":" + key);
    return [form.header, "Basic " + btoa(String.fromCharCode(...bytes))];
  }
  return [form.header, form.scheme ? form.scheme + " " + key : key];
}

// request sends a request to petmock's admin API, on this origin, with
// the key when there is one. A 401 locks the console.
export async function request(path, opts = {}) {
  if (!path.startsWith(ADMIN)) throw new Error("not an admin path: " + path);
  const headers = new Headers();
  if (opts.key !== false && state.key) headers.set(...keyHeader(state.key));
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
    hooks.refused("petmock refused the key (" + ((data && data.message) || "401") + "). Enter it again.");
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return { data, res };
}

// loader makes fn run one at a time: a call while it runs makes it run
// once more after, so that a burst of events costs two loads, not many.
export function loader(fn) {
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

export function clockText(ms) {
  const d = new Date(ms);
  return d.getUTCFullYear() + "-" + pad(d.getUTCMonth() + 1) + "-" + pad(d.getUTCDate()) + " " +
    pad(d.getUTCHours()) + ":" + pad(d.getUTCMinutes()) + ":" + pad(d.getUTCSeconds()) + " UTC";
}

export function timeOfDay(iso) {
  const d = new Date(iso);
  return pad(d.getHours()) + ":" + pad(d.getMinutes()) + ":" + pad(d.getSeconds()) + "." + pad(d.getMilliseconds(), 3);
}

// petmockNow is the time petmock acts at, as far as the last answer said.
export const petmockNow = () => Date.now() + state.offset;

export function span(ms) {
  const neg = ms < 0;
  let s = Math.floor(Math.abs(ms) / 1000);
  const days = Math.floor(s / 86400);
  s -= days * 86400;
  const text = (days ? days.toLocaleString("en") + " d " : "") +
    pad(Math.floor(s / 3600)) + ":" + pad(Math.floor((s % 3600) / 60)) + ":" + pad(s % 60);
  return neg ? "-" + text : text;
}

// ---- Live updates: Server-Sent Events read with fetch, so that the key
// goes in a header rather than in the URL, as EventSource would need.

// setLive shows the state of the stream.
export function setLive(cls, text) {
  $("live").className = "live " + cls;
  $("live-text").textContent = text;
}

// listen reads the stream of events, and reconnects when it breaks, until
// the key is forgotten.
export async function listen() {
  if (!state.key) return;
  if (state.stream) state.stream.abort();
  const ctrl = new AbortController();
  state.stream = ctrl;
  try {
    const res = await fetch(ADMIN + "events", {
      headers: [keyHeader(state.key), ["Accept", "text/event-stream"]],
      cache: "no-store",
      credentials: "omit",
      redirect: "error",
      signal: ctrl.signal,
    });
    if (res.status === 401) {
      hooks.refused("petmock refused the key. Enter it again.");
      return;
    }
    if (!res.ok || !res.body) throw new Error("events: " + res.status);
    setLive("on", "Live");
    if (state.retry > 0) hooks.reconnected(); // what changed while the stream was down
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
        if (name) hooks.event(name);
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

// stopListening ends the stream.
export function stopListening() {
  if (state.stream) state.stream.abort();
  state.stream = null;
}
