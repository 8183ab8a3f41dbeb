// The body of the pairing dialog (Confirmation kind "pair", app/pairing.go):
// the code the extension's popup shows too, the verified browser's
// executable and the key's fingerprint. Approve only when the codes match.
import type { Confirmation } from "./wails";

/** pairBody renders what the person compares before pairing. */
export function pairBody(c: Confirmation): HTMLElement {
  const body = document.createElement("div");
  body.className = "cf-body";
  const p = c.pair;
  const note = document.createElement("p");
  note.className = "cf-note";
  note.textContent = "Open the Tessera extension's popup in that browser. Approve only if it shows this same code; decline if you did not ask for this.";
  const code = document.createElement("p");
  code.id = "cf-pair-code";
  code.className = "cf-site mono";
  code.textContent = p?.code ?? "";
  const facts = document.createElement("dl");
  facts.className = "cf-origins";
  const add = (k: string, v: string): void => {
    const dt = document.createElement("dt");
    dt.textContent = k;
    const dd = document.createElement("dd");
    dd.className = "mono";
    dd.textContent = v;
    facts.append(dt, dd);
  };
  if (p?.exe) add("Browser", p.exe);
  if (p?.fingerprint) add("Key", p.fingerprint);
  body.append(note, code, facts);
  return body;
}
