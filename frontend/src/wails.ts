// The one module that touches the Wails bridge. Wails injects
// /wails/runtime.js and /wails/ipc.js into index.html and exposes every bound
// Go method as window.go.<package>.<Type>.<Method>, returning a promise that
// rejects when the Go method returns an error. These types mirror app.Status
// and app.Client in app/app.go.

/** One connected browser or agent (app.Client). */
export interface Client {
  id: string;
  kind: "browser" | "agent";
  name: string;
  origin: string;
  /** RFC 3339 time the client said hello. */
  connected: string;
}

/** Vault states as app.Status reports them. */
export type VaultState = "uninitialized" | "locked" | "unlocked";

/** What the status screen shows (app.Status). */
export interface Status {
  version: string;
  vault: VaultState;
  socket: string;
  clients: Client[];
}

/** Name of the event Go emits with a fresh Status (app.StatusEvent). */
export const statusEvent = "status";

interface UIBinding {
  Status(): Promise<Status>;
  Quit(): Promise<void>;
}

interface WailsWindow {
  go?: { app?: { UI?: UIBinding } };
  runtime?: {
    EventsOn(name: string, cb: (...data: unknown[]) => void): () => void;
  };
}

const w = window as unknown as WailsWindow;

/** Reports whether the page runs inside the Wails window (not a plain browser). */
export function inWails(): boolean {
  return w.go?.app?.UI !== undefined && w.runtime !== undefined;
}

function ui(): UIBinding {
  const b = w.go?.app?.UI;
  if (!b) throw new Error("the Tessera app bridge is not available");
  return b;
}

/** Fetches the app status from Go. */
export function fetchStatus(): Promise<Status> {
  return ui().Status();
}

/** Ends the app (closing the window only hides it). */
export function quit(): Promise<void> {
  return ui().Quit();
}

/** Calls cb with every Status Go emits; returns a function that stops it. */
export function onStatus(cb: (s: Status) => void): () => void {
  if (!w.runtime) return () => {};
  return w.runtime.EventsOn(statusEvent, (data) => cb(data as Status));
}
