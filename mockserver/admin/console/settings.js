// The settings panel: the latency, the fail rate, the clock, the size of
// the journal, whether it shows secrets and the faults below HTTP, changed
// at once, and the last changes.

import { $, ADMIN, el, loader, request, state, timeOfDay, toast } from "./petmock.js";
import { renderJournal } from "./journal.js";
import { tick } from "./operations.js";

// loadSettings shows the settings, and keeps what the user is editing.
export const loadSettings = loader(async () => {
  if (!state.key) return;
  const { data } = await request(ADMIN + "settings");
  state.settings = data;
  state.offset = Date.parse(data.now) - Date.now();
  fillSettings(false);
});

// settingInputs are the fields of the settings, by name.
const settingInputs = {
  latency: "set-latency", failRate: "set-failrate", now: "set-now", journal: "set-journal", journalSecrets: "set-secrets",
  fault: "set-fault", faultRate: "set-faultrate", slowBytesPerSecond: "set-slowrate",
};

// fillSettings shows the settings in their fields, all of them or those
// the user is not editing, and the last changes.
function fillSettings(all) {
  const s = state.settings;
  if (!s) return;
  const values = {
    latency: s.latency, failRate: String(s.failRate), now: s.clock === "set" ? s.now : "", journal: String(s.journal), journalSecrets: s.journalSecrets,
    fault: s.fault || "", faultRate: String(s.faultRate), slowBytesPerSecond: String(s.slowBytesPerSecond),
  };
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
  if (s.fault && s.faultRate > 0) chaos.push(Math.round(s.faultRate * 100) + "% " + s.fault);
  if (s.clock === "set") chaos.push("clock set");
  $("count-settings").textContent = chaos.join(", ");
  $("count-settings").classList.toggle("alert", chaos.length > 0);
  renderJournal();
  tick();
}

// applySettings sends the fields the user changed, and names the one
// petmock refused.
async function applySettings(event) {
  event.preventDefault();
  const patch = {};
  for (const name of state.dirty) {
    const value = $(settingInputs[name]).value.trim();
    if (name === "latency") patch.latency = value || "0s";
    if (name === "failRate") patch.failRate = value === "" ? 0 : Number(value);
    if (name === "now") patch.now = value === "" ? null : value;
    if (name === "journal") patch.journal = value === "" ? null : Number(value);
    if (name === "journalSecrets") patch.journalSecrets = value;
    if (name === "fault") patch.fault = value === "" ? null : value;
    if (name === "faultRate") patch.faultRate = value === "" ? 0 : Number(value);
    if (name === "slowBytesPerSecond") patch.slowBytesPerSecond = value === "" ? null : Number(value);
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

// clearSettings forgets what the settings showed, once the key is.
export function clearSettings() {
  $("set-changes").replaceChildren();
}

// wireSettings makes the settings' fields and buttons work.
export function wireSettings() {
  for (const [name, id] of Object.entries(settingInputs)) {
    $(id).addEventListener("input", () => state.dirty.add(name));
    $(id).addEventListener("change", () => state.dirty.add(name));
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
}
