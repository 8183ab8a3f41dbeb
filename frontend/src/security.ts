// Settings' "Paired browsers" and "Trusted browsers" cards (app/pairing.go,
// app/trusted.go): the extension installs the person paired, each with an
// Unpair button, and the browser executables the built-in rule refuses,
// approved once by path (with a Remove button), or refused lately (with a
// Trust button and the reason). Added to the Settings section from here,
// so the section's own file stays as it is. Paths, names and reasons come
// from other programs: set as text only.
import { ago, sentence } from "./format";
import { errorText, security, type PairedBrowser, type TrustedBrowsersView } from "./wails";
import { make, pollWhileShown } from "./dom";

/** How often open cards read Go again (a browser paired or refused meanwhile). */
const pollMs = 3000;

/** The two cards, appended to the Settings section's cards. */
export class SecurityCards {
  private readonly paired = make("ul", "sites");
  private readonly trusted = make("ul", "sites");
  private readonly refused = make("ul", "sites");
  private readonly status = make("p", "settings-done");
  private readonly error = make("p", "field-error");
  private shown = "";

  constructor(settings: HTMLElement) {
    const pairCard = make("section", "card");
    pairCard.id = "paired-card";
    this.paired.id = "paired-browsers";
    pairCard.append(
      make("h2", "", "Paired browsers"),
      make("p", "hint", "Each browser's Tessera extension is paired once, with your approval and a code shown in both places. Unpair one, and it must ask again before Tessera serves it."),
      this.paired,
    );
    const trustCard = make("section", "card");
    trustCard.id = "trusted-card";
    this.trusted.id = "trusted-browsers";
    this.refused.id = "refused-browsers";
    trustCard.append(
      make("h2", "", "Trusted browsers"),
      make("p", "hint", "Tessera serves browsers installed for the whole computer. A browser installed elsewhere (in your home folder, say) is refused until you trust it here. Trust names one file: if it changes, it is refused again until you trust it again."),
      this.trusted,
      make("h3", "settings-sub", "Refused lately"),
      this.refused,
    );
    this.status.setAttribute("role", "status");
    this.error.hidden = true;
    trustCard.append(this.status, this.error);
    settings.append(pairCard, trustCard);
    pollWhileShown(settings, pollMs, () => this.load());
  }

  private async load(): Promise<void> {
    try {
      const [p, t] = await Promise.all([security.paired(), security.trusted()]);
      const key = JSON.stringify([p, t]);
      if (key === this.shown) return;
      this.shown = key;
      this.renderPaired(p);
      this.renderTrusted(t);
      this.error.hidden = true;
    } catch (e) {
      this.fail(e);
    }
  }

  private fail(e: unknown): void {
    this.error.textContent = sentence(errorText(e));
    this.error.hidden = false;
  }

  private renderPaired(list: PairedBrowser[]): void {
    if (list.length === 0) {
      this.paired.replaceChildren(make("li", "muted", "No browser is paired yet. A browser asks to be paired the first time its Tessera extension connects."));
      return;
    }
    this.paired.replaceChildren(
      ...list.map((p) => {
        const li = make("li", "site");
        li.dataset.id = p.id;
        const used = p.lastUsed ? `last seen ${ago(p.lastUsed, Date.now())}` : "not seen since Tessera started";
        const unpair = make("button", "", "Unpair");
        unpair.type = "button";
        unpair.addEventListener("click", () => void this.act(() => security.unpair(p.id), `Unpaired ${p.browser || "the browser"}.`));
        li.append(
          make("strong", "", p.browser || p.name || "a browser"),
          make("span", "muted", ` ${p.exe ?? ""}`),
          make("p", "muted", `Paired ${ago(p.paired, Date.now())}, ${used}. Key ${p.id}.`),
          unpair,
        );
        return li;
      }),
    );
  }

  private renderTrusted(v: TrustedBrowsersView): void {
    this.trusted.replaceChildren(
      ...(v.trusted.length === 0
        ? [make("li", "muted", "No browser outside the built-in rule is trusted.")]
        : v.trusted.map((t) => {
            const li = make("li", "site");
            const remove = make("button", "", "Remove");
            remove.type = "button";
            remove.addEventListener("click", () => void this.act(() => security.untrust(t.path), `${t.path} is no longer trusted.`));
            li.append(make("code", "", t.path), make("p", "muted", `Trusted ${ago(t.approved, Date.now())}. SHA-256 ${t.sha256.slice(0, 16)}…`), remove);
            return li;
          })),
    );
    this.refused.replaceChildren(
      ...(v.refused.length === 0
        ? [make("li", "muted", "None.")]
        : v.refused.map((r) => {
            const li = make("li", "site");
            const trust = make("button", "", r.changed ? "Trust again" : "Trust");
            trust.type = "button";
            trust.addEventListener("click", () => void this.act(() => security.trust(r.path), `${r.path} is trusted now. Restart that browser.`));
            li.append(make("code", "", r.path), make("p", r.changed ? "field-error" : "muted", sentence(r.why)), trust);
            return li;
          })),
    );
  }

  private async act(f: () => Promise<unknown>, done: string): Promise<void> {
    try {
      await f();
      this.status.textContent = done;
      this.shown = "";
      await this.load();
    } catch (e) {
      this.fail(e);
    }
  }
}
