// Settings' "Sync between devices" card (app/syncctl.go, package devsync):
// the folder the person's own sync tool keeps in step (Syncthing,
// Nextcloud, a USB stick), set up once with a passphrase or joined by
// approval (app/syncjoin.go: this device shows a code, a device already in
// lists the request with its code to approve or decline), then what was
// read from each device, any problem in words, conflicts to settle in the
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
    devices: { device: string; name?: string; self?: boolean; seq: number; lastChange?: string; waiting?: number; removed?: boolean; ignored?: number }[] | null;
    problems?: string[] | null;
    unwritten?: number;
    epoch?: number;
    removed?: boolean;
    conflicts?: { profile: string; key: string; values: number; devices: string[] }[] | null;
  };
  /** The request to join made from this device (app.SyncJoinView). */
  joining?: { folder: string; code?: string; problem?: string };
  /** Requests of new devices to join (devsync.PendingJoin). */
  pending?: { id: string; code?: string }[] | null;
}

interface SyncBinding {
  SyncStatus(): Promise<SyncView>;
  SetUpSync(folder: string, name: string, passphrase: string): Promise<SyncView>;
  AskToJoinSync(folder: string, name: string): Promise<SyncView>;
  CancelSyncJoin(): Promise<SyncView>;
  ApproveSyncJoin(id: string, code: string): Promise<SyncView>;
  DeclineSyncJoin(id: string): Promise<SyncView>;
  SyncNow(): Promise<SyncView>;
  RemoveSyncDevice(id: string): Promise<SyncView>;
  StopSync(): Promise<SyncView>;
}

const binding = (): SyncBinding => uiBinding<SyncBinding>();

/** How often the open card reads Go again (another device wrote meanwhile). */
const pollMs = 3000;

/** spacedCode shows a six-digit code as two groups of three, easier to compare. */
export function spacedCode(code: string): string {
  return code.length === 6 ? code.slice(0, 3) + " " + code.slice(3) : code;
}

/** joinWords says where a request to join made from this device stands. */
export function joinWords(j: NonNullable<SyncView["joining"]>): string {
  if (j.problem) return j.problem;
  if (!j.code) return `Asked to join through ${j.folder}. On a device already kept in step, open Settings, Sync between devices: the request shows there once its sync tool has carried the folder.`;
  return "The device already in shows a request to join. Approve it there only if it shows this same code:";
}

/** syncWords says in one line where sync stands. */
export function syncWords(v: SyncView, now: number): string {
  if (!v.running && v.joining) return "Waiting to join the devices kept in step through " + v.joining.folder + ".";
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
  private readonly joining = make("div", "sync-join");
  private readonly pending = make("ul", "sites");
  private readonly msg = new CardMessages<SyncView>((v) => this.render(v));
  private shown = "";

  constructor(settings: HTMLElement) {
    const card = make("section", "card");
    card.id = "sync-card";
    this.line.id = "sync-line";
    this.devices.id = "sync-devices";
    this.joining.id = "sync-joining";
    this.pending.id = "sync-pending";
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
    const ask = make("button", "button", "Ask a device already in");
    ask.type = "button";
    ask.id = "sync-ask";
    ask.addEventListener("click", () => {
      this.pass.value = "";
      void this.msg.act(() => binding().AskToJoinSync(this.folder.value, this.name.value), "Asked to join: compare the codes when both show one.");
    });
    const actions = make("div", "actions");
    actions.append(submit, ask);
    this.form.append(
      field("sync-folder", "Sync folder", this.folder, "text", "A folder your own sync tool keeps in step on every device. Tessera writes only encrypted files of its own there."),
      field("sync-name", "This device's name", this.name, "text"),
      field("sync-pass", "Recovery passphrase", this.pass, "password", "This vault's passphrase for a new folder; for a folder another device set up, that vault's passphrase, or none: ask a device already in to let this one join."),
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
      this.joining,
      this.pending,
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
    this.form.hidden = v.running || !!v.joining;
    this.renderJoining(v);
    this.renderPending(v);
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
          ? "Removed: it cannot read what is written since, and what it writes is ignored" + (d.ignored ? ` (${d.ignored} change${d.ignored === 1 ? "" : "s"} so far)` : "") + "."
          : `${d.seq} change${d.seq === 1 ? "" : "s"} read` + (d.lastChange ? ", the last " + ago(d.lastChange, now) : "") + (d.waiting ? `; ${d.waiting} waiting for earlier ones` : "");
        grow.append(make("span", "meta muted", meta));
        li.append(grow);
        if (!d.self && !d.removed) {
          const rm = make("button", "button", "Remove");
          rm.type = "button";
          rm.setAttribute("aria-label", `Remove ${d.name || d.device} from sync`);
          rm.addEventListener("click", () =>
            void this.msg.act(
              () => binding().RemoveSyncDevice(d.device),
              `${d.name || d.device} is removed: it cannot read what is written from now on, and what it writes is ignored. If it knew the recovery passphrase, change that passphrase too.`,
            ),
          );
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

  /** renderJoining shows the request to join made from this device: the code to compare, or why it ended. */
  private renderJoining(v: SyncView): void {
    const j = v.joining;
    this.joining.hidden = !j;
    if (!j) {
      this.joining.replaceChildren();
      return;
    }
    const words = make("p", j.problem ? "field-error" : "", joinWords(j));
    const parts: HTMLElement[] = [words];
    if (j.code && !j.problem) {
      const code = make("p", "sync-code mono", spacedCode(j.code));
      code.id = "sync-join-code";
      parts.push(code);
    }
    const cancel = make("button", "button", j.problem ? "Close" : "Cancel");
    cancel.type = "button";
    cancel.id = "sync-join-cancel";
    cancel.addEventListener("click", () => void this.msg.act(() => binding().CancelSyncJoin(), j.problem ? "" : "The request to join is withdrawn."));
    const actions = make("div", "actions");
    actions.append(cancel);
    parts.push(actions);
    this.joining.replaceChildren(...parts);
  }

  /** renderPending lists the requests of new devices to join, each with its code to compare. */
  private renderPending(v: SyncView): void {
    const reqs = v.running ? (v.pending ?? []) : [];
    this.pending.hidden = reqs.length === 0;
    this.pending.replaceChildren(
      ...reqs.map((r) => {
        const li = make("li", "site");
        li.dataset.request = r.id;
        const grow = make("div", "grow");
        grow.append(make("span", "site-name", "A new device asks to join"));
        if (r.code) {
          grow.append(make("span", "meta muted", "Approve only if the new device shows this same code; decline if you did not ask for this."));
          const code = make("span", "sync-code mono", spacedCode(r.code));
          code.id = "sync-join-code";
          grow.append(code);
        } else {
          grow.append(make("span", "meta muted", "Waiting for it to show its code (its sync tool carries the folder)."));
        }
        li.append(grow);
        if (r.code) {
          const ok = make("button", "button primary", "Approve");
          ok.type = "button";
          ok.setAttribute("aria-label", `Approve the device that shows ${spacedCode(r.code)}`);
          ok.addEventListener("click", () => void this.msg.act(() => binding().ApproveSyncJoin(r.id, r.code!), "Approved: the new device joins at its next look at the folder."));
          li.append(ok);
        }
        const no = make("button", "button", "Decline");
        no.type = "button";
        no.addEventListener("click", () => void this.msg.act(() => binding().DeclineSyncJoin(r.id), "Declined."));
        li.append(no);
        return li;
      }),
    );
  }


}
