// Import and export from the Profiles section, and the backup in Settings
// (app/transfer.go). An import is previewed first: each profile the file
// holds, ticked, with what it would bring (new, already there, a conflict
// kept beside the current value) and the profile it goes into; only then
// is it imported. Labels of profiles and files are set as text only; no
// value reaches this module, only the names of the kinds of value.
import { transfer, type ImportItem, type ImportPreview, type TransferProgress } from "./bridge";
import { changeWords, doneWords, sentence } from "./format";
import { attachMeter } from "./meter";
import { errorText, type ProfileSummary } from "./wails";
import { el, make } from "./dom";

/** Shows a long operation's progress: a bar (indeterminate until the amount is known) and its phase. */
export class Progress {
  constructor(
    private readonly box: HTMLElement,
    private readonly bar: HTMLProgressElement,
    private readonly phase: HTMLElement,
    private readonly op: string[],
  ) {
    transfer.onProgress((p) => this.update(p));
  }

  start(words: string): void {
    this.box.hidden = false;
    this.bar.removeAttribute("value");
    this.phase.textContent = words;
  }

  update(p: TransferProgress): void {
    if (!this.op.includes(p.op) || this.box.hidden) return;
    this.phase.textContent = `${p.phase}…`;
    if (p.total > 0) {
      this.bar.max = p.total;
      this.bar.value = p.done;
    } else this.bar.removeAttribute("value");
  }

  stop(): void {
    this.box.hidden = true;
  }
}

function showError(box: HTMLElement, e: unknown, focus?: HTMLElement): void {
  box.textContent = sentence(errorText(e));
  box.hidden = false;
  focus?.focus();
}

/** The Import and Export panels of the Profiles section. */
export class TransferPanels {
  private preview: ImportPreview | null = null;
  private profiles: ProfileSummary[] = [];
  private readonly progress = new Progress(el("transfer-progress"), el<HTMLProgressElement>("transfer-bar"), el("transfer-phase"), ["import"]);
  private readonly rateExport: () => void;

