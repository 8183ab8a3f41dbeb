// The confirmation dialog: the one place where a person sees which of their
// values would go to which site, and approves all, some or none of them. Go
// presents the head of its confirmation queue (the "confirm" event, or
// PendingConfirmation when the page loads) and decides every rule; this
// module shows it, keeps Deny the default and answers through Decide.
//
// Everything in a confirmation that a page chose (labels, origins, titles,
// values, evidence) is set as text, never parsed as HTML. A sensitive value
// enters the DOM only when its row is revealed.
//
// The dialog handles its own keys (Tab moves focus within it, Space toggles
// the focused checkbox or presses the focused button, Enter presses the
// focused button, Escape denies) and cancels the browser's default for them,
// so a key behaves the same whatever sent it and focus never leaves the
// dialog while it is open.
import { confirmations, errorText, type Confirmation, type FrameInfo, type Row } from "./wails";
import { pairBody } from "./pairdialog";
import { agentSection, agentWording, isAgentKind } from "./agentconfirm";

/** Builds an element with attributes and children; strings become text nodes. */
function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean> = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false) continue;
    if (k === "class") e.className = String(v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    e.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return e;
}

/** Confidence as words and a percentage: "high 93%". */
export function confidenceText(c: number): { level: "high" | "medium" | "low"; text: string } {
  const pct = Math.round(Math.min(1, Math.max(0, c)) * 100);
  const level = c >= 0.85 ? "high" : c >= 0.6 ? "medium" : "low";
  return { level, text: `${level} ${pct}%` };
}

/**
 * Why a row needs attention, in words. Go reports the visibility reasons of
 * PROTOCOL.md §4.1 ("transparent", "cross-origin-frame", …), possibly
 * prefixed ("hidden: transparent"); anything unknown is shown as it came.
 */
const reasonWords: [RegExp, string][] = [
  [/cross[- ]origin/i, "In a frame from another site"],
  [/transparent|opacity/i, "Hidden: the field is transparent"],
  [/covered/i, "Covered by another element"],
  [/off-?screen/i, "Off-screen: placed outside the visible page"],
  [/zero[- ]size/i, "Hidden: the field has zero size"],
  [/unmeasured/i, "Unmeasured: Tessera could not check that the field is visible"],
  [/no control/i, "Not on the page: Tessera found no field for it that you could see"],
  [/does not fit/i, "Does not fit: the form's options or rules do not take this value"],
  [/display-none|visibility-hidden|type-hidden|hidden/i, "Hidden: the page does not show this field"],
];

export function reasonText(reason: string | undefined, frame: FrameInfo | undefined): string {
  const r = (reason ?? "").trim();
  for (const [re, words] of reasonWords) {
    if (re.test(r)) {
      if (/another site/.test(words) && frame) return `${words} (${frame.origin})`;
      return words;
    }
  }
  return r === "" ? "Needs your attention" : r;
}

/**
 * Why a row of the fill section starts unchecked, in words; "" when the row
 * already says it (its confidence reads "low").
 */
export function uncheckedText(reason: string | undefined): string {
  const r = (reason ?? "").trim();
  if (r === "" || /low confidence/i.test(r)) return "";
  if (/already filled/i.test(r)) return "the page already holds another value";
  return r;
}

const kindWording = {
  fill: { title: "Fill this form?", lede: "Tessera would fill these fields on", approve: (n: number) => (n === 1 ? "Fill 1 field" : `Fill ${n} fields`) },
  continue: { title: "The page asked for more fields", lede: "After your approval the page showed more fields on", approve: (n: number) => (n === 1 ? "Fill 1 more field" : `Fill ${n} more fields`) },
  learn: { title: "Save to your profile?", lede: "You submitted new or changed values on", approve: (n: number) => (n === 1 ? "Save 1 value" : `Save ${n} values`) },
  /** learn asked by the page's script (Formspec profile.learn): no submit of yours happened. */
  "learn-page": { title: "Save to your profile?", lede: "The page, not you, asks to save values from its form on", approve: (n: number) => (n === 1 ? "Save 1 value" : `Save ${n} values`) },
  pair: { title: "Pair this browser with Tessera?", lede: "The Tessera extension asks to be paired, in the verified browser", approve: () => "Pair" },
  reveal: { title: "Show these profiles' values?", lede: "The tessera command asks to show or export every value of these profiles on", approve: (n: number) => (n === 1 ? "Show 1 profile" : `Show ${n} profiles`) },
} as const;

