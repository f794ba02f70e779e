// The versions of the document petmock takes up while it runs (petmock
// --watch): a banner while the last version could not be served, saying
// why, and a note of what each reload kept and left out. Both come with
// the contract, which needs no key.

import { $, toast } from "./petmock.js";

// seen is the number of reloads the page has shown; -1 before the first
// contract, whose reloads came before the page did.
let seen = -1;

// renderReloads shows the document's status, from GET
// /__petmock/contract's document member.
export function renderReloads(doc) {
  const banner = $("document-refused");
  if (doc && doc.refused) {
    $("document-refused-message").textContent = doc.refused.message;
    banner.hidden = false;
  } else {
    banner.hidden = true;
  }
  const reloads = doc ? doc.reloads : 0;
  if (seen >= 0 && reloads > seen && doc.last) toast(reloadText(doc.last));
  seen = reloads;
  $("document-reloaded").textContent = doc && doc.last ? reloadText(doc.last) : "";
  $("document-reloaded").hidden = !(doc && doc.last);
}

// reloadText says what a reload kept and left out, in a line.
export function reloadText(r) {
  const parts = ["Document reloaded at " + new Date(r.time).toLocaleTimeString()];
  const kept = Object.entries(r.kept).map(([name, n]) => n + " " + name);
  if (kept.length) parts.push("kept " + kept.join(", "));
  const held = Object.entries(r.heldBack).filter(([, n]) => n > 0).map(([name, n]) => n + " " + name);
  if (held.length) parts.push("holds back " + held.join(", ") + " that this version does not take, until one does");
  const back = Object.entries(r.servedAgain).filter(([, n]) => n > 0).map(([name, n]) => n + " " + name);
  if (back.length) parts.push("serves again " + back.join(", ") + " held back before");
  for (const line of r.filled) parts.push(line);
  if (r.addedOperations.length) parts.push("new: " + r.addedOperations.join(", "));
  if (r.removedOperations.length) parts.push("gone: " + r.removedOperations.join(", "));
  if (r.forcedDropped) parts.push(r.forcedDropped + " forced answer(s) dropped");
  if (r.expectationsDropped) parts.push(r.expectationsDropped + " expectation(s) dropped");
  return parts.join("; ") + ".";
}
