// The Settings section: the sites that fill without asking, each with a
// Forget button; the browsers Tessera knows on this computer, whether its
// host is registered in each (with a Register button) and the browsers
// connected now; and the vault's location and how it locks. Go reads and
// words all of it (app/settingsui.go). Sites, origins, client names and
// profile labels come from pages, browsers and the vault: set as text only.
import { setAutoLock } from "./bridge";
import { ago, autoLockWords, sentence } from "./format";
import {
  errorText,
  settings,
  type BrowserView,
  type BrowsersView,
  type Client,
  type SiteView,
  type VaultSettings,
  type VaultState,
} from "./wails";
import { el, make } from "./dom";

function timeEl(iso: string, words: string): HTMLTimeElement {
  const t = make("time", "", words);
  t.dateTime = iso;
  const d = Date.parse(iso);
  if (!Number.isNaN(d)) t.title = full.format(d);
  return t;
}

const full = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** How often an open Settings section reads Go again (a site remembered in a dialog, a browser registered from the command line). */
const pollMs = 3000;

/** What each host registration state means, in the person's words. */
function hostWords(b: BrowserView): { badge: string; tone: "ok" | "warn"; text: string; action: string } {
  switch (b.host) {
    case "registered":
      return {
        badge: "registered",
        tone: "ok",
        text: b.system ? "Registered for every user of this computer." : "Registered: this browser can start Tessera.",
        action: "",
      };
    case "elsewhere":
      return { badge: "another program", tone: "warn", text: `Registered for another copy of Tessera: ${b.points ?? ""}`, action: "Register this one" };
    case "unreadable":
      return { badge: "unreadable", tone: "warn", text: "Its registration file cannot be read; registering again replaces it.", action: "Register again" };
    default:
      return { badge: "not registered", tone: "warn", text: "Not registered: the extension in this browser cannot reach Tessera.", action: "Register" };
  }
}

function vaultStateWords(s: VaultState): string {
  return s === "unlocked" ? "Unlocked" : s === "locked" ? "Locked" : "Not set up yet";
}

function protection(v: VaultSettings): string {
  if (v.state === "uninitialized") return "Nothing yet: set up the vault on the Status screen.";
  if (v.hasPassphrase && v.hasKeyring) return "Your passphrase, and this computer's keyring so that you need not type it.";
  if (v.hasPassphrase) return "Your passphrase. No keyring holds a key, so Tessera asks for it after every lock.";
  if (v.hasKeyring) return "This computer's keyring only. Set a recovery passphrase on the Status screen: without one, losing the keyring loses the vault.";
  return "Unknown: the vault cannot say what opens it.";
}

/** The Settings section. */
export class SettingsView {
  private visible = false;
  private state: VaultState | null = null;
  private timer = 0;
  /** Increases with every read, so that a slow answer never replaces a newer one. */
  private generation = 0;
  private shown = { sites: "", browsers: "", clients: "", vault: "" };

  /** Called when the section opens or closes; an open section keeps itself current. */
  setVisible(v: boolean): void {
    this.visible = v;
    clearInterval(this.timer);
    if (!v) return;
    void this.load();
    this.timer = window.setInterval(() => void this.load(), pollMs);
  }

  /** Brings the section up to a status event: the vault state, the browsers connected. */
  sync(state: VaultState): void {
    const moved = state !== this.state;
    this.state = state;
    if (moved) el("sites-status").textContent = "";
    if (moved || this.visible) void this.load();
  }

  private async load(): Promise<void> {
    const gen = ++this.generation;
    const unlocked = this.state === "unlocked";
    const [sites, browsers, vault] = await Promise.allSettled([
      unlocked ? settings.sites() : Promise.resolve(null),
      settings.browsers(),
      settings.vault(),
    ]);
    if (gen !== this.generation) return;
    const errors: string[] = [];
    if (sites.status === "fulfilled") this.renderSites(sites.value);
    else errors.push(errorText(sites.reason));
    if (browsers.status === "fulfilled") this.renderBrowsers(browsers.value);
    else errors.push(errorText(browsers.reason));
    if (vault.status === "fulfilled") this.renderVault(vault.value);
    else errors.push(errorText(vault.reason));
    const err = el("settings-error");
    err.textContent = errors.map(sentence).join(" ");
    err.hidden = errors.length === 0;
  }

