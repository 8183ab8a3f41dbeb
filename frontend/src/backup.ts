// The Backup card of Settings: every profile to one encrypted file with a
// passphrase of its own (ui.UI.ExportProfiles with backup set), showing
// progress while Go encrypts and writes.
import { transfer } from "./bridge";
import { sentence } from "./format";
import { attachMeter } from "./meter";
import { Progress } from "./transfer";
import { errorText, type VaultState } from "./wails";
import { el } from "./dom";

export class BackupCard {
  private readonly progress = new Progress(el("backup-progress"), el<HTMLProgressElement>("backup-bar"), el("backup-phase"), ["backup"]);
  private readonly rate: () => void;
  private state: VaultState | null = null;

  constructor() {
    this.rate = attachMeter(el("backup-pass"), el("backup-strength"), el("backup-strength-text"));
    el("backup-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      void this.run();
    });
    el("backup-choose").addEventListener("click", async () => {
      try {
        const p = await transfer.chooseExport(el<HTMLInputElement>("backup-path").value);
        if (p) el<HTMLInputElement>("backup-path").value = p;
        el("backup-path").focus();
      } catch (e) {
        this.fail(e, el("backup-path"));
      }
    });
  }

  /** Follows the vault state: a backup needs the vault unlocked. */
  sync(state: VaultState): void {
    if (state === this.state) return;
    this.state = state;
    const unlocked = state === "unlocked";
    el("backup-form").hidden = !unlocked;
    el("backup-locked").hidden = unlocked;
    if (!unlocked) {
      el<HTMLInputElement>("backup-pass").value = el<HTMLInputElement>("backup-confirm").value = "";
      this.rate();
    } else if (!el<HTMLInputElement>("backup-path").value) {
      transfer
        .suggestPath(true)
        .then((p) => {
          if (!el<HTMLInputElement>("backup-path").value) el<HTMLInputElement>("backup-path").value = p;
        })
        .catch(() => {});
    }
  }

  private fail(e: unknown, focus: HTMLElement): void {
    const box = el("backup-error");
    box.textContent = sentence(errorText(e));
    box.hidden = false;
    focus.focus();
  }

  private async run(): Promise<void> {
    const form = el("backup-form");
    if (form.getAttribute("aria-busy") === "true") return;
    form.setAttribute("aria-busy", "true");
    const submit = el<HTMLButtonElement>("backup-submit");
    submit.disabled = true;
    el("backup-error").hidden = true;
    el("backup-done").textContent = "";
    this.progress.start("Starting the backup…");
    try {
      const done = await transfer.exportTo({
        ids: [],
        passphrase: el<HTMLInputElement>("backup-pass").value,
        confirm: el<HTMLInputElement>("backup-confirm").value,
        recipients: [],
        path: el<HTMLInputElement>("backup-path").value,
        overwrite: false,
        backup: true,
      });
      el<HTMLInputElement>("backup-pass").value = el<HTMLInputElement>("backup-confirm").value = "";
      this.rate();
      el("backup-done").textContent = `Backed up ${done.profiles === 1 ? "1 profile" : `${done.profiles} profiles`} to ${done.path} (${Math.max(1, Math.round(done.bytes / 1024))} KB).`;
      el("backup-title").focus();
    } catch (e) {
      this.fail(e, el("backup-pass"));
    } finally {
      form.removeAttribute("aria-busy");
      submit.disabled = false;
      this.progress.stop();
    }
  }
}