  /** reload reads the profile list again after an import. */
  constructor(private readonly reload: () => Promise<void>) {
    el("import-open").addEventListener("click", () => this.openImport());
    el("export-open").addEventListener("click", () => void this.openExport());
    el("import-cancel").addEventListener("click", () => this.closeImport());
    el("import-back").addEventListener("click", () => this.back());
    el("export-cancel").addEventListener("click", () => this.closeExport());
    for (const [panel, close] of [
      ["import-panel", () => this.closeImport()],
      ["export-panel", () => this.closeExport()],
    ] as const) {
      el(panel).addEventListener("keydown", (ev) => {
        if (ev.key === "Escape") close();
      });
    }
    el("import-choose").addEventListener("click", async () => {
      try {
        const p = await transfer.chooseImport();
        if (p) el<HTMLInputElement>("import-path").value = p;
        el("import-path").focus();
      } catch (e) {
        showError(el("import-error"), e, el("import-path"));
      }
    });
    el("export-choose").addEventListener("click", async () => {
      try {
        const p = await transfer.chooseExport(el<HTMLInputElement>("export-path").value);
        if (p) el<HTMLInputElement>("export-path").value = p;
        el("export-path").focus();
      } catch (e) {
        showError(el("export-error"), e, el("export-path"));
      }
    });
    el("import-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      void this.runPreview();
    });
    el("import-apply").addEventListener("click", () => void this.apply());
    el("export-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      void this.runExport();
    });
    for (const r of ["export-mode-pass", "export-mode-age"]) el(r).addEventListener("change", () => this.exportMode());
    this.rateExport = attachMeter(el("export-pass"), el("export-strength"), el("export-strength-text"));
  }

  /** The vault locked, or the list changed: panels close when there is nothing to act on. */
  sync(unlocked: boolean, profiles: ProfileSummary[] | null): void {
    el("import-open").hidden = el("export-open").hidden = !unlocked;
    if (profiles) this.profiles = profiles;
    el("export-open").hidden = !unlocked || this.profiles.length === 0;
    if (!unlocked) {
      this.closeImport(false);
      this.closeExport(false);
    }
  }

  private openImport(): void {
    this.closeExport(false);
    el("import-panel").hidden = false;
    el("import-form").hidden = false;
    el("import-preview").hidden = true;
    el("import-done").textContent = "";
    el("import-error").hidden = true;
    el("import-path").focus();
  }

  private closeImport(focus = true): void {
    if (el("import-panel").hidden) return;
    el("import-panel").hidden = true;
    el<HTMLInputElement>("import-pass").value = "";
    this.preview = null;
    void transfer.cancel().catch(() => {});
    this.progress.stop();
    if (focus) el("import-open").focus();
  }

  private back(): void {
    this.preview = null;
    void transfer.cancel().catch(() => {});
    el("import-preview").hidden = true;
    el("import-form").hidden = false;
    el("import-path").focus();
  }

  private async runPreview(): Promise<void> {
    const form = el("import-form");
    if (form.getAttribute("aria-busy") === "true") return;
    form.setAttribute("aria-busy", "true");
    el("import-error").hidden = true;
    el("import-done").textContent = "";
    this.progress.start("Reading the file…");
    try {
      const pv = await transfer.preview(el<HTMLInputElement>("import-path").value, el<HTMLInputElement>("import-pass").value);
      el<HTMLInputElement>("import-pass").value = "";
      this.preview = pv;
      this.renderPreview(pv);
      form.hidden = true;
      el("import-preview").hidden = false;
      el("import-summary").focus();
    } catch (e) {
      showError(el("import-error"), e, el("import-path"));
    } finally {
      form.removeAttribute("aria-busy");
      this.progress.stop();
    }
  }

  private renderPreview(pv: ImportPreview): void {
    const items = pv.items ?? [];
    const n = items.length;
    const sum = el("import-summary");
    sum.tabIndex = -1;
    sum.textContent = `This ${pv.formatLabel} holds ${n === 1 ? "1 profile" : `${n} profiles`}. Tick the ones to import and where each goes; nothing is imported until you choose Import.`;
    el("import-items").replaceChildren(...items.map((it) => this.itemRow(it, pv.profiles ?? [])));
    this.countChosen();
  }

  private itemRow(it: ImportItem, profiles: ProfileSummary[]): HTMLLIElement {
    const li = make("li", "import-item");
    li.dataset.index = String(it.index);
    const id = `import-item-${it.index}`;
    const head = make("div", "import-head");
    const box = make("input");
    box.type = "checkbox";
    box.id = id;
    box.checked = true;
    box.className = "import-check";
    box.addEventListener("change", () => this.countChosen());
    const label = make("label", "import-label", it.label || "Unnamed profile");
    label.htmlFor = id;
    head.append(box, label);
    const into = make("select", "import-into");
    into.id = `${id}-into`;
    into.setAttribute("aria-label", `Import ${it.label || "this profile"} into`);
    into.append(new Option("a new profile", ""));
    for (const p of profiles) into.append(new Option(`“${p.label}”`, p.id, false, p.id === it.into));
    into.value = it.into;
    const intoBox = make("div", "import-into-box");
    const intoLabel = make("label", "hint", "Into");
    intoLabel.htmlFor = into.id;
    intoBox.append(intoLabel, into);
    const counts = make("p", "import-counts");
    const details = make("details", "import-entries");
    const fill = (x: ImportItem) => {
      counts.textContent = changeWords(x);
      counts.dataset.conflicts = String(x.conflicts);
      const ul = make("ul");
      for (const e of x.entries ?? []) {
        const row = make("li", `change-${e.change}`);
        row.append(make("span", "", e.label), make("span", `cf-badge ${e.change === "conflict" ? "warn" : e.change === "new" ? "ok" : "slate"}`, e.change === "same" ? "already there" : e.change));
        ul.append(row);
      }
      details.replaceChildren(make("summary", "", `What it holds (${(x.entries ?? []).length})`), ul);
    };
    fill(it);
    into.addEventListener("change", async () => {
      if (!this.preview) return;
      try {
        fill(await transfer.planInto(this.preview.token, it.index, into.value));
      } catch (e) {
        showError(el("import-apply-error"), e);
      }
    });
    li.append(head, intoBox, counts, details);
    return li;
  }

  private countChosen(): void {
    const n = document.querySelectorAll<HTMLInputElement>("#import-items .import-check:checked").length;
    const b = el<HTMLButtonElement>("import-apply");
    b.textContent = n === 1 ? "Import 1 profile" : `Import ${n} profiles`;
    b.disabled = n === 0;
  }

  private async apply(): Promise<void> {
    const pv = this.preview;
    if (!pv) return;
    const choices = [...document.querySelectorAll<HTMLLIElement>("#import-items .import-item")]
      .filter((li) => li.querySelector<HTMLInputElement>(".import-check")?.checked)
      .map((li) => ({ index: Number(li.dataset.index), into: li.querySelector<HTMLSelectElement>(".import-into")?.value ?? "" }));
    const b = el<HTMLButtonElement>("import-apply");
    b.disabled = true;
    el("import-apply-error").hidden = true;
    this.progress.start("Importing…");
    try {
      const done = await transfer.apply(pv.token, choices);
      this.preview = null;
      el("import-preview").hidden = true;
      el("import-form").hidden = false;
      el<HTMLInputElement>("import-path").value = "";
      el("import-done").textContent = doneWords(done);
      await this.reload();
      el("import-title").focus();
    } catch (e) {
      showError(el("import-apply-error"), e, b);
    } finally {
      b.disabled = false;
      this.progress.stop();
    }
  }

  private async openExport(): Promise<void> {
    this.closeImport(false);
    el("export-panel").hidden = false;
    el("export-done").textContent = "";
    el("export-error").hidden = true;
    el("export-list").replaceChildren(
      ...this.profiles.map((p) => {
        const l = make("label", "check");
        const c = make("input");
        c.type = "checkbox";
        c.value = p.id;
        c.checked = true;
        l.append(c, ` ${p.label}`);
        return l;
      }),
    );
    this.exportMode();
    const path = el<HTMLInputElement>("export-path");
    if (!path.value) path.value = await transfer.suggestPath(false).catch(() => "");
    el<HTMLInputElement>("export-list").querySelector("input")?.focus();
  }

  private closeExport(focus = true): void {
    if (el("export-panel").hidden) return;
    el("export-panel").hidden = true;
    el<HTMLInputElement>("export-pass").value = el<HTMLInputElement>("export-confirm").value = "";
    this.rateExport();
    if (focus) el("export-open").focus();
  }

  private exportMode(): void {
    const age = el<HTMLInputElement>("export-mode-age").checked;
    el("export-pass-fields").hidden = age;
    el("export-age-fields").hidden = !age;
  }

  private async runExport(): Promise<void> {
    const form = el("export-form");
    if (form.getAttribute("aria-busy") === "true") return;
    form.setAttribute("aria-busy", "true");
    const submit = el<HTMLButtonElement>("export-submit");
    submit.disabled = true;
    submit.textContent = "Encrypting…";
    el("export-error").hidden = true;
    const age = el<HTMLInputElement>("export-mode-age").checked;
    const ids = [...document.querySelectorAll<HTMLInputElement>("#export-list input:checked")].map((c) => c.value);
    try {
      if (ids.length === 0) throw new Error("export: tick at least one profile");
      const done = await transfer.exportTo({
        ids,
        passphrase: age ? "" : el<HTMLInputElement>("export-pass").value,
        confirm: age ? "" : el<HTMLInputElement>("export-confirm").value,
        recipients: age ? el<HTMLTextAreaElement>("export-recipients").value.split("\n") : [],
        path: el<HTMLInputElement>("export-path").value,
        overwrite: false,
        backup: false,
      });
      el<HTMLInputElement>("export-pass").value = el<HTMLInputElement>("export-confirm").value = "";
      this.rateExport();
      el("export-done").textContent = `Exported ${done.profiles === 1 ? "1 profile" : `${done.profiles} profiles`} to ${done.path}.`;
      el("export-title").focus();
    } catch (e) {
      showError(el("export-error"), e, age ? el("export-recipients") : el("export-pass"));
    } finally {
      form.removeAttribute("aria-busy");
      submit.disabled = false;
      submit.textContent = "Export";
    }
  }
}
