// The one module that touches the Wails bridge. Wails injects
// /wails/runtime.js and /wails/ipc.js into index.html and exposes every bound
// Go method as window.go.<package>.<Type>.<Method>, returning a promise that
// rejects when the Go method returns an error. These types mirror app.Status
// and app.Client in app/app.go, app.VaultView and app.ProfileSummary in
// app/vaultui.go, app.Confirmation and its parts in app/confirm.go, the
// Settings views in app/settingsui.go.

/** One connected browser or agent (app.Client). */
export interface Client {
  id: string;
  kind: "browser" | "agent";
  name: string;
  origin: string;
  /** RFC 3339 time the client said hello. */
  connected: string;
  /** Whether the app verified the peer process (Tessera's own host started by a trusted browser). */
  verified: boolean;
  /** The verified browser family, if any. */
  browser?: string;
  /** Why the peer is not verified. */
  why?: string;
}

/** Vault states as app.Status reports them. */
export type VaultState = "uninitialized" | "locked" | "unlocked";

/** What the status screen shows (app.Status). */
export interface Status {
  version: string;
  /** build is the commit and date the app was built from. */
  build?: string;
  vault: VaultState;
  socket: string;
  clients: Client[];
}

/** The vault card's view of the vault (app.VaultView). */
export interface VaultView {
  state: VaultState;
  /** Whether a passphrase opens the vault; without one, losing the keyring loses it. */
  hasPassphrase: boolean;
  /** Whether the OS keyring holds a key to the vault. */
  hasKeyring: boolean;
  /** Whether to offer "Use keyring": a key is there and the keyring has not failed. */
  keyringUsable: boolean;
  /** Why the keyring failed in this run, if it did. */
  keyringProblem?: string;
}

/** One profile in the list, never its values (app.ProfileSummary). */
export interface ProfileSummary {
  id: string;
  label: string;
  entries: number;
  /** RFC 3339 time of the last change. */
  updated: string;
}

/** A frame rows come from (app.FrameInfo). */
export interface FrameInfo {
  id: number;
  origin: string;
  crossOrigin: boolean;
}

/** Who asks for a confirmation, and whether the app verified it (app.ClientInfo). */
export interface ClientInfo {
  kind: string;
  name: string;
  origin?: string;
  verified: boolean;
  /** paired is the fingerprint of the key a browser proved. */
  paired?: string;
}

/** Row sections (app.SectionFill, app.SectionAttention). */
export type Section = "fill" | "attention";

/** One field of a confirmation (app.Row). Label, value and evidence come from a page: text only. */
export interface Row {
  id: string;
  frame: number;
  ref: string;
  label: string;
  value: string;
  sensitive: boolean;
  concept: string;
  conceptLabel: string;
  confidence: number;
  advisory: boolean;
  evidence: string[] | null;
  section: Section;
  reason?: string;
  checked: boolean;
  previous?: string;
}

/** Confirmation kinds (app.ConfirmFill, app.ConfirmContinue, app.ConfirmLearn). */
export type ConfirmKind = "fill" | "continue" | "learn" | "pair";

/** One dialog: what would be released to (or learnt from) which site (app.Confirmation). */
export interface Confirmation {
  id: string;
  kind: ConfirmKind;
  site: string;
  origin: string;
  url: string;
  title?: string;
  frames: FrameInfo[] | null;
  client: ClientInfo;
  /** recipient is the paired browser that receives the values, when it is not the one that asks. */
  recipient?: ClientInfo;
  profiles: ProfileSummary[] | null;
  profile: string;
  rows: Row[] | null;
  /** RFC 3339 times. */
  created: string;
  expires: string;
  approveDelayMs: number;
  rememberable: boolean;
  /** pair is, for a pairing dialog, the code and browser to confirm (app.PairInfo). */
  pair?: { code: string; browser: string; exe?: string; fingerprint: string };
  /** pageInitiated: the page's script asked, not a gesture of the person (app.Confirmation.PageInitiated). */
  pageInitiated?: boolean;
  /** notice is one sentence shown above the rows (app.Confirmation.Notice). */
  notice?: string;
  /** submitted reports, for a learn dialog, that the person submitted the form (app.Confirmation.Submitted). */
  submitted?: boolean;
}

/** A paired extension install (app.PairedBrowser). */
export interface PairedBrowser {
  id: string;
  origin: string;
  browser: string;
  exe?: string;
  name?: string;
  paired: string;
  lastUsed?: string;
}

