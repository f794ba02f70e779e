// petmock console. Plain JavaScript modules, no build step, nothing from
// elsewhere: this one wires the panels together, one module each
// (catalogue.js, journal.js, settings.js, scenarios.js, operations.js,
// violations.js, expectations.js, verification.js), and the document's
// reloads (reloads.js),
// on the plumbing they share (petmock.js).

import { $, ADMIN, KEY, hooks, keyHeader, listen, loader, request, setLive, state, stopListening, toast } from "./petmock.js";
import { clearCatalogue, loadCatalogue, setupCatalogue, wireCatalogue } from "./catalogue.js";
import { clearJournal, closeEntries, loadJournal, wireJournal } from "./journal.js";
import { clearSettings, loadSettings, wireSettings } from "./settings.js";
import { clearScenarios, loadForced, setupForceForm, wireScenarios } from "./scenarios.js";
import { loadHealth, renderHealth, renderOperations, tick } from "./operations.js";
import { clearViolations, loadViolations, wireViolations } from "./violations.js";
import { clearExpectations, loadExpectations, wireExpectations } from "./expectations.js";
import { clearVerification, loadVerification, wireVerification } from "./verification.js";
import { renderReloads } from "./reloads.js";

// SECTIONS are the panels, in the order of the keys 1 to 8.
const SECTIONS = ["catalogue", "journal", "settings", "scenarios", "operations", "violations", "expectations", "verification"];

// ---- Sections and the key.

// show shows a section, or asks for the key when it needs one.
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
    // The section's name is the subject: "the journal comes", "the
    // violations come".
    const verb = section.endsWith("s") ? " come" : " comes";
    $("unlock-why").textContent = "The " + section + verb + " from petmock's admin API, which takes the same keys as the API.";
    $("key-input").focus();
  }
}

// unlock tries the key typed in, and keeps it in the tab if petmock takes
// it.
async function unlock(event) {
  event.preventDefault();
  const input = $("key-input");
  const key = input.value.trim();
  input.value = "";
  if (!key) return;
  $("key-error").hidden = true;
  const res = await fetch(ADMIN + "settings", {
    headers: [keyHeader(key)],
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

// unlocked shows what the key opens, and listens for what changes.
function unlocked() {
  $("lock").hidden = false;
  show(state.section);
  loadEverything();
  listen();
}

// lock forgets the key, and what it showed, saying why.
function lock(why) {
  state.key = "";
  sessionStorage.removeItem(KEY);
  stopListening();
  $("lock").hidden = true;
  setLive("", "Locked");
  clearCatalogue();
  clearJournal();
  clearSettings();
  clearScenarios();
  clearViolations();
  clearExpectations();
  clearVerification();
  if (why) {
    $("key-error").textContent = why;
    $("key-error").hidden = false;
  }
  show(state.section);
}

// ---- What changed.

// onEvent loads again what an event of the stream says changed.
function onEvent(name) {
  switch (name) {
    case "journal":
      if (!state.log.paused) loadJournal();
      loadVerification();
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
    case "violations":
      loadViolations();
      break;
    case "expectations":
      loadExpectations();
      loadVerification();
      break;
    case "document":
      // A new version of the document: its operations and resources, and
      // what the reload kept and dropped of every panel.
      loadContract();
      loadHealth();
      if (!state.key) break;
      loadForced();
      loadExpectations();
      loadVerification();
      if (state.cat.resource) loadCatalogue();
      break;
  }
}

// loadEverything loads every panel: what needs no key, and with one the
// rest.
function loadEverything() {
  loadContract();
  loadHealth();
  if (!state.key) return;
  loadSettings();
  loadJournal();
  loadForced();
  loadViolations();
  loadExpectations();
  loadVerification();
  if (state.cat.resource) loadCatalogue();
}

// loadContract reads the document's operations and resources, which the
// operations, the catalogue and the force form show.
const loadContract = loader(async () => {
  const { data } = await request(ADMIN + "contract", { key: false });
  state.contract = data;
  state.offset = Date.parse(data.now) - Date.now();
  $("doc-title").textContent = data.title || "the mock";
  $("doc-version").textContent = data.version || "";
  document.title = "petmock · " + (data.title || "console");
  $("published-key").hidden = !data.publishedKey;
  renderReloads(data.document);
  const shown = data.resources.some((r) => r.name === state.cat.resource);
  if (data.resources.length > 0 && (!shown || $("cat-resource").options.length !== data.resources.length)) {
    // The first contract, or a reloaded document with other resources.
    const resource = state.cat.resource;
    setupCatalogue(data.resources);
    if (shown) {
      state.cat.resource = resource;
      $("cat-resource").value = resource;
    }
    if (state.key) loadCatalogue();
  }
  renderOperations();
  renderHealth();
  setupForceForm();
});

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
  wireCatalogue();
  wireJournal();
  wireSettings();
  wireScenarios();
  wireViolations();
  wireExpectations();
  wireVerification();

  // Keys: 1 to 8 pick a section, / searches, Escape leaves a field or
  // closes the journal's open entries.
  document.addEventListener("keydown", (e) => {
    const typing = e.target.closest && e.target.closest("input, textarea, select");
    if (e.key === "Escape") {
      if (typing) e.target.blur();
      else closeEntries();
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

hooks.refused = lock;
hooks.event = onEvent;
hooks.reconnected = loadEverything;
wire();
setInterval(tick, 1000);
if (state.key) {
  unlocked();
} else {
  show(state.section);
  loadContract();
  loadHealth();
}