  /** Lays out the sites; null means the vault is not open, so they cannot be read. */
  private renderSites(sites: SiteView[] | null): void {
    const list = el("sites");
    const locked = el("sites-locked");
    locked.hidden = sites !== null || this.state === null;
    locked.textContent =
      this.state === "uninitialized"
        ? "There is no vault yet, so no site fills without asking."
        : "The vault is locked. The sites you let fill without asking are kept in it: unlock it on the Status screen to see them.";
    el("sites-empty").hidden = sites === null || sites.length > 0;
    const now = Date.now();
    // Polling must not rebuild an unchanged list: focus stays put. The
    // times are in the key so that "5 minutes ago" moves on.
    const key = JSON.stringify([sites, sites?.map((s) => [ago(s.created, now), s.lastUsed ? ago(s.lastUsed, now) : ""])]);
    if (key === this.shown.sites) return;
    this.shown.sites = key;
    const focused = document.activeElement instanceof HTMLElement && list.contains(document.activeElement) ? document.activeElement.dataset.key : undefined;
    list.replaceChildren(...(sites ?? []).map((s) => this.siteItem(s, now)));
    if (focused) list.querySelector<HTMLElement>(`[data-key="${CSS.escape(focused)}"]`)?.focus();
  }

  private siteItem(s: SiteView, now: number): HTMLLIElement {
    const li = make("li", "site");
    li.dataset.origin = s.origin;
    const text = make("div", "grow");
    const name = make("strong", "site-name", s.site);
    const origin = make("span", "mono muted", s.origin);
    const meta = make("span", "meta muted");
    meta.append("From ", make("b", "", s.profile), " · remembered ", timeEl(s.created, ago(s.created, now)), " · ");
    if (s.lastUsed) meta.append("last filled ", timeEl(s.lastUsed, ago(s.lastUsed, now)));
    else meta.append("not used since");
    const kinds = make("ul", "site-kinds");
    kinds.setAttribute("aria-label", `What ${s.site} gets without asking`);
    for (const k of s.kinds ?? []) kinds.append(make("li", "", k));
    text.append(name, origin, kinds, meta);
    const forget = make("button", "button small danger", "Forget");
    forget.type = "button";
    forget.dataset.key = `forget:${s.origin}`;
    forget.setAttribute("aria-label", `Forget ${s.origin}: ask before filling it again`);
    forget.addEventListener("click", () => void this.forget(s, li, forget));
    li.append(text, forget);
    return li;
  }

  /** Revokes a site's rule; the row goes and focus moves to the next row's Forget (or the previous, or the heading). */
  private async forget(s: SiteView, li: HTMLLIElement, button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    const status = el("sites-status");
    try {
      await settings.forgetSite(s.origin);
    } catch (e) {
      button.disabled = false;
      status.textContent = "";
      const err = el("settings-error");
      err.textContent = sentence(errorText(e));
      err.hidden = false;
      button.focus();
      return;
    }
    el("settings-error").hidden = true;
    const next = (li.nextElementSibling ?? li.previousElementSibling)?.querySelector<HTMLButtonElement>("button");
    li.remove();
    this.shown.sites = "";
    status.textContent = `Forgot ${s.site}: its next fill asks you first.`;
    el("sites-empty").hidden = el("sites").childElementCount > 0;
    (next ?? el("sites-title")).focus();
    void this.load();
  }

  private renderBrowsers(bv: BrowsersView): void {
    const problem = el("browsers-problem");
    problem.textContent = bv.problem ?? "";
    problem.hidden = !bv.problem;
    const list = el("browsers");
    const browsers = bv.browsers ?? [];
    const key = JSON.stringify(browsers);
    if (key !== this.shown.browsers) {
      this.shown.browsers = key;
      const focused = document.activeElement instanceof HTMLElement && list.contains(document.activeElement) ? document.activeElement.dataset.key : undefined;
      list.replaceChildren(...browsers.map((b) => this.browserItem(b)));
      if (focused) {
        const again = list.querySelector<HTMLElement>(`[data-key="${CSS.escape(focused)}"]`);
        // Registered: the button is gone; the browser's row keeps the focus.
        (again ?? list.querySelector<HTMLElement>(`[data-browser="${CSS.escape(focused.replace(/^register:/, ""))}"] strong`))?.focus();
      }
    }
    const now = Date.now();
    const clients = bv.connected ?? [];
    const ckey = JSON.stringify([clients, clients.map((c) => ago(c.connected, now))]);
    if (ckey !== this.shown.clients) {
      this.shown.clients = ckey;
      el("settings-clients").replaceChildren(...clients.map((c) => clientItem(c, now)));
    }
    el("settings-clients-empty").hidden = clients.length > 0;
  }

  private browserItem(b: BrowserView): HTMLLIElement {
    const li = make("li", `browser${b.found ? "" : " absent"}`);
    li.dataset.browser = b.name;
    li.dataset.host = b.host;
    const w = hostWords(b);
    const text = make("div", "grow");
    const head = make("div", "browser-head");
    const name = make("strong", "", b.label);
    name.tabIndex = -1;
    head.append(name, make("span", b.found ? "cf-badge ok" : "cf-badge slate", b.found ? "found" : "not found"), make("span", `cf-badge ${w.tone}`, w.badge));
    text.append(head, make("span", "hint", w.text));
    if (b.manifest) text.append(make("span", "mono muted", b.manifest));
    li.append(text);
    if (w.action) {
      const reg = make("button", b.found ? "button small primary" : "button small", w.action);
      reg.type = "button";
      reg.dataset.key = `register:${b.name}`;
      reg.setAttribute("aria-label", `${w.action} with ${b.label}`);
      reg.addEventListener("click", () => void this.register(b, reg));
      li.append(reg);
    }
    return li;
  }