/** The trusted browsers and those refused lately (app.TrustedBrowsersView). */
export interface TrustedBrowsersView {
  trusted: { path: string; sha256: string; approved: string }[];
  refused: { path: string; why: string; changed?: boolean; seen: string }[];
}

/** The answer to a confirmation (app.Decision). */
export interface Decision {
  id: string;
  approve: boolean;
  rows: string[];
  remember: boolean;
}

/** Events Go emits about confirmations (app.ConfirmEvent, app.ConfirmWithdrawnEvent). */
export const confirmEvent = "confirm";
export const confirmWithdrawnEvent = "confirm-withdrawn";

/** Name of the event Go emits with a fresh Status (app.StatusEvent). */
export const statusEvent = "status";

/** A search of the audit log (app.ActivityQuery); empty fields match everything. */
export interface ActivityQuery {
  text: string;
  site: string;
  profile: string;
  limit: number;
}

/** One audit record in words (app.ActivityEntry); the log never holds a value. */
export interface ActivityEntry {
  seq: number;
  /** RFC 3339 time. */
  time: string;
  event: string;
  summary: string;
  outcome: string;
  tone: "ok" | "warn" | "info";
  site: string;
  origin?: string;
  frame?: string;
  fields: string[] | null;
  profileId?: string;
  profile?: string;
  client?: string;
}

/** What Activity returns (app.ActivityPage). */
export interface ActivityPage {
  entries: ActivityEntry[] | null;
  matched: number;
  total: number;
  sites: string[] | null;
  profiles: ProfileSummary[] | null;
}

/** Value kinds (app.KindText, ...): how a concept's value is typed and checked. */
export type ValueKind = "text" | "multiline" | "date" | "tel" | "email" | "url" | "country";

/** A concept the editor knows (app.ConceptInfo). */
export interface ConceptInfo {
  iri: string;
  label: string;
  group: string;
  kind: ValueKind;
}

/** One stored value (app.ValueView): shown in this window only. */
export interface ValueView {
  value: string;
  structured?: boolean;
  display?: string;
  source: string;
  sourceType: string;
  added?: string;
  lastUsed?: string;
}

/** A concept with its values, the preferred one first (app.ConceptValues). */
export interface ConceptValues extends ConceptInfo {
  values: ValueView[] | null;
  /** conflict: two devices changed this detail at once (sync); the first value is current. */
  conflict?: boolean;
}

/** A group of the editor (app.GroupView). */
export interface GroupView {
  id: string;
  label: string;
  concepts: ConceptValues[] | null;
}

/** A value kept under a form field path (app.FieldValue). */
export interface FieldValue {
  path: string;
  value: ValueView;
}

/** A profile with its values (app.ProfileView). */
export interface ProfileView extends ProfileSummary {
  created: string;
  groups: GroupView[] | null;
  fields: FieldValue[] | null;
}

/** The editor's groups and concepts (app.Catalog). */
export interface Catalog {
  groups: GroupView[] | null;
  concepts: ConceptInfo[] | null;
}

/** A profile that matches a search (app.ProfileHit): what matched, values included. */
export interface ProfileHit extends ProfileSummary {
  matches: string[] | null;
  labelMatch: boolean;
}

/** One site that fills without asking (app.SiteView). Site and origin come from pages: text only. */
export interface SiteView {
  origin: string;
  site: string;
  profileId: string;
  profile: string;
  /** Human labels of the kinds of value it fills. */
  kinds: string[] | null;
  /** RFC 3339 times; lastUsed is absent until the rule first fills. */
  created: string;
  lastUsed?: string;
}

/** Host registration states (app.HostRegistered, ...). */
export type HostState = "registered" | "missing" | "elsewhere" | "unreadable";

/** One browser Tessera knows (app.BrowserView). */
export interface BrowserView {
  name: string;
  label: string;
  found: boolean;
  host: HostState;
  manifest: string;
  points?: string;
  system?: boolean;
}

/** The browsers part of Settings (app.BrowsersView). */
export interface BrowsersView {
  browsers: BrowserView[] | null;
  connected: Client[] | null;
  executable: string;
  problem?: string;
}

