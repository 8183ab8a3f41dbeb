// The Change passphrase card of Settings (ui.UI.ChangePassphrase): the
// current passphrase, a new one rated by the same meter and rule as at
// first run, typed twice. Go re-seals every record under a new key and
// reports its progress (op "passwd"): the check of the current passphrase,
// the records re-sealed so far of all, then the save.
import { sentence } from "./format";
import { attachMeter } from "./meter";
import { Progress } from "./transfer";
import { errorText, uiBinding, vault, type VaultState, type VaultView } from "./wails";
import { el } from "./dom";

const ui = () => uiBinding<{ ChangePassphrase(current: string, passphrase: string, confirm: string): Promise<VaultView> }>();

const fields = ["passwd-current", "passwd-new", "passwd-confirm"];

export class PasswdCard {
  private readonly progress = new Progress(el("passwd-progress"), el<HTMLProgressElement>("passwd-bar"), el("passwd-phase"), ["passwd"]);
  private readonly rate: () => void;
  private state: VaultState | null = null;

  constructor() {
    this.rate = attachMeter(el("passwd-new"), el("passwd-strength"), el("passwd-strength-text"));
    el("passwd-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      void this.run();
    });
    // A passphrase set on the Status screen leaves the state unlocked:
    // look again whenever Settings is opened.
    document.querySelector('.nav-item[data-view="settings"]')?.addEventListener("click", () => {
      if (this.state === "unlocked") this.check();
    });
  }

  /** Follows the vault state: changing the passphrase needs the vault unlocked, and one to change. */
  sync(state: VaultState): void {
    if (state === this.state) return;
    this.state = state;
    const unlocked = state === "unlocked";
    el("passwd-locked").hidden = unlocked;
    el("passwd-none").hidden = true;
    el("passwd-form").hidden = !unlocked;
    if (!unlocked) {
      this.clear();
      return;
    }
    this.check();
  }

  /** Shows the form when the vault has a passphrase to change, else says how to set one. */
  private check(): void {
    vault
      .view()
      .then((v) => {
        if (this.state !== "unlocked") return;
        el("passwd-none").hidden = v.hasPassphrase;
        el("passwd-form").hidden = !v.hasPassphrase;
      })
      .catch(() => {});
  }

  private clear(): void {
    for (const f of fields) el<HTMLInputElement>(f).value = "";
    this.rate();
  }

  private async run(): Promise<void> {
    const form = el("passwd-form");
    if (form.getAttribute("aria-busy") === "true") return;
    form.setAttribute("aria-busy", "true");
    const submit = el<HTMLButtonElement>("passwd-submit");
    submit.disabled = true;
    const box = el("passwd-error");
    box.hidden = true;
    for (const f of fields) el(f).removeAttribute("aria-invalid");
    el("passwd-done").textContent = "";
    this.progress.start("Checking your current passphrase…");
    try {
      await ui().ChangePassphrase(el<HTMLInputElement>("passwd-current").value, el<HTMLInputElement>("passwd-new").value, el<HTMLInputElement>("passwd-confirm").value);
      this.clear();
      el("passwd-done").textContent = "Passphrase changed. Every record is sealed under a new key; unlock with the new passphrase from now on.";
      el("passwd-title").focus();
    } catch (e) {
      const msg = errorText(e);
      box.textContent = sentence(msg);
      box.hidden = false;
      // The field to fix gets the focus.
      const target = /current passphrase|unlock Tessera with/i.test(msg) ? "passwd-current" : /match/i.test(msg) ? "passwd-confirm" : "passwd-new";
      el(target).setAttribute("aria-invalid", "true");
      el(target).setAttribute("aria-errormessage", box.id);
      el(target).focus();
    } finally {
      form.removeAttribute("aria-busy");
      submit.disabled = false;
      this.progress.stop();
    }
  }
}
