// The Profiles section's rows (open, rename, duplicate, delete) and the
// profile editor: a profile's values grouped by concept, each editable in
// the input its kind wants (a date picker for dates, a phone number shown
// as its country writes it), other values beside the preferred one, where
// each came from and when it was last used, and the values kept under a
// form field path. Go checks and normalises every value
// (app/profilesui.go); a rejection is shown beside the value. Values live
// in this window's DOM only while the editor shows them, as input values
// and text, never as markup; they are never logged.
import { ago, details, sentence } from "./format";
import { languageIRI, nameOf, regionIRI, regionList, toCode } from "./pickers";
import {
  editor,
  errorText,
  type Catalog,
  type ConceptInfo,
  type ConceptValues,
  type ProfileHit,
  type ProfileSummary,
  type ProfileView,
  type ValueKind,
  type ValueView,
} from "./wails";
import { el, make } from "./dom";

function button(text: string, cls: string, key: string, label?: string): HTMLButtonElement {
  const b = make("button", cls, text);
  b.type = "button";
  b.dataset.key = key;
  if (label) b.setAttribute("aria-label", label);
  return b;
}

const countries = (() => {
  try {
    return new Intl.DisplayNames(undefined, { type: "region" });
  } catch {
    return null;
  }
})();
const day = new Intl.DateTimeFormat(undefined, { dateStyle: "long", timeZone: "UTC" });

/** The value as the person reads it: a country's name, a date in words, a phone number as its country writes it. */
function shown(kind: ValueKind, v: ValueView): string {
  if (v.display) return v.display;
  if (kind === "country" && /^[A-Z]{2}$/.test(v.value)) {
    const name = nameOf("country", v.value) ?? countries?.of(v.value);
    if (name && name !== v.value) return `${name} (${v.value})`;
  }
  if (kind === "date" && /^\d{4}-\d{2}-\d{2}$/.test(v.value)) {
    const t = Date.parse(v.value + "T00:00:00Z");
    if (!Number.isNaN(t)) return day.format(t);
  }
  return v.value;
}

/** A country or language name picked from the suggestions, as the code the vault keeps. */
function coded(kind: ValueKind, iri: string, typed: string): string {
  if (kind === "country") return toCode("country", typed);
  if (iri === languageIRI) return toCode("language", typed);
  return typed;
}

const inputTypes: Record<ValueKind, string> = { text: "text", multiline: "", date: "date", tel: "tel", email: "email", url: "url", country: "text" };

/** An input for a value of kind, labelled by label. */
function valueInput(kind: ValueKind, id: string, value: string, label: string): HTMLInputElement | HTMLTextAreaElement {
  if (kind === "multiline") {
    const t = make("textarea");
    t.id = id;
    t.rows = Math.max(2, value.split("\n").length);
    t.value = value;
    t.setAttribute("aria-label", label);
    return t;
  }
  const i = make("input");
  i.type = inputTypes[kind];
  i.id = id;
  i.value = value;
  i.autocomplete = "off";
  i.spellcheck = false;
  i.setAttribute("aria-label", label);
  if (kind === "country") {
    i.placeholder = "GB";
    i.classList.add("short");
    i.setAttribute("list", "country-list");
  }
  return i;
}

/** The profile list's rows and the profile editor. */
export class ProfilesView {
  private catalog: Catalog | null = null;
  private current: ProfileView | null = null;
  private pendingDelete: ProfileSummary | null = null;
  private seq = 0;

  private readonly search = el<HTMLInputElement>("profile-search");
  private typing = 0;
  private searchGen = 0;