/** The vault part of Settings (app.VaultSettings). */
export interface VaultSettings {
  dir: string;
  state: VaultState;
  hasPassphrase: boolean;
  hasKeyring: boolean;
  autoLockMinutes: number;
  /** The auto-lock times Settings offers (0: never). */
  autoLockChoices?: number[] | null;
  lockOnSession: boolean;
  sessionWatched: boolean;
}

interface UIBinding {
  Status(): Promise<Status>;
  Quit(): Promise<void>;
  Vault(): Promise<VaultView>;
  SetUpVault(passphrase: string, confirm: string): Promise<VaultView>;
  Unlock(passphrase: string): Promise<VaultView>;
  UnlockWithKeyring(): Promise<VaultView>;
  Lock(): Promise<VaultView>;
  SetPassphrase(passphrase: string, confirm: string): Promise<VaultView>;
  Profiles(): Promise<ProfileSummary[] | null>;
  CreateProfile(label: string): Promise<ProfileSummary>;
  Activity(q: ActivityQuery): Promise<ActivityPage>;
  ConceptCatalog(): Promise<Catalog>;
  ProfileDetail(id: string): Promise<ProfileView>;
  SearchProfiles(q: string): Promise<ProfileHit[] | null>;
  RenameProfile(id: string, label: string): Promise<ProfileSummary>;
  DuplicateProfile(id: string): Promise<ProfileSummary>;
  DeleteProfile(id: string): Promise<void>;
  SetValue(id: string, concept: string, value: string): Promise<ProfileView>;
  AddValue(id: string, concept: string, value: string): Promise<ProfileView>;
  PromoteValue(id: string, concept: string, i: number): Promise<ProfileView>;
  DeleteValue(id: string, concept: string, i: number): Promise<ProfileView>;
  DeleteField(id: string, path: string): Promise<ProfileView>;
  PendingConfirmation(): Promise<Confirmation | null>;
  Decide(d: Decision): Promise<void>;
  SwitchProfile(id: string, profile: string): Promise<Confirmation>;
  RememberedSites(): Promise<SiteView[] | null>;
  PairedBrowsers(): Promise<PairedBrowser[] | null>;
  UnpairBrowser(id: string): Promise<PairedBrowser[] | null>;
  TrustedBrowsers(): Promise<TrustedBrowsersView>;
  TrustBrowser(path: string): Promise<TrustedBrowsersView>;
  UntrustBrowser(path: string): Promise<TrustedBrowsersView>;
  ForgetSite(origin: string): Promise<void>;
  Browsers(): Promise<BrowsersView>;
  RegisterBrowser(name: string): Promise<BrowsersView>;
  VaultSettings(): Promise<VaultSettings>;
}

interface WailsWindow {
  go?: { ui?: { UI?: UIBinding } };
  runtime?: {
    EventsOn(name: string, cb: (...data: unknown[]) => void): () => void;
  };
}

// (A module test under Node has no window: nothing is bound there.)
const w = (typeof window === "undefined" ? {} : window) as WailsWindow;

/** Reports whether the page runs inside the Wails window (not a plain browser). */
export function inWails(): boolean {
  return w.go?.ui?.UI !== undefined && w.runtime !== undefined;
}

/**
 * uiBinding returns the app's bound UI object (ui.UI), typed as the
 * caller's view of it; it throws outside the Wails window.
 */
export function uiBinding<T = UIBinding>(): T {
  const b = w.go?.ui?.UI;
  if (!b) throw new Error("the Tessera app bridge is not available");
  return b as unknown as T;
}

const ui = (): UIBinding => uiBinding();

/** Fetches the app status from Go. */
export function fetchStatus(): Promise<Status> {
  return ui().Status();
}

/** Ends the app (closing the window only hides it). */
export function quit(): Promise<void> {
  return ui().Quit();
}

/** The vault bindings (app/vaultui.go); each promise rejects with a message fit to show. */
export const vault = {
  view: (): Promise<VaultView> => ui().Vault(),
  setUp: (passphrase: string, confirm: string): Promise<VaultView> => ui().SetUpVault(passphrase, confirm),
  unlock: (passphrase: string): Promise<VaultView> => ui().Unlock(passphrase),
  unlockWithKeyring: (): Promise<VaultView> => ui().UnlockWithKeyring(),
  lock: (): Promise<VaultView> => ui().Lock(),
  setPassphrase: (passphrase: string, confirm: string): Promise<VaultView> => ui().SetPassphrase(passphrase, confirm),
  profiles: async (): Promise<ProfileSummary[]> => (await ui().Profiles()) ?? [],
  createProfile: (label: string): Promise<ProfileSummary> => ui().CreateProfile(label),
};

