// Settings' "Sync between devices" card (app/syncctl.go, package devsync):
// the folder the person's own sync tool keeps in step (Syncthing,
// Nextcloud, a USB stick), set up once with a passphrase, then what was read
// from each device, any problem in words, conflicts to settle in the
// editor, and Sync now. Device names and problems come from the folder:
// set as text only.
import { ago } from "./format";
import { uiBinding } from "./wails";
import { CardMessages, make, pollWhileShown } from "./dom";

/** SyncView is UI.SyncStatus's answer. */
export interface SyncView {
  enabled: boolean;
  running: boolean;
  problem?: string;
  status?: {
    folder: string;
    name: string;
    lastSync?: string;
    lastError?: string;
    devices: { device: string; name?: string; self?: boolean; seq: number; lastChange?: string; waiting?: number; removed?: boolean }[] | null;
    problems?: string[] | null;
    unwritten?: number;
    conflicts?: { profile: string; key: string; values: number; devices: string[] }[] | null;
  };
}

interface SyncBinding {
  SyncStatus(): Promise<SyncView>;
  SetUpSync(folder: string, name: string, passphrase: string): Promise<SyncView>;
  SyncNow(): Promise<SyncView>;
  RemoveSyncDevice(id: string): Promise<SyncView>;
  StopSync(): Promise<SyncView>;
}

const binding = (): SyncBinding => uiBinding<SyncBinding>();

/** How often the open card reads Go again (another device wrote meanwhile). */
const pollMs = 3000;

/** syncWords says in one line where sync stands. */
export function syncWords(v: SyncView, now: number): string {
  if (!v.running) return v.problem ? "Sync could not start: " + v.problem : "This vault is not kept in step with another device.";
  const st = v.status!;
  if (st.lastError) return "The last sync failed: " + st.lastError;
  const when = st.lastSync ? "last synced " + ago(st.lastSync, now) : "not synced yet";
  return `Kept in step through ${st.folder} as "${st.name}", ${when}.`;
}

/** The card, appended to the Settings section's cards. */
export class SyncCard {
  private readonly line = make("p", "");
  private readonly devices = make("ul", "sites");
  private readonly problems = make("ul", "field-error");
  private readonly form = make("form", "vault-form");
  private readonly folder = make("input");
  private readonly name = make("input");
  private readonly pass = make("input");
  private readonly actions = make("div", "actions");
  private readonly msg = new CardMessages<SyncView>((v) => this.render(v));
  private shown = "";

  constructor(settings: HTMLElement) {
    const card = make("section", "card");
    card.id = "sync-card";
    this.line.id = "sync-line";
    this.devices.id = "sync-devices";
    this.form.noValidate = true;
    const field = (id: string, label: string, input: HTMLInputElement, type: string, hint = "") => {
      input.id = id;
      input.type = type;
      input.autocomplete = "off";
      const f = make("div", "field");
      const l = make("label", "", label);
      l.htmlFor = id;
      f.append(l, input);
      if (hint) f.append(make("p", "hint", hint));
      return f;
    };
    const submit = make("button", "button primary", "Set up sync");
    submit.type = "submit";
    const actions = make("div", "actions");
    actions.append(submit);
    this.form.append(
      field("sync-folder", "Sync folder", this.folder, "text", "A folder your own sync tool keeps in step on every device. Tessera writes only encrypted files of its own there."),
      field("sync-name", "This device's name", this.name, "text"),
      field("sync-pass", "Recovery passphrase", this.pass, "password", "This vault's passphrase for a new folder; for a folder another device set up, that vault's passphrase."),
      actions,
    );
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.msg.act(() => binding().SetUpSync(this.folder.value, this.name.value, this.pass.value), "This vault is kept in step through the folder now.");
      this.pass.value = "";
    });
    card.append(
      make("h2", "", "Sync between devices"),
      make("p", "hint", "Keep this vault in step with your other computers through a folder your own sync tool carries. No server: each device writes only its own encrypted files, and changes made on two devices at once are both kept, one as a value to settle in the editor."),
      this.line,
      this.problems,
      this.devices,
      this.form,
      this.actions,
      this.msg.status,
      this.msg.error,
    );
    settings.append(card);
    pollWhileShown(settings, pollMs, () => this.load());
  }

  private async load(): Promise<void> {
    try {
      this.render(await binding().SyncStatus());
    } catch (e) {
      this.msg.fail(e);
    }
  }


  private render(v: SyncView): void {
    const now = Date.now();
    const key = JSON.stringify([v, syncWords(v, now)]);
    if (key === this.shown) return;
    this.shown = key;
    this.msg.error.hidden = true;
    this.line.textContent = syncWords(v, now);
    this.form.hidden = v.running;
    const st = v.status;
    const problems = [...(st?.problems ?? [])];
    const conflicts = st?.conflicts ?? [];
    if (conflicts.length > 0) problems.push(`${conflicts.length === 1 ? "One detail was" : conflicts.length + " details were"} changed on two devices at once: both values are kept; choose one in the profile editor.`);
    this.problems.replaceChildren(...problems.map((p) => make("li", "", p)));
    this.problems.hidden = problems.length === 0;
    this.devices.hidden = !st?.devices?.length;
    this.devices.replaceChildren(
      ...(st?.devices ?? []).map((d) => {
        const li = make("li", "site");
        li.dataset.device = d.device;
        const grow = make("div", "grow");
        grow.append(make("span", "site-name", (d.name || d.device) + (d.self ? " (this device)" : "")));
        const meta = d.removed
          ? "Removed: what it writes is ignored."
          : `${d.seq} change${d.seq === 1 ? "" : "s"} read` + (d.lastChange ? ", the last " + ago(d.lastChange, now) : "") + (d.waiting ? `; ${d.waiting} waiting for earlier ones` : "");
        grow.append(make("span", "meta muted", meta));
        li.append(grow);
        if (!d.self && !d.removed) {
          const rm = make("button", "button", "Remove");
          rm.type = "button";
          rm.setAttribute("aria-label", `Remove ${d.name || d.device} from sync`);
          rm.addEventListener("click", () => void this.msg.act(() => binding().RemoveSyncDevice(d.device), `${d.name || d.device} is removed: what it writes is ignored.`));
          li.append(rm);
        }
        return li;
      }),
    );
    const now_ = make("button", "button", "Sync now");
    now_.type = "button";
    now_.id = "sync-now";
    now_.addEventListener("click", () => void this.msg.act(() => binding().SyncNow(), "Synced."));
    const stop = make("button", "button", "Stop syncing");
    stop.type = "button";
    stop.addEventListener("click", () => void this.msg.act(() => binding().StopSync(), "This vault is no longer kept in step; the folder and the other devices keep their copies."));
    this.actions.replaceChildren(...(v.running ? [now_, stop] : []));
  }


}
