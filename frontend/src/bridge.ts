// Bindings added for the first run, auto-lock, import, export and backup
// (app/firstrun.go, app/prefs.go, app/transfer.go). Kept apart from
// wails.ts so that sections added beside each other do not edit one list;
// like wails.ts, every promise rejects with a message fit to show.
import { uiBinding, type ProfileSummary, type VaultSettings } from "./wails";

/** The strength meter's reading of a passphrase (app.Strength). */
export interface Strength {
  /** zxcvbn's 0..4. */
  score: number;
  /** Whether setting up the vault would take it. */
  acceptable: boolean;
  words: string;
  advice?: string;
}

/** One value an import would bring, named, never shown (app.ImportEntry). */
export interface ImportEntry {
  label: string;
  group: string;
  change: "new" | "same" | "conflict";
}

/** One profile of the file, and what importing it would do (app.ImportItem). */
export interface ImportItem {
  index: number;
  label: string;
  into: string;
  intoLabel?: string;
  entries: ImportEntry[] | null;
  new: number;
  same: number;
  conflicts: number;
}

/** What a file holds (app.ImportPreview). */
export interface ImportPreview {
  token: string;
  format: string;
  formatLabel: string;
  items: ImportItem[] | null;
  profiles: ProfileSummary[] | null;
}

/** What an import did (app.ImportDone). */
export interface ImportDone {
  profiles: number;
  created: number;
  learned: number;
  unchanged: number;
  candidates: number;
}

/** An export or backup (app.ExportRequest). */
export interface ExportRequest {
  ids: string[];
  passphrase: string;
  confirm: string;
  recipients: string[];
  path: string;
  overwrite: boolean;
  backup: boolean;
}

/** What an export wrote (app.ExportDone). */
export interface ExportDone {
  profiles: number;
  path: string;
  bytes: number;
}

/** How far an import, export or backup is (app.TransferProgress); total 0 is not known yet. */
export interface TransferProgress {
  op: string;
  phase: string;
  done: number;
  total: number;
}

/** A code and its name in the person's language (app.Named). */
export interface Named {
  code: string;
  name: string;
}

/** Countries and languages named in the person's language (app.LocaleView). */
export interface LocaleView {
  tag: string;
  countries: Named[] | null;
  languages: Named[] | null;
}

interface Bridge {
  Locale(): Promise<LocaleView>;
  RegionsOf(country: string): Promise<Named[] | null>;
  PassphraseStrength(p: string): Promise<Strength>;
  SuggestPassphrase(): Promise<string>;
  SetAutoLock(minutes: number): Promise<VaultSettings>;
  PreviewImport(req: { path: string; format: string; passphrase: string }): Promise<ImportPreview>;
  PlanImportInto(token: string, index: number, into: string): Promise<ImportItem>;
  ApplyImport(token: string, choices: { index: number; into: string }[]): Promise<ImportDone>;
  CancelImport(): Promise<void>;
  ExportProfiles(req: ExportRequest): Promise<ExportDone>;
  SuggestExportPath(backup: boolean): Promise<string>;
  ChooseImportFile(): Promise<string>;
  ChooseExportFile(suggested: string): Promise<string>;
}

const bridge = (): Bridge => uiBinding<Bridge>();

/** The first run's bindings (app/firstrun.go). */
export const firstRun = {
  strength: (p: string): Promise<Strength> => bridge().PassphraseStrength(p),
  suggest: (): Promise<string> => bridge().SuggestPassphrase(),
};

/** Sets the auto-lock time, in minutes (0: never), saved for the next start (app/prefs.go). */
export function setAutoLock(minutes: number): Promise<VaultSettings> {
  return bridge().SetAutoLock(minutes);
}

/** Import, export and backup (app/transfer.go). */
export const transfer = {
  preview: (path: string, passphrase: string): Promise<ImportPreview> => bridge().PreviewImport({ path, format: "", passphrase }),
  planInto: (token: string, index: number, into: string): Promise<ImportItem> => bridge().PlanImportInto(token, index, into),
  apply: (token: string, choices: { index: number; into: string }[]): Promise<ImportDone> => bridge().ApplyImport(token, choices),
  cancel: (): Promise<void> => bridge().CancelImport(),
  exportTo: (req: ExportRequest): Promise<ExportDone> => bridge().ExportProfiles(req),
  suggestPath: (backup: boolean): Promise<string> => bridge().SuggestExportPath(backup),
  chooseImport: (): Promise<string> => bridge().ChooseImportFile(),
  chooseExport: (suggested: string): Promise<string> => bridge().ChooseExportFile(suggested),
  /** Calls cb with every progress event; returns a function that stops it. */
  onProgress(cb: (p: TransferProgress) => void): () => void {
    const rt = (window as unknown as { runtime?: { EventsOn(n: string, cb: (d: unknown) => void): () => void } }).runtime;
    if (!rt) return () => {};
    return rt.EventsOn("transfer-progress", (d) => cb(d as TransferProgress));
  },
};

/** Countries and languages named in the person's language (app/localeui.go). */
export function locale(): Promise<LocaleView> {
  return bridge().Locale();
}

/** The regions (states, provinces) of a country, by their usual name (app/localeui.go). */
export function regionsOf(country: string): Promise<Named[] | null> {
  return bridge().RegionsOf(country);
}
