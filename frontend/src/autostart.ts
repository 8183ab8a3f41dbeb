// Settings' "Start Tessera when I log in" (app/autostart.go): an XDG
// autostart entry, off until the person turns it on; not offered where the
// desktop has no such entries.
import { sentence } from "./format";
import { errorText, uiBinding } from "./wails";
import { make } from "./dom";

interface AutostartView {
  supported: boolean;
  enabled: boolean;
}

interface AutostartBinding {
  Autostart(): Promise<AutostartView>;
  SetAutostart(on: boolean): Promise<AutostartView>;
}

const binding = (): AutostartBinding => uiBinding<AutostartBinding>();

/** The card, appended to the Settings section's cards once Go says the desktop has autostart. */
export class AutostartCard {
  private readonly box = make("input");
  private readonly error = make("p", "field-error");

  constructor(settings: HTMLElement) {
    const card = make("section", "card");
    card.id = "autostart-card";
    card.hidden = true;
    this.box.type = "checkbox";
    this.box.id = "autostart";
    const label = make("label", "", "Start Tessera when I log in");
    label.htmlFor = "autostart";
    const row = make("div", "field checkbox-row");
    row.append(this.box, " ", label);
    this.error.setAttribute("role", "alert");
    this.error.hidden = true;
    card.append(
      make("h2", "", "Start"),
      make("p", "hint", "Tessera starts with its window hidden, so your browsers can reach it as soon as you log in. Off by default."),
      row,
      this.error,
    );
    settings.append(card);
    this.box.addEventListener("change", () => void this.set(this.box.checked));
    void this.load(card);
  }

  private async load(card: HTMLElement): Promise<void> {
    try {
      this.render(await binding().Autostart(), card);
    } catch {
      // No bridge, or no answer: the card stays hidden.
    }
  }

  private render(v: AutostartView, card: HTMLElement): void {
    card.hidden = !v.supported;
    this.box.checked = v.enabled;
  }

  private async set(on: boolean): Promise<void> {
    try {
      const v = await binding().SetAutostart(on);
      this.box.checked = v.enabled;
      this.error.hidden = true;
    } catch (e) {
      this.box.checked = !on;
      this.error.textContent = sentence(errorText(e));
      this.error.hidden = false;
    }
  }
}
