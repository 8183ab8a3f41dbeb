// The Activity section: the vault's audit log, newest first, narrowed by a
// search and by site and profile. Go words every entry and does the
// filtering (app/activityui.go); this module lays entries out. Sites,
// origins, client names and profile labels come from pages, browsers and
// the vault: set as text only. The log holds no values.
import { activity, errorText, type ActivityEntry, type ActivityPage, type ProfileSummary, type VaultState } from "./wails";
import { el, make } from "./dom";

const stamp = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const clock = new Intl.DateTimeFormat(undefined, { timeStyle: "short" });
const dayName = new Intl.DateTimeFormat(undefined, { weekday: "long", day: "numeric", month: "long", year: "numeric" });

/** Heads a day's entries: "Today", "Yesterday" or the date. */
function dayHeading(t: number, now: number): string {
  const d = new Date(t), n = new Date(now);
  const midnight = (x: Date) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const days = Math.round((midnight(n) - midnight(d)) / 86_400_000);
  if (days === 0) return "Today";
  if (days === 1) return "Yesterday";
  return dayName.format(t);
}

function entryItem(e: ActivityEntry): HTMLLIElement {
  const li = make("li", `act act-${e.tone}`);
  li.dataset.seq = String(e.seq);
  li.dataset.event = e.event;
  li.dataset.site = e.site;
  const mark = make("span", "act-mark");
  mark.setAttribute("aria-hidden", "true");
  const body = make("div", "act-body");
  const head = make("div", "act-head");
  head.append(make("strong", "act-summary", e.summary), make("span", `act-outcome ${e.tone}`, e.outcome));
  const when = make("time", "act-time muted");
  const t = Date.parse(e.time);
  when.dateTime = e.time;
  // The day is the heading above; the full time is the tooltip.
  when.textContent = Number.isNaN(t) ? e.time : clock.format(t);
  if (!Number.isNaN(t)) when.title = stamp.format(t);
  head.append(when);
  body.append(head);

  const facts = make("dl", "act-facts");
  const fact = (name: string, value: string | undefined, cls = "") => {
    if (!value) return;
    const pair = make("div");
    pair.append(make("dt", "", name), make("dd", cls, value));
    facts.append(pair);
  };
  fact("Site", e.origin && e.origin !== `https://${e.site}` ? `${e.site} (${e.origin})` : e.site);
  fact("Frame", e.frame);
  fact("Profile", e.profile);
  fact("Asked by", e.client);
  if (facts.childElementCount > 0) body.append(facts);

  const fields = e.fields ?? [];
  if (fields.length > 0) {
    const ul = make("ul", "act-fields");
    ul.setAttribute("aria-label", "Details");
    for (const f of fields) ul.append(make("li", "", f));
    body.append(ul);
  }
  li.append(mark, body);
  return li;
}

/** How often an open Activity section reads the log again. */
const pollMs = 3000;

/** The Activity section. */
export class ActivityView {
  private readonly search = el<HTMLInputElement>("activity-search");
  private readonly site = el<HTMLSelectElement>("activity-site");
  private readonly profile = el<HTMLSelectElement>("activity-profile");
  private readonly list = el<HTMLElement>("activity-list");
  private visible = false;
  private state: VaultState | null = null;
  private timer = 0;
  private typing = 0;
  /** Increases with every read, so that a slow answer never replaces a newer one. */
  private generation = 0;
  private shown = "";

  constructor() {
    this.search.addEventListener("input", () => {
      clearTimeout(this.typing);
      this.typing = window.setTimeout(() => void this.load(), 150);
    });
    this.site.addEventListener("change", () => void this.load());
    this.profile.addEventListener("change", () => void this.load());
    el("activity-clear").addEventListener("click", () => {
      this.search.value = "";
      this.site.value = this.profile.value = "";
      void this.load();
      this.search.focus();
    });
  }

  /** Called when the section opens or closes; an open section keeps itself current. */
  setVisible(v: boolean): void {
    this.visible = v;
    clearInterval(this.timer);
    if (!v) return;
    void this.load();
    this.timer = window.setInterval(() => void this.load(), pollMs);
  }

  /** Brings the section up to the vault state of a status event. */
  sync(state: VaultState): void {
    const moved = state !== this.state;
    this.state = state;
    if (moved || this.visible) void this.load();
  }

  private async load(): Promise<void> {
    const gen = ++this.generation;
    const unlocked = this.state === "unlocked";
    el("activity-locked").hidden = unlocked || this.state === null;
    el("activity-locked").textContent =
      this.state === "uninitialized"
        ? "There is no vault yet, so nothing has been filled. Set one up on the Status screen."
        : "The vault is locked. The activity log is kept encrypted in it: unlock the vault on the Status screen to read it.";
    el("activity-tools").hidden = !unlocked;
    if (!unlocked) {
      this.list.replaceChildren();
      this.shown = "";
      el("activity-empty").hidden = true;
      el("activity-count").textContent = "";
      return;
    }
    try {
      const page = await activity.read({ text: this.search.value, site: this.site.value, profile: this.profile.value, limit: 0 });
      if (gen !== this.generation) return;
      this.render(page);
      el("activity-error").hidden = true;
    } catch (e) {
      if (gen !== this.generation) return;
      el("activity-error").textContent = errorText(e);
      el("activity-error").hidden = false;
    }
  }

  private render(page: ActivityPage): void {
    fillSelect(this.site, "Every site", (page.sites ?? []).map((s) => [s, s]));
    fillSelect(this.profile, "Every profile", (page.profiles ?? []).map((p: ProfileSummary) => [p.id, p.label]));
    const entries = page.entries ?? [];
    const filtered = this.search.value.trim() !== "" || this.site.value !== "" || this.profile.value !== "";
    el("activity-count").textContent =
      page.total === 0 ? "" : filtered ? `${page.matched} of ${page.total} entries` : page.total === 1 ? "1 entry" : `${page.total} entries`;
    el("activity-clear").hidden = !filtered;
    const empty = el("activity-empty");
    empty.hidden = entries.length > 0;
    empty.textContent =
      page.total === 0
        ? "Nothing yet. Every fill you approve or decline, what pages accepted and what Tessera saved from forms will be listed here."
        : "No entry matches. Try another word, or show every site and profile.";
    // Polling must not rebuild an unchanged list: focus and scroll stay put.
    const key = JSON.stringify([page.matched, entries.map((e) => e.seq)]);
    if (key === this.shown) return;
    this.shown = key;
    const now = Date.now();
    const items: HTMLElement[] = [];
    let day = "";
    for (const e of entries) {
      const t = Date.parse(e.time);
      const d = Number.isNaN(t) ? "" : dayHeading(t, now);
      if (d !== day) {
        day = d;
        items.push(make("li", "act-day", d));
      }
      items.push(entryItem(e));
    }
    this.list.replaceChildren(...items);
    const more = page.matched - entries.length;
    el("activity-more").hidden = more <= 0;
    el("activity-more").textContent = more > 0 ? `${more} older entries are not shown: search or filter to find them.` : "";
  }
}

/** Keeps a filter's options current without losing its choice. */
function fillSelect(s: HTMLSelectElement, all: string, options: [string, string][]): void {
  const chosen = s.value;
  const want = JSON.stringify(options);
  if (s.dataset.options !== want) {
    s.dataset.options = want;
    const first = make("option", "", all);
    first.value = "";
    s.replaceChildren(first, ...options.map(([v, label]) => {
      const o = make("option", "", label);
      o.value = v;
      return o;
    }));
  }
  s.value = options.some(([v]) => v === chosen) ? chosen : "";
}