/** The audit log (app/activityui.go). */
export const activity = {
  read: (q: ActivityQuery): Promise<ActivityPage> => ui().Activity(q),
};

/** The profile editor (app/profilesui.go); each promise rejects with a message fit to show, never a value. */
export const editor = {
  catalog: (): Promise<Catalog> => ui().ConceptCatalog(),
  open: (id: string): Promise<ProfileView> => ui().ProfileDetail(id),
  search: async (q: string): Promise<ProfileHit[]> => (await ui().SearchProfiles(q)) ?? [],
  rename: (id: string, label: string): Promise<ProfileSummary> => ui().RenameProfile(id, label),
  duplicate: (id: string): Promise<ProfileSummary> => ui().DuplicateProfile(id),
  remove: (id: string): Promise<void> => ui().DeleteProfile(id),
  setValue: (id: string, concept: string, value: string): Promise<ProfileView> => ui().SetValue(id, concept, value),
  addValue: (id: string, concept: string, value: string): Promise<ProfileView> => ui().AddValue(id, concept, value),
  promote: (id: string, concept: string, i: number): Promise<ProfileView> => ui().PromoteValue(id, concept, i),
  deleteValue: (id: string, concept: string, i: number): Promise<ProfileView> => ui().DeleteValue(id, concept, i),
  deleteField: (id: string, path: string): Promise<ProfileView> => ui().DeleteField(id, path),
};

/** The Settings section (app/settingsui.go, app/remember.go); each promise rejects with a message fit to show. */
export const settings = {
  sites: async (): Promise<SiteView[]> => (await ui().RememberedSites()) ?? [],
  forgetSite: (origin: string): Promise<void> => ui().ForgetSite(origin),
  browsers: (): Promise<BrowsersView> => ui().Browsers(),
  register: (name: string): Promise<BrowsersView> => ui().RegisterBrowser(name),
  vault: (): Promise<VaultSettings> => ui().VaultSettings(),
};

/** Paired and trusted browsers (app/pairing.go, app/trusted.go). */
export const security = {
  paired: async (): Promise<PairedBrowser[]> => (await ui().PairedBrowsers()) ?? [],
  unpair: (id: string): Promise<PairedBrowser[] | null> => ui().UnpairBrowser(id),
  trusted: (): Promise<TrustedBrowsersView> => ui().TrustedBrowsers(),
  trust: (path: string): Promise<TrustedBrowsersView> => ui().TrustBrowser(path),
  untrust: (path: string): Promise<TrustedBrowsersView> => ui().UntrustBrowser(path),
};

/** Returns the message of a rejected bridge call: Wails rejects with the Go error's text. */
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === "string") return e;
  return String(e);
}

/** Name of the event asking for the unlock screen (app.ShowUnlockEvent). */
export const showUnlockEvent = "show-unlock";

/** Calls cb whenever Go asks for the unlock screen (a browser's vault.unlock). */
export function onShowUnlock(cb: () => void): () => void {
  if (!w.runtime) return () => {};
  return w.runtime.EventsOn(showUnlockEvent, () => cb());
}

/** Calls cb with every Status Go emits; returns a function that stops it. */
export function onStatus(cb: (s: Status) => void): () => void {
  if (!w.runtime) return () => {};
  return w.runtime.EventsOn(statusEvent, (data) => cb(data as Status));
}

/** The confirmation bindings (app/dialog.go). */
export const confirmations = {
  pending: (): Promise<Confirmation | null> => ui().PendingConfirmation(),
  decide: (d: Decision): Promise<void> => ui().Decide(d),
  switchProfile: (id: string, profile: string): Promise<Confirmation> => ui().SwitchProfile(id, profile),
  /** Calls cb with every confirmation Go presents; returns a function that stops it. */
  onPresent(cb: (c: Confirmation) => void): () => void {
    if (!w.runtime) return () => {};
    return w.runtime.EventsOn(confirmEvent, (data) => cb(data as Confirmation));
  },
  /** Calls cb with the id of every confirmation withdrawn (timed out, cancelled). */
  onWithdrawn(cb: (id: string) => void): () => void {
    if (!w.runtime) return () => {};
    return w.runtime.EventsOn(confirmWithdrawnEvent, (data) => cb(String(data)));
  },
};