  /** reload reads the profile list again; it calls list. */
  constructor(private readonly reload: () => Promise<void>) {
    this.search.addEventListener("input", () => {
      clearTimeout(this.typing);
      this.typing = window.setTimeout(() => void this.runSearch(), 150);
    });
    this.search.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape" && this.search.value !== "") {
        ev.preventDefault();
        this.search.value = "";
        void this.runSearch();
      }
    });
    const ask = el<HTMLDialogElement>("ask-delete");
    el("ask-delete-cancel").addEventListener("click", () => ask.close("cancel"));
    el("ask-delete-ok").addEventListener("click", () => ask.close("delete"));
    ask.addEventListener("close", () => void this.afterAsk(ask.returnValue));
  }

  /** Lays out the profile list; fresh is a profile just created. A search being typed keeps its results. */
  list(ps: ProfileSummary[], fresh: string): void {
    el("profile-search-box").hidden = ps.length === 0 || this.current !== null;
    if (this.current && !ps.some((p) => p.id === this.current?.id)) this.close();
    if (this.search.value.trim() !== "") {
      void this.runSearch();
      return;
    }
    const now = Date.now();
    el("profiles").replaceChildren(...ps.map((p) => this.row(p, now, p.id === fresh)));
    el("profile-search-count").textContent = "";
  }

  /** The vault locked: the editor closes and forgets what it showed, the search too. */
  locked(): void {
    this.close(false);
    this.search.value = "";
    el("profile-search-box").hidden = true;
    el("profile-search-count").textContent = "";
  }

  /** Shows the profiles that match the search, with what matched; an empty search shows them all. */
  private async runSearch(): Promise<void> {
    const gen = ++this.searchGen;
    const q = this.search.value.trim();
    if (q === "") {
      await this.reload();
      return;
    }
    try {
      const hits = await editor.search(q);
      if (gen !== this.searchGen) return;
      const now = Date.now();
      el("profiles").replaceChildren(...hits.map((h) => this.hitRow(h, now)));
      el("profile-search-count").textContent =
        hits.length === 0 ? "No profile holds that." : hits.length === 1 ? "1 profile matches." : `${hits.length} profiles match.`;
      el("profiles-empty").hidden = true;
    } catch (e) {
      this.fail(e);
    }
  }

  private hitRow(h: ProfileHit, now: number): HTMLLIElement {
    const li = this.row(h, now, false);
    const matches = h.matches ?? [];
    if (matches.length > 0) {
      const ul = make("ul", "hit-matches");
      ul.setAttribute("aria-label", `What matched in ${h.label}`);
      for (const m of matches) ul.append(make("li", "", m));
      li.querySelector(".grow")?.append(ul);
    }
    return li;
  }

  private row(p: ProfileSummary, now: number, fresh: boolean): HTMLLIElement {
    const li = make("li", fresh ? "profile fresh" : "profile");
    li.dataset.profileId = p.id;
    const badge = make("span", "initial", (Array.from(p.label.trim())[0] ?? "?").toUpperCase());
    badge.setAttribute("aria-hidden", "true");
    const text = make("div", "grow");
    const name = button("", "profile-open", `open:${p.id}`);
    name.append(make("strong", "", p.label));
    name.setAttribute("aria-label", `Open ${p.label}`);
    name.addEventListener("click", () => void this.open(p.id));
    const meta = make("span", "muted meta");
    const when = make("time", "", `updated ${ago(p.updated, now)}`);
    when.dateTime = p.updated;
    meta.append(details(p.entries), " · ", when);
    text.append(name, meta);
    const actions = make("div", "profile-actions");
    const rename = button("Rename", "button small", `rename:${p.id}`, `Rename ${p.label}`);
    rename.addEventListener("click", () => this.startRename(p, [text, actions], actions, rename));
    const dup = button("Duplicate", "button small", `dup:${p.id}`, `Duplicate ${p.label}`);
    dup.addEventListener("click", () => void this.duplicate(p));
    const del = button("Delete", "button small danger", `del:${p.id}`, `Delete ${p.label}`);
    del.addEventListener("click", () => this.askDelete(p));
    actions.append(rename, dup, del);
    li.append(badge, text, actions);
    return li;
  }

  /**
   * Shows a rename form for p in place of the elements hide, before
   * before; Escape or Cancel puts them back and focuses back.
   */
  private startRename(p: ProfileSummary, hide: HTMLElement[], before: HTMLElement, back: HTMLElement): void {
    const form = make("form", "rename-form");
    form.noValidate = true;
    const id = `rename-${p.id}`;
    const label = make("label", "sr-only", `New name for ${p.label}`);
    label.htmlFor = id;
    const input = make("input");
    input.type = "text";
    input.id = id;
    input.value = p.label;
    input.maxLength = 200;
    input.autocomplete = "off";
    const save = make("button", "button small primary", "Save");
    save.type = "submit";
    const cancel = button("Cancel", "button small", `cancel-rename:${p.id}`);
    const err = make("p", "field-error");
    err.id = `${id}-error`;
    err.setAttribute("role", "alert");
    err.hidden = true;
    const row = make("div", "actions");
    row.append(input, save, cancel);
    form.append(label, row, err);
    for (const h of hide) h.hidden = true;
    before.before(form);
    const restore = () => {
      form.remove();
      for (const h of hide) h.hidden = false;
      back.focus();
    };
    cancel.addEventListener("click", restore);
    form.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape") {
        ev.preventDefault();
        restore();
      }
    });
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      try {
        await editor.rename(p.id, input.value);
        await this.reload();
        if (this.current?.id === p.id) await this.open(p.id, `rename:${p.id}`);
        else this.focus(`open:${p.id}`);
      } catch (e) {
        err.textContent = sentence(errorText(e));
        err.hidden = false;
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-errormessage", err.id);
        input.focus();
      }
    });
    input.focus();
    input.select();
  }

  private async duplicate(p: ProfileSummary): Promise<void> {
    try {
      const copy = await editor.duplicate(p.id);
      await this.reload();
      this.focus(`open:${copy.id}`);
    } catch (e) {
      this.fail(e);
    }
  }

  private askDelete(p: ProfileSummary): void {
    this.pendingDelete = p;
    el("ask-delete-title").textContent = `Delete “${p.label}”?`;
    el("ask-delete-text").textContent =
      p.entries === 0
        ? "The profile is empty. Deleting it cannot be undone."
        : `Its ${details(p.entries).toLowerCase()} are deleted from the vault with it. This cannot be undone.`;
    const ask = el<HTMLDialogElement>("ask-delete");
    ask.returnValue = "";
    ask.showModal();
    el("ask-delete-cancel").focus();
  }

  private async afterAsk(answer: string): Promise<void> {
    const p = this.pendingDelete;
    this.pendingDelete = null;
    if (!p) return;
    if (answer !== "delete") {
      this.focus(`del:${p.id}`);
      return;
    }
    try {
      await editor.remove(p.id);
      if (this.current?.id === p.id) this.close(false);
      await this.reload();
      (document.querySelector<HTMLElement>("#profiles .profile-open") ?? el("new-profile")).focus();
    } catch (e) {
      this.fail(e);
    }
  }

  private fail(e: unknown): void {
    const box = this.current ? el("editor-error") : el("profiles-error");
    box.textContent = sentence(errorText(e));
    box.hidden = false;
  }

  private focus(key: string): void {
    const root = this.current ? el("profile-editor") : el("profiles");
    (root.querySelector(`[data-key="${CSS.escape(key)}"]`) as HTMLElement | null)?.focus();
  }

  /** Opens the editor on profile id; focus goes to the element keyed focusKey, else its heading. */
  async open(id: string, focusKey = ""): Promise<void> {
    try {
      this.catalog ??= await editor.catalog();
      const view = await editor.open(id);
      this.show(view, focusKey);
    } catch (e) {
      this.fail(e);
    }
  }

  /** Closes the editor and shows the list again. */
  close(focusRow = true): void {
    const id = this.current?.id;
    this.current = null;
    el("profile-editor").replaceChildren();
    el("profile-editor").hidden = true;
    for (const e of ["profiles-header", "profiles", "profile-search-box", "profile-search-count"]) el(e).hidden = false;
    if (focusRow && id) this.focus(`open:${id}`);
  }

  private show(view: ProfileView, focusKey: string): void {
    this.current = view;
    for (const e of ["profiles-header", "profiles", "profile-form", "profiles-empty", "profile-search-box", "profile-search-count"]) el(e).hidden = true;
    const root = el("profile-editor");
    root.hidden = false;
    root.dataset.profileId = view.id;
    root.replaceChildren(this.head(view), ...this.groups(view), this.addForm(view), this.fieldsCard(view));
    // The region field suggests the regions of the profile's country.
    const country = (view.groups ?? []).flatMap((g) => g.concepts ?? []).find((c) => c.kind === "country")?.values?.[0]?.value ?? "";
    void regionList(country);
    const target = focusKey ? (root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`) as HTMLElement | null) : null;
    (target ?? (root.querySelector("h2") as HTMLElement)).focus();
  }

  private head(view: ProfileView): HTMLElement {
    const head = make("header", "editor-head");
    const back = button("← All profiles", "button small", "back");
    back.addEventListener("click", () => {
      this.close();
      void this.reload().then(() => this.focus(`open:${view.id}`));
    });
    const title = make("div");
    const h = make("h2", "", view.label);
    h.tabIndex = -1;
    h.id = "editor-title";
    const meta = make("p", "muted meta", `${details(view.entries)} · updated ${ago(view.updated, Date.now())}`);
    title.append(h, meta);
    const actions = make("div", "actions");
    const rename = button("Rename", "button small", `rename:${view.id}`, `Rename ${view.label}`);
    rename.addEventListener("click", () => this.startRename(view, [title, actions], actions, rename));
    const dup = button("Duplicate", "button small", `dup:${view.id}`, `Duplicate ${view.label}`);
    dup.addEventListener("click", async () => {
      try {
        const copy = await editor.duplicate(view.id);
        await this.reload();
        await this.open(copy.id);
      } catch (e) {
        this.fail(e);
      }
    });
    const del = button("Delete", "button small danger", `del:${view.id}`, `Delete ${view.label}`);
    del.addEventListener("click", () => this.askDelete(view));
    actions.append(rename, dup, del);
    const err = make("p", "field-error");
    err.id = "editor-error";
    err.setAttribute("role", "alert");
    err.hidden = true;
    const wrap = make("div", "editor-top");
    head.append(back, title, actions);
    wrap.append(head, err);
    return wrap;
  }

  private groups(view: ProfileView): HTMLElement[] {
    const out: HTMLElement[] = [];
    for (const g of view.groups ?? []) {
      const sec = make("section", "group");
      sec.dataset.group = g.id;
      const h = make("h3", "", g.label);
      h.id = `group-${g.id}`;
      sec.setAttribute("aria-labelledby", h.id);
      sec.append(h);
      for (const c of g.concepts ?? []) sec.append(this.concept(view, c));
      out.push(sec);
    }
    if (out.length === 0) {
      const p = make("p", "card note", "This profile holds no details yet. Add the first one below: your name, email, phone, address…");
      out.push(p);
    }
    return out;
  }

  private concept(view: ProfileView, c: ConceptValues): HTMLElement {
    const n = ++this.seq;
    const row = make("div", "concept");
    row.dataset.concept = c.iri;
    const label = make("div", "concept-label", c.label);
    label.id = `c${n}-label`;
    const ul = make("ul", "values");
    ul.setAttribute("aria-labelledby", label.id);
    const values = c.values ?? [];
    values.forEach((v, i) => ul.append(this.value(view, c, v, i, values.length, n)));
    row.append(label);
    if (c.conflict) {
      // Sync kept both: the person settles it by making one current.
      row.dataset.conflict = "true";
      row.append(make("p", "hint conflict", "Changed on two of your devices at once: both values are kept. Make the right one current, or delete the other."));
    }
    row.append(ul);
    return row;
  }

  private value(view: ProfileView, c: ConceptValues, v: ValueView, i: number, count: number, n: number): HTMLLIElement {
    const li = make("li", "value");
    li.dataset.index = String(i);
    const line = make("div", "value-row");
    const key = `${c.iri}#${i}`;
    const err = make("p", "field-error");
    err.id = `c${n}-v${i}-error`;
    err.setAttribute("role", "alert");
    err.hidden = true;
    const failed = (e: unknown, input?: HTMLElement) => {
      err.textContent = sentence(errorText(e));
      err.hidden = false;
      if (input) {
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-errormessage", err.id);
        input.focus();
      }
    };
    if (i === 0 && !v.structured) {
      const input = valueInput(c.kind, `c${n}-v0`, c.kind === "tel" && v.display ? v.display : v.value, c.label);
      if (c.iri === languageIRI) input.setAttribute("list", "language-list");
      if (c.iri === regionIRI) input.setAttribute("list", "region-list");
      input.dataset.key = `input:${key}`;
      const save = button("Save", "button small primary", `save:${key}`, `Save ${c.label}`);
      // Save shows once the value changed; Enter saves too, Escape undoes.
      save.hidden = true;
      const original = input.value;
      input.addEventListener("input", () => (save.hidden = input.value === original));
      const doSave = async () => {
        if (input.value === original) return;
        try {
          this.show(await editor.setValue(view.id, c.iri, coded(c.kind, c.iri, input.value)), `input:${key}`);
        } catch (e) {
          failed(e, input);
        }
      };
      save.addEventListener("click", () => void doSave());
      input.addEventListener("keydown", (ev) => {
        const k = ev as KeyboardEvent;
        if (k.key === "Enter" && !(input instanceof HTMLTextAreaElement && !k.ctrlKey)) {
          ev.preventDefault();
          void doSave();
        } else if (k.key === "Escape" && input.value !== original) {
          ev.preventDefault();
          input.value = original;
          save.hidden = true;
        }
      });
      line.append(input, save);
    } else {
      line.append(make("span", "value-text", shown(c.kind, v)));
      if (i > 0) {
        const pref = button("Make preferred", "button small", `promote:${key}`, `Make preferred: this ${c.label}`);
        pref.addEventListener("click", async () => {
          try {
            this.show(await editor.promote(view.id, c.iri, i), `input:${c.iri}#0`);
          } catch (e) {
            failed(e);
          }
        });
        line.append(pref);
      }
    }
    const del = button("Delete", "button small danger", `delete:${key}`, `Delete this ${c.label}`);
    del.addEventListener("click", async () => {
      try {
        const next = await editor.deleteValue(view.id, c.iri, i);
        const still = (next.groups ?? []).some((g) => (g.concepts ?? []).some((x) => x.iri === c.iri));
        this.show(next, still ? `input:${c.iri}#0` : "add-concept");
      } catch (e) {
        failed(e);
      }
    });
    line.append(del);
    const meta = make("p", "value-meta");
    if (count > 1) meta.append(make("span", i === 0 ? "preferred" : "muted", i === 0 ? "Preferred" : "Other value"));
    if (i === 0 && c.kind !== "text" && c.kind !== "multiline" && shown(c.kind, v) !== v.value && !v.display) meta.append(make("span", "", shown(c.kind, v)));
    const src = make("span", "", capital(v.source) + (v.added ? `, ${ago(v.added, Date.now())}` : ""));
    src.dataset.source = v.sourceType;
    meta.append(src);
    meta.append(make("span", "", v.lastUsed ? `last used ${ago(v.lastUsed, Date.now())}` : "never used yet"));
    li.append(line, meta, err);
    return li;
  }

  /** The form that adds a value: a concept from the catalog, then its value in the input its kind wants. */
  private addForm(view: ProfileView): HTMLElement {
    const card = make("section", "group add");
    const h = make("h3", "", "Add a detail");
    h.id = "add-title";
    card.setAttribute("aria-labelledby", h.id);
    const form = make("form", "add-form");
    form.noValidate = true;
    const pick = make("div", "field");
    const pl = make("label", "", "Detail");
    pl.htmlFor = "add-concept";
    const select = make("select");
    select.id = "add-concept";
    select.dataset.key = "add-concept";
    const cat = this.catalog;
    const groups = cat?.groups ?? [];
    for (const g of groups) {
      const og = make("optgroup");
      og.label = g.label;
      for (const c of (cat?.concepts ?? []).filter((x) => x.group === g.id)) {
        const o = make("option", "", c.label);
        o.value = c.iri;
        og.append(o);
      }
      if (og.childElementCount > 0) select.append(og);
    }
    pick.append(pl, select);
    const valueField = make("div", "field");
    const vl = make("label", "", "Value");
    vl.htmlFor = "add-value";
    const hint = make("p", "hint");
    hint.id = "add-hint";
    valueField.append(vl);
    let input: HTMLInputElement | HTMLTextAreaElement = valueInput("text", "add-value", "", "Value");
    valueField.append(input, hint);
    const submit = make("button", "button primary", "Add");
    submit.type = "submit";
    submit.dataset.key = "add-submit";
    const acts = make("div", "actions");
    acts.append(submit);
    const err = make("p", "field-error");
    err.id = "add-error";
    err.setAttribute("role", "alert");
    err.hidden = true;
    const info = (): ConceptInfo | undefined => cat?.concepts?.find((c) => c.iri === select.value);
    const hints: Partial<Record<ValueKind, string>> = {
      tel: "Checked as a phone number: with a + and the country code, or as this profile's country writes it.",
      date: "Pick the date or type it.",
      country: "A country: start typing its name and pick it, or give its two-letter code (GB, FR, US).",
      multiline: "One line per line of the address.",
      email: "An email address, like name@example.org.",
    };
    const kindChanged = () => {
      const k = info()?.kind ?? "text";
      const next = valueInput(k, "add-value", "", "Value");
      if (select.value === languageIRI) next.setAttribute("list", "language-list");
      if (select.value === regionIRI) next.setAttribute("list", "region-list");
      next.removeAttribute("aria-label");
      next.setAttribute("aria-describedby", "add-hint");
      input.replaceWith(next);
      input = next;
      hint.textContent = hints[k] ?? "";
      const has = (view.groups ?? []).some((g) => (g.concepts ?? []).some((c) => c.iri === select.value));
      submit.textContent = has ? "Add another" : "Add";
    };
    select.addEventListener("change", kindChanged);
    kindChanged();
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      err.hidden = true;
      try {
        const concept = select.value;
        this.show(await editor.addValue(view.id, concept, coded(info()?.kind ?? "text", concept, input.value)), "add-concept");
        const s = el<HTMLSelectElement>("add-concept");
        s.value = concept;
        s.dispatchEvent(new Event("change"));
      } catch (e) {
        err.textContent = sentence(errorText(e));
        err.hidden = false;
        input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-errormessage", err.id);
        input.focus();
      }
    });
    form.append(pick, valueField, acts);
    card.append(h, form, err);
    return card;
  }

  private fieldsCard(view: ProfileView): HTMLElement {
    const fields = view.fields ?? [];
    const card = make("section", "group");
    card.dataset.group = "fields";
    card.hidden = fields.length === 0;
    const h = make("h3", "", "Saved for particular forms");
    h.id = "fields-title";
    card.setAttribute("aria-labelledby", h.id);
    const note = make("p", "hint", "Values learnt for a form field whose kind Tessera could not tell. They are offered to that field only.");
    const ul = make("ul", "fields-list");
    for (const f of fields) {
      const li = make("li");
      li.dataset.path = f.path;
      const del = button("Delete", "button small danger", `delete-field:${f.path}`, `Delete the value saved for ${f.path}`);
      del.addEventListener("click", async () => {
        try {
          this.show(await editor.deleteField(view.id, f.path), "add-concept");
        } catch (e) {
          this.fail(e);
        }
      });
      const meta = make("span", "value-meta", `${capital(f.value.source)} · ${f.value.lastUsed ? `last used ${ago(f.value.lastUsed, Date.now())}` : "never used yet"}`);
      li.append(make("span", "mono", f.path), make("span", "value-text", f.value.value), meta, del);
      ul.append(li);
    }
    card.append(h, note, ul);
    return card;
  }
}

function capital(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
