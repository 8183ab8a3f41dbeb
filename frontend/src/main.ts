// The Tessera window: a status screen kept current by the "status" event
// Go emits, the vault, the profiles and their editor, the activity log, the
// confirmation dialog Go presents over everything, and the settings.
// Everything a browser sends
// (client names, origins) is untrusted, so it is only ever set as text.
import "./style.css";
import "./confirm.css";
import "./views.css";
import "./settings.css";
import { ActivityView } from "./activity";
import { BackupCard } from "./backup";
import { PasswdCard } from "./passwd";
import { ConfirmDialog } from "./confirm";
import { ProfilesView } from "./profiles";
import { SettingsView } from "./settings";
import { SecurityCards } from "./security";
import { SyncCard } from "./synccard";
import { AutostartCard } from "./autostart";
import { AgentAccessCard } from "./agentaccess";
import { TransferPanels } from "./transfer";
import { loadPickers } from "./pickers";
import { VaultPanel } from "./vault";
import { fetchStatus, inWails, onShowUnlock, onStatus, quit, type Client, type Status, type VaultState } from "./wails";
import { el } from "./dom";

const views = ["status", "profiles", "activity", "settings"] as const;
type View = (typeof views)[number];

/** What each vault state means for the person, in their words. */
const vaultWording: Record<VaultState, { title: string; text: string }> = {
  uninitialized: {
    title: "No vault yet",
    text: "Tessera has no vault on this computer, so it holds no profile data. Choose a passphrase to create one: it is encrypted and stays on this computer.",
  },
  locked: {
    title: "Locked",
    text: "Your profiles are encrypted and cannot be read. Unlock the vault to let Tessera offer values to fill.",
  },
  unlocked: {
    title: "Unlocked",
    text: "Tessera can offer values from your profiles. Nothing is sent to a site until you confirm it in this window.",
  },
};

let panel: VaultPanel | null = null;
let activityView: ActivityView | null = null;
let settingsView: SettingsView | null = null;
let backupCard: BackupCard | null = null;
let passwdCard: PasswdCard | null = null;

function showView(v: View): void {
  for (const b of document.querySelectorAll<HTMLButtonElement>(".nav-item")) {
    b.setAttribute("aria-selected", String(b.dataset.view === v));
  }
  for (const p of document.querySelectorAll<HTMLElement>(".view")) {
    p.hidden = p.dataset.panel !== v;
  }
  if (v === "profiles") panel?.opened();
  activityView?.setVisible(v === "activity");
  settingsView?.setVisible(v === "settings");
}

function showBanner(text: string | null): void {
  const b = el("banner");
  b.textContent = text ?? "";
  b.hidden = text === null;
}

const clock = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/** Formats a connection time as "since 14:02 · 3 minutes ago". */
function since(iso: string, now: number): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "";
  const secs = Math.round((t - now) / 1000);
  let ago: string;
  if (secs > -60) ago = "just now";
  else if (secs > -3600) ago = relative.format(Math.round(secs / 60), "minute");
  else if (secs > -86400) ago = relative.format(Math.round(secs / 3600), "hour");
  else ago = relative.format(Math.round(secs / 86400), "day");
  return `since ${clock.format(t)} · ${ago}`;
}

function clientItem(c: Client, now: number): HTMLLIElement {
  const li = document.createElement("li");
  li.className = "client";
  li.dataset.clientId = c.id;
  const name = document.createElement("strong");
  name.textContent = c.name || (c.kind === "agent" ? "Agent" : "Browser");
  // Rule 4: what a peer says about itself is a claim until the app
  // verified it, and the window says which is which.
  const badge = document.createElement("span");
  badge.className = c.verified ? "cf-badge ok" : "cf-badge warn";
  badge.textContent = c.verified ? "verified" : "not verified";
  if (!c.verified && c.why) badge.title = c.why;
  name.append(" ", badge);
  const origin = document.createElement("span");
  origin.className = "mono muted";
  origin.textContent = c.origin || "origin not reported";
  const time = document.createElement("time");
  time.className = "muted";
  time.dateTime = c.connected;
  time.textContent = since(c.connected, now);
  li.append(name, origin, time);
  return li;
}

let current: Status | null = null;

function render(s: Status): void {
  current = s;
  const wording = vaultWording[s.vault] ?? { title: s.vault, text: "" };
  el("vault-card").dataset.vaultState = s.vault;
  el("vault-title").textContent = wording.title;
  el("vault-text").textContent = wording.text;
  panel?.sync(s.vault);
  activityView?.sync(s.vault);
  settingsView?.sync(s.vault);
  backupCard?.sync(s.vault);
  passwdCard?.sync(s.vault);

  const now = Date.now();
  const list = el<HTMLUListElement>("clients");
  list.replaceChildren(...(s.clients ?? []).map((c) => clientItem(c, now)));
  el("clients-empty").hidden = list.childElementCount > 0;

  el("version").textContent = s.build ? `${s.version} (${s.build})` : s.version;
  const sock = el("socket");
  sock.textContent = s.socket || "not serving — browsers cannot connect (see the app log)";
  sock.classList.toggle("warn", !s.socket);
}

async function refresh(): Promise<void> {
  try {
    render(await fetchStatus());
    showBanner(null);
  } catch (e) {
    showBanner(`Cannot read the app status: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function main(): void {
  for (const b of document.querySelectorAll<HTMLButtonElement>(".nav-item")) {
    b.addEventListener("click", () => showView(b.dataset.view as View));
  }
  if (!inWails()) {
    showBanner("This page is the Tessera window: open it by starting the Tessera app.");
    return;
  }
  panel = new VaultPanel();
  const vp = panel;
  panel.profiles = new ProfilesView(() => vp.loadProfiles());
  panel.transfer = new TransferPanels(() => vp.loadProfiles());
  void loadPickers();
  activityView = new ActivityView();
  settingsView = new SettingsView();
  new SecurityCards(el("view-settings").querySelector<HTMLElement>(".settings")!);
  new AgentAccessCard(el("view-settings").querySelector<HTMLElement>(".settings")!);
  new SyncCard(el("view-settings").querySelector<HTMLElement>(".settings")!);
  new AutostartCard(el("view-settings").querySelector<HTMLElement>(".settings")!);
  backupCard = new BackupCard();
  passwdCard = new PasswdCard();
  void new ConfirmDialog().connect(showBanner);
  onShowUnlock(() => {
    showView("status");
    const pass = document.getElementById("unlock-pass");
    if (pass && pass.getClientRects().length > 0) pass.focus();
  });
  el("quit").addEventListener("click", () => {
    quit().catch((e) => showBanner(`Could not quit: ${String(e)}`));
  });
  onStatus((s) => {
    render(s);
    showBanner(null);
  });
  void refresh();
  // Keeps "3 minutes ago" true without asking Go again.
  setInterval(() => current && render(current), 30_000);
}

main();