  private async register(b: BrowserView, button: HTMLButtonElement): Promise<void> {
    button.disabled = true;
    const status = el("browsers-status");
    status.textContent = `Registering with ${b.label}…`;
    try {
      const bv = await settings.register(b.name);
      this.renderBrowsers(bv);
      status.textContent = `Registered with ${b.label}. Restart ${b.label} if it is open, so that it reads the registration.`;
    } catch (e) {
      button.disabled = false;
      status.textContent = sentence(errorText(e));
    }
  }

  private renderVault(v: VaultSettings): void {
    const key = JSON.stringify(v);
    if (key === this.shown.vault) return;
    this.shown.vault = key;
    const facts: [string, string, string?][] = [
      ["Location", v.dir || "unknown", "mono"],
      ["State", vaultStateWords(v.state)],
      ["Opened by", protection(v)],
      ["Locks by itself", ""],
      [
        "Locks with the screen",
        !v.lockOnSession
          ? "No: TESSERA_LOCK_ON_SESSION=off is set. Start Tessera without it to lock the vault when the screen locks or the computer sleeps."
          : v.sessionWatched
            ? "When the screen locks or the computer goes to sleep. Starting Tessera with TESSERA_LOCK_ON_SESSION=off turns this off."
            : "Not on this system yet: it does not tell Tessera when the screen locks. Lock the vault on the Status screen before you step away.",
      ],
    ];
    const hadFocus = document.activeElement?.id === "autolock-select" || this.autoLockFocus;
    this.autoLockFocus = false;
    el("vault-facts").replaceChildren(
      ...facts.flatMap(([dt, dd, cls]) => {
        const d = make("dd", cls ?? "", dd);
        if (dt === "State") d.dataset.state = v.state;
        const t = make("dt", "", dt);
        if (dt === "Locks by itself") {
          t.id = "autolock-title";
          d.append(this.autoLockPicker(v));
        }
        return [t, d];
      }),
    );
    if (hadFocus) el("autolock-select").focus();
  }

  /** The auto-lock picker: applied at once and kept for the next start. */
  private autoLockPicker(v: VaultSettings): HTMLElement {
    const box = make("div", "autolock");
    const sel = make("select");
    sel.id = "autolock-select";
    sel.setAttribute("aria-labelledby", "autolock-title");
    sel.setAttribute("aria-describedby", "autolock-status");
    const choices = v.autoLockChoices ?? [];
    for (const m of choices.includes(v.autoLockMinutes) ? choices : [...choices, v.autoLockMinutes]) {
      const o = make("option", "", sentence(autoLockWords(m)).replace(/\.$/, ""));
      o.value = String(m);
      o.selected = m === v.autoLockMinutes;
      sel.append(o);
    }
    const status = make("span", "hint");
    status.id = "autolock-status";
    status.setAttribute("role", "status");
    status.textContent = this.autoLockNote;
    sel.addEventListener("change", async () => {
      const m = Number(sel.value);
      // Disabled while Go saves, the picker loses the focus: it gets it back.
      this.autoLockFocus = document.activeElement === sel;
      sel.disabled = true;
      try {
        const nv = await setAutoLock(m);
        this.autoLockNote = `Saved: the vault locks itself ${autoLockWords(nv.autoLockMinutes)}, now and after Tessera restarts.`;
        this.shown.vault = "";
        this.renderVault(nv);
      } catch (e) {
        sel.disabled = false;
        if (this.autoLockFocus) sel.focus();
        this.autoLockFocus = false;
        status.textContent = sentence(errorText(e));
      }
    });
    box.append(sel, status);
    return box;
  }

  private autoLockNote = "";
  private autoLockFocus = false;
}

function clientItem(c: Client, now: number): HTMLLIElement {
  const li = make("li", "client");
  li.dataset.clientId = c.id;
  const name = make("strong", "", c.name || "Browser");
  // What a peer says about itself is a claim until the app verified it.
  const badge = make("span", c.verified ? "cf-badge ok" : "cf-badge warn", c.verified ? "verified" : "not verified");
  if (!c.verified && c.why) badge.title = c.why;
  name.append(" ", badge);
  const detail = make(
    "span",
    "muted",
    c.verified ? `Tessera's host, started by ${c.browser || "the browser"}.` : c.why ? `Not verified. ${sentence(c.why)}` : "Not started by a browser Tessera trusts.",
  );
  const since = make("span", "muted");
  since.append("connected ", timeEl(c.connected, ago(c.connected, now)));
  li.append(name, detail, since);
  return li;
}