/**
 * The words of a dialog's title, lede and approve button. A learn never
 * says "you submitted" unless the person did.
 */
export function dialogWords(c: Pick<Confirmation, "kind" | "pageInitiated" | "submitted">) {
  // "You submitted" only when the extension saw the person submit the form
  // (a click or Enter of theirs); a page that submits or asks by itself is
  // not the person's submit.
  if (c.kind === "learn" && (c.pageInitiated || !c.submitted)) return kindWording["learn-page"];
  return kindWording[c.kind] ?? agentWording[c.kind] ?? kindWording.fill;
}

const mask = "••••••••";
/** How long "timed out" or "withdrawn" stays readable before the dialog closes. */
const closeNoticeMs = 1600;

/** Makes a Go error read as a sentence: "Switch profile: the vault is locked." */
function sentence(msg: string): string {
  const s = msg.trim();
  if (s === "") return "Something went wrong.";
  return s[0].toUpperCase() + s.slice(1) + (/[.!?)]$/.test(s) ? "" : ".");
}

function formatLeft(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function focusables(root: HTMLElement): HTMLElement[] {
  const sel = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';
  return [...root.querySelectorAll<HTMLElement>(sel)].filter((e) => e.getClientRects().length > 0 && !e.closest("[hidden]"));
}

/** The dialog: one at a time, as Go presents them. */
export class ConfirmDialog {
  private readonly dlg: HTMLDialogElement;
  private c: Confirmation | null = null;
  private checked = new Map<string, boolean>();
  private revealed = new Set<string>();
  private busy = false;
  private ended = false;
  private approveAt = 0;
  private tick: number | undefined;
  private closer: number | undefined;
  private returnFocus: HTMLElement | null = null;

  constructor() {
    this.dlg = h("dialog", { id: "confirm", class: "cf", tabindex: "-1", "aria-labelledby": "cf-title", "aria-describedby": "cf-site" });
    document.body.append(this.dlg);
    this.dlg.addEventListener("cancel", (ev) => {
      ev.preventDefault();
      void this.decide(false);
    });
    document.addEventListener("keydown", (ev) => this.onKey(ev), true);
    document.addEventListener("visibilitychange", () => {
      // A dialog that arrived while the window was hidden starts its
      // Approve delay when the person can see it.
      if (this.dlg.open && document.visibilityState === "visible") this.armApprove();
    });
  }

  /** Starts listening to Go and shows a confirmation already waiting. */
  async connect(onError: (msg: string) => void): Promise<void> {
    confirmations.onPresent((c) => this.present(c));
    confirmations.onWithdrawn((id) => this.withdrawn(id));
    try {
      const c = await confirmations.pending();
      if (c) this.present(c);
    } catch (e) {
      onError(`Cannot read the waiting confirmation: ${errorText(e)}`);
    }
  }

  /** Shows c, replacing whatever the dialog showed (Go decided or withdrew it). */
  present(c: Confirmation): void {
    if (this.c?.id === c.id && !this.ended) return;
    if (!this.dlg.open) this.returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    this.load(c);
    if (!this.dlg.open) this.dlg.showModal();
    this.dlg.scrollTop = 0;
    this.armApprove();
    this.el<HTMLButtonElement>("cf-deny").focus();
    window.clearInterval(this.tick);
    this.tick = window.setInterval(() => this.update(), 250);
  }

  private load(c: Confirmation): void {
    window.clearTimeout(this.closer);
    this.c = c;
    this.busy = false;
    this.ended = false;
    this.revealed.clear();
    this.checked = new Map((c.rows ?? []).map((r) => [r.id, r.section === "fill" && r.checked]));
    this.dlg.dataset.kind = c.kind;
    this.dlg.dataset.confirmationId = c.id;
    this.dlg.replaceChildren(this.header(c), this.body(c), this.footer(c));
    this.update();
  }

  private el<T extends HTMLElement = HTMLElement>(id: string): T {
    const e = this.dlg.querySelector<T>(`#${id}`);
    if (!e) throw new Error(`missing #${id} in the dialog`);
    return e;
  }

  private header(c: Confirmation): HTMLElement {
    const words = dialogWords(c);
    const frames = (c.frames ?? []).filter((f, i, all) => f.id !== 0 && all.findIndex((g) => g.origin === f.origin) === i);
    const origins = h("dl", { class: "cf-origins" },
      h("dt", {}, "Page"),
      h("dd", { class: "mono", id: "cf-origin" }, c.origin),
    );
    for (const f of frames) {
      origins.append(
        h("dt", {}, "Frame"),
        h("dd", { class: "mono cf-frame", "data-cross-origin": String(f.crossOrigin) },
          f.origin,
          f.crossOrigin ? h("span", { class: "cf-badge warn" }, "cross-origin frame") : null),
      );
    }
    const client = h("p", { class: "cf-client", id: "cf-client" },
      h("span", { class: "muted" }, c.client.kind === "agent" ? "Asked by the agent" : "Asked by"),
      " ",
      h("strong", {}, c.client.name || (c.client.kind === "agent" ? "an unnamed agent" : "a browser")),
      " ",
      c.client.verified
        ? h("span", { class: "cf-badge ok", title: "Tessera checked who this is" }, "verified")
        : h("span", { class: "cf-badge warn", title: "Tessera only has its word for who this is" }, "not verified"),
      c.client.paired ? " " : null,
      c.client.paired ? h("span", { class: "cf-badge ok", title: "the browser proved the key you paired: " + c.client.paired }, "paired") : null,
    );
    // Who receives the values, when it is not who asks (an agent acting in
    // a browser): the paired browser, named as the gate verified it.
    const recipient = c.recipient
      ? h("p", { class: "cf-client", id: "cf-recipient" },
          h("span", { class: "muted" }, "Filled into"),
          " ",
          h("strong", {}, c.recipient.name || "a browser"),
          c.recipient.paired ? h("span", { class: "cf-badge ok", title: "the browser proved the key you paired: " + c.recipient.paired }, "paired") : null,
        )
      : null;
    const profiles = c.profiles ?? [];
    let picker: HTMLElement | null = null;
    if (profiles.length > 1 && c.kind !== "learn") {
      const sel = h("select", { id: "cf-profile" });
      for (const p of profiles) {
        const o = h("option", { value: p.id }, p.label);
        o.selected = p.id === c.profile;
        sel.append(o);
      }
      sel.addEventListener("change", () => void this.switchProfile(sel));
      picker = h("div", { class: "cf-profile" }, h("label", { for: "cf-profile" }, "Profile"), sel);
    } else {
      const p = profiles.find((p) => p.id === c.profile);
      if (p) picker = h("p", { class: "cf-profile muted" }, c.kind === "learn" ? "Into profile " : "From profile ", h("strong", {}, p.label));
    }
    return h("header", { class: "cf-head" },
      h("div", { class: "cf-titlebar" },
        h("h2", { id: "cf-title" }, words.title),
        h("span", { class: "cf-timer", id: "cf-timer", role: "timer", "aria-live": "off" }),
      ),
      h("p", { class: "cf-lede muted" }, words.lede),
      h("p", { class: "cf-site", id: "cf-site" }, c.site || c.origin),
      c.notice ? h("p", { class: "cf-notice", id: "cf-notice", role: "note" }, c.notice) : null,
      c.title ? h("p", { class: "cf-pagetitle muted", id: "cf-pagetitle" }, c.title) : null,
      origins,
      h("div", { class: "cf-meta-line" }, client, recipient, picker),
    );
  }

  private body(c: Confirmation): HTMLElement {
    if (c.kind === "pair") return pairBody(c);
    const rows = c.rows ?? [];
    const fill = rows.filter((r) => r.section !== "attention");
    const attention = rows.filter((r) => r.section === "attention");
    const frames = new Map((c.frames ?? []).map((f) => [f.id, f]));
    const body = h("div", { class: "cf-body" });
    const agent = agentSection(c);
    if (agent) body.append(agent);
    if (fill.length > 0) {
      body.append(h("section", { class: "cf-section", "aria-labelledby": "cf-fill-title" },
        h("h3", { id: "cf-fill-title" }, c.kind === "learn" ? "Values to save" : "Fields"),
        h("ul", { class: "cf-rows", id: "cf-rows" }, ...fill.map((r) => this.row(r, frames.get(r.frame), c))),
      ));
    }
    if (attention.length > 0) {
      body.append(h("section", { class: "cf-section cf-attention", "aria-labelledby": "cf-att-title", "aria-describedby": "cf-att-note" },
        h("h3", { id: "cf-att-title" }, "Not filled unless you tick them"),
        h("p", { class: "cf-note", id: "cf-att-note" }, "The page has these fields, but you may not be able to see them. Pages hide fields to collect data without you noticing."),
        h("ul", { class: "cf-rows", id: "cf-attention-rows" }, ...attention.map((r) => this.row(r, frames.get(r.frame), c))),
      ));
    }
    if (rows.length === 0 && !agent) body.append(h("p", { class: "cf-note" }, "Nothing to fill."));
    return body;
  }

  private row(r: Row, frame: FrameInfo | undefined, c: Confirmation): HTMLLIElement {
    const n = (c.rows ?? []).indexOf(r);
    const checkId = `cf-check-${n}`;
    const metaId = `cf-meta-${n}`;
    const whyId = `cf-why-${n}`;
    const box = h("input", { type: "checkbox", id: checkId, class: "cf-check", "aria-describedby": metaId });
    box.checked = this.checked.get(r.id) ?? false;
    box.addEventListener("change", () => {
      this.checked.set(r.id, box.checked);
      li.classList.toggle("off", !box.checked);
      this.update();
    });

    const value = h("span", { class: "cf-value" });
    const previous = c.kind === "learn" ? h("span", { class: "cf-prev" }) : null;
    const paint = () => {
      const shown = !r.sensitive || this.revealed.has(r.id);
      value.textContent = shown ? r.value : mask;
      value.classList.toggle("masked", !shown);
      // Read out as what it is, not as eight bullets.
      if (shown) {
        value.removeAttribute("role");
        value.removeAttribute("aria-label");
      } else {
        value.setAttribute("role", "img");
        value.setAttribute("aria-label", "hidden value");
      }
      value.classList.toggle("empty", shown && r.value === "");
      if (shown && r.value === "") value.textContent = "(empty)";
      if (previous) {
        const p = r.previous ?? "";
        previous.textContent = p === "" ? "(nothing yet)" : shown ? p : mask;
        previous.classList.toggle("masked", p !== "" && !shown);
      }
    };
    paint();

    const label = h("label", { for: checkId, class: "cf-line" },
      h("span", { class: "cf-label" + (r.label.trim() === "" ? " none" : "") }, r.label.trim() === "" ? "Unlabelled field" : r.label),
      previous
        ? h("span", { class: "cf-change" }, previous, h("span", { class: "cf-arrow", "aria-hidden": "true" }, "→"), h("span", { class: "sr-only" }, "becomes"), value)
        : h("span", { class: "cf-change" }, h("span", { class: "cf-arrow", "aria-hidden": "true" }, "←"), h("span", { class: "sr-only" }, "gets"), value),
    );

    const conf = confidenceText(r.confidence);
    const meta = h("div", { class: "cf-meta", id: metaId },
      h("span", { class: "cf-concept" }, r.conceptLabel || r.concept || "Unknown kind of field"),
      h("span", { class: `cf-conf ${conf.level}` }, conf.text),
      r.advisory ? h("span", { class: "cf-badge advisory", title: "A guess from the page's wording: the page does not declare what this field is" }, "advisory") : null,
      r.sensitive ? h("span", { class: "cf-badge slate" }, "sensitive") : null,
      frame?.crossOrigin && r.section !== "attention" ? h("span", { class: "cf-badge warn" }, `frame ${frame.origin}`) : null,
      r.section !== "attention" && uncheckedText(r.reason) ? h("span", { class: "cf-unchecked" }, uncheckedText(r.reason)) : null,
    );
    const reason = r.section === "attention" ? h("p", { class: "cf-reason" }, reasonText(r.reason, frame?.crossOrigin ? frame : undefined)) : null;

    const evidence = (r.evidence ?? []).filter((e) => e.trim() !== "");
    const why = h("ul", { class: "cf-why", id: whyId, hidden: true },
      ...(evidence.length > 0 ? evidence.map((e) => h("li", {}, e)) : [h("li", { class: "muted" }, "No evidence recorded.")]),
      r.concept ? h("li", { class: "muted" }, `Concept ${r.concept}`) : null,
    );
    const whyBtn = h("button", { type: "button", class: "cf-link", "aria-expanded": "false", "aria-controls": whyId }, "Why?");
    whyBtn.addEventListener("click", () => {
      why.hidden = !why.hidden;
      whyBtn.setAttribute("aria-expanded", String(!why.hidden));
    });
    const tools = h("div", { class: "cf-tools" });
    if (r.sensitive) {
      const reveal = h("button", { type: "button", class: "cf-link cf-reveal", "aria-pressed": "false" }, "Show");
      reveal.addEventListener("click", () => {
        if (this.revealed.has(r.id)) this.revealed.delete(r.id);
        else this.revealed.add(r.id);
        const on = this.revealed.has(r.id);
        reveal.setAttribute("aria-pressed", String(on));
        reveal.textContent = on ? "Hide" : "Show";
        paint();
      });
      tools.append(reveal);
    }
    tools.append(whyBtn);

    const li = h("li", { class: "cf-row" + (box.checked ? "" : " off"), "data-row-id": r.id, "data-section": r.section },
      box,
      h("div", { class: "cf-field" }, label, reason, meta, why),
      tools,
    );
    return li;
  }

  private footer(c: Confirmation): HTMLElement {
    const remember = c.rememberable
      ? h("label", { class: "cf-remember" }, h("input", { type: "checkbox", id: "cf-remember" }), `Remember for ${c.site || "this site"}`)
      : null;
    const deny = h("button", { type: "button", id: "cf-deny", class: "button" }, "Deny");
    const approve = h("button", { type: "button", id: "cf-approve", class: "button primary", disabled: true });
    deny.addEventListener("click", () => void this.decide(false));
    approve.addEventListener("click", () => void this.decide(true));
    return h("footer", { class: "cf-foot" },
      h("div", { class: "cf-timebar", "aria-hidden": "true" }, h("span", { id: "cf-timebar" })),
      h("p", { class: "cf-status", id: "cf-status", role: "status" }),
      h("div", { class: "cf-footrow" },
        remember ?? h("span", { class: "cf-hint muted" }, "Escape denies."),
        h("div", { class: "cf-buttons" }, deny, approve),
      ),
    );
  }

  /** Keeps Approve disabled for the confirmation's delay from now. */
  private armApprove(): void {
    this.approveAt = Date.now() + Math.max(0, this.c?.approveDelayMs ?? 0);
    this.update();
  }

  private selected(): string[] {
    return (this.c?.rows ?? []).filter((r) => this.checked.get(r.id)).map((r) => r.id);
  }

  /** Refreshes the countdown and the Approve button; ends the dialog at its expiry. */
  private update(): void {
    const c = this.c;
    if (!c || this.ended) return;
    const now = Date.now();
    const expires = Date.parse(c.expires);
    const left = expires - now;
    const total = Math.max(1, expires - Date.parse(c.created));
    this.el("cf-timer").textContent = `Declines in ${formatLeft(left)}`;
    this.el("cf-timebar").style.width = `${Math.max(0, Math.min(100, (left / total) * 100))}%`;
    if (left <= 0) {
      // Go declines by itself at the same moment; the dialog only says so.
      this.end("Timed out: nothing was sent. Ask again from the browser when you are ready.", "timeout");
      return;
    }
    // A pairing dialog has no rows: its one thing to approve is the pairing.
    const n = c.kind === "pair" ? 1 : this.selected().length;
    const approve = this.el<HTMLButtonElement>("cf-approve");
    approve.textContent = dialogWords(c).approve(n);
    const wasFocused = document.activeElement === approve;
    approve.disabled = this.busy || (n === 0 && !isAgentKind(c)) || now < this.approveAt;
    if (wasFocused && approve.disabled) this.el("cf-deny").focus();
    this.el<HTMLButtonElement>("cf-deny").disabled = this.busy;
  }

  private async decide(approve: boolean): Promise<void> {
    const c = this.c;
    if (!c || this.busy || this.ended || !this.dlg.open) return;
    if (approve && (Date.now() < this.approveAt || (c.kind !== "pair" && !isAgentKind(c) && this.selected().length === 0))) return;
    this.busy = true;
    this.update();
    const remember = this.dlg.querySelector<HTMLInputElement>("#cf-remember");
    try {
      await confirmations.decide({
        id: c.id,
        approve,
        rows: approve ? this.selected() : [],
        remember: approve && !!remember?.checked,
      });
      if (this.c?.id === c.id) this.close();
    } catch (e) {
      if (this.c?.id !== c.id) return;
      if (/no such confirmation/i.test(errorText(e))) {
        this.end("This request is no longer waiting: nothing was sent.", "gone");
        return;
      }
      this.busy = false;
      this.update();
      this.status(`Your answer did not reach Tessera. ${sentence(errorText(e))}`, true);
    }
  }

  private async switchProfile(sel: HTMLSelectElement): Promise<void> {
    const c = this.c;
    if (!c || this.busy) return;
    this.busy = true;
    sel.disabled = true;
    this.update();
    try {
      const next = await confirmations.switchProfile(c.id, sel.value);
      if (this.c?.id !== c.id) return;
      this.load(next);
      this.armApprove();
      this.dlg.querySelector<HTMLElement>("#cf-profile")?.focus();
    } catch (e) {
      if (this.c?.id !== c.id) return;
      sel.value = c.profile;
      sel.disabled = false;
      this.busy = false;
      this.update();
      this.status(sentence(errorText(e)), true);
    }
  }

  private status(text: string, error = false): void {
    const s = this.el("cf-status");
    s.textContent = text;
    s.classList.toggle("error", error);
  }

  /** Says why the dialog ends, disables it, and closes it shortly after. */
  private end(text: string, why: string): void {
    this.ended = true;
    window.clearInterval(this.tick);
    this.dlg.dataset.ended = why;
    for (const e of this.dlg.querySelectorAll<HTMLButtonElement | HTMLInputElement | HTMLSelectElement>("button, input, select")) e.disabled = true;
    this.status(text, why !== "gone");
    if (why === "timeout") this.el("cf-timer").textContent = "Timed out";
    this.dlg.focus();
    this.closer = window.setTimeout(() => this.close(), closeNoticeMs);
  }

  private withdrawn(id: string): void {
    if (this.c?.id !== id || this.ended) return;
    const c = this.c;
    if (Date.parse(c.expires) <= Date.now() + 1000) this.end("Timed out: nothing was sent. Ask again from the browser when you are ready.", "timeout");
    else this.end("The browser withdrew this request: nothing was sent.", "withdrawn");
  }

  private close(): void {
    window.clearInterval(this.tick);
    window.clearTimeout(this.closer);
    this.c = null;
    this.ended = false;
    this.busy = false;
    delete this.dlg.dataset.ended;
    if (this.dlg.open) this.dlg.close();
    this.dlg.replaceChildren();
    if (this.returnFocus?.isConnected) this.returnFocus.focus();
    this.returnFocus = null;
  }

  /**
   * Scrolls e into view, clear of the footer: on a short window the whole
   * dialog scrolls under a sticky footer, which a plain scrollIntoView
   * would leave e beneath.
   */
  private scrollToSee(e: HTMLElement): void {
    e.scrollIntoView({ block: "nearest" });
    const foot = this.dlg.querySelector(".cf-foot");
    if (!foot || this.dlg.scrollHeight <= this.dlg.clientHeight) return;
    const r = e.getBoundingClientRect();
    const f = foot.getBoundingClientRect();
    if (r.bottom > f.top - 6) this.dlg.scrollTop += r.bottom - f.top + 6;
  }

  private onKey(ev: KeyboardEvent): void {
    if (!this.dlg.open) return;
    const t = ev.target instanceof HTMLElement && this.dlg.contains(ev.target) ? ev.target : null;
    switch (ev.key) {
      case "Escape":
        ev.preventDefault();
        ev.stopPropagation();
        void this.decide(false);
        return;
      case "Tab": {
        ev.preventDefault();
        const list = focusables(this.dlg);
        if (list.length === 0) return;
        const i = t ? list.indexOf(t) : -1;
        const next = ev.shiftKey ? (i <= 0 ? list.length - 1 : i - 1) : (i + 1) % list.length;
        list[next].focus();
        this.scrollToSee(list[next]);
        return;
      }
      case " ":
        if (t instanceof HTMLButtonElement || (t instanceof HTMLInputElement && t.type === "checkbox")) {
          ev.preventDefault();
          if (!t.disabled) t.click();
        }
        return;
      case "Enter":
        if (t instanceof HTMLButtonElement) {
          ev.preventDefault();
          if (!t.disabled) t.click();
        } else if (t instanceof HTMLInputElement) {
          // Enter never approves from a checkbox: only a focused button acts.
          ev.preventDefault();
        }
        return;
    }
  }
}
