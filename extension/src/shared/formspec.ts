/**
 * Formspec Assist (issue 14): the messages between the page-world script
 * (page/formspec.ts, run in the page's own world), the isolated bridge
 * (content/formspec-bridge.ts) and the service worker (background/formspec.ts).
 *
 * Neither runs on a page that is not a Formspec form: the top document's
 * content script (content/formspec-probe.ts, at document_idle) asks the
 * service worker to inject them once the page shows a Formspec form or
 * announces Assist tools, and the popup may ask for a detection on demand.
 * The service worker injects the bridge first (isolated world), then the
 * page-world script, once per document (a flag in the isolated world, which
 * no page script can see or set).
 *
 * The page world and the bridge talk over a MessageChannel: the page-world
 * script creates it and posts one port to the window; the bridge takes the
 * first hand-over from the window itself with this document's origin and
 * stops the event there. Page scripts ran before either, so a page can see
 * the hand-over or race it with a port of its own; what the channel carries
 * is therefore only ever the page's word (what the page could ask through
 * the tools the page-world script registers anyway): the bridge serves the
 * app's formspec.* methods, whose answers to any page are masked previews,
 * help text, and values the person approved in Tessera's dialog for this
 * page. Every message also carries the per-page secret sent with the port,
 * so other frames cannot speak on it.
 */

/** PORT_MESSAGE is the window message that hands the channel over. */
export const PORT_MESSAGE = 'tessera-formspec-port';

/** Mode is Assist §10's: 1 the page's own provider, 2 a Formspec form Tessera bootstraps a provider for, 3 heuristics. */
export type Mode = 1 | 2 | 3;

/** Detection is what the page world found and why. */
export interface Detection {
  mode: Mode;
  why: string;
  definitionUrl?: string;
  definitionVersion?: string;
  title?: string;
  /** tools lists the formspec.* tools on the page (mode 1) or registered by Tessera (mode 2). */
  tools: string[];
}

/** AppMethod is one of the app's formspec.* methods (PROTOCOL.md §4.4). */
export type AppMethod = 'formspec.help' | 'formspec.match' | 'formspec.apply' | 'formspec.learn';
export const APP_METHODS: readonly AppMethod[] = ['formspec.help', 'formspec.match', 'formspec.apply', 'formspec.learn'];

/** PageToBridge is what the page world sends over the channel. */
export type PageToBridge =
  | { secret: string; kind: 'detected'; detection: Detection }
  | {
      secret: string;
      kind: 'call';
      id: number;
      method: AppMethod;
      params: Record<string, unknown>;
      definition: string;
      /** docs, in mode 1, are the provider's word as sidecars: used instead of discovering any (§9 step 1). */
      docs?: { references: unknown[]; ontologies: unknown[] };
    }
  | { secret: string; kind: 'consumed'; id: number; report?: unknown; error?: { code: string; message: string } };

/** BridgeToPage answers a call (result, or an Assist-style error), or asks the page world to run mode 1. */
export type BridgeToPage =
  | { secret: string; kind: 'answer'; id: number; result?: unknown; error?: { code: string; message: string; path?: string } }
  | { secret: string; kind: 'consume'; id: number }
  /** announced: the page announced formspec-tools-available before the page-world script was injected (the probe heard it). */
  | { secret: string; kind: 'announced'; id: 0 };

/** ANNOUNCED is the isolated-world global where the probe notes an announcement for the bridge. */
export const ANNOUNCED = 'tessera.formspec-announced';

/** CONSUME_PORT is the runtime port (tabs.connect) on which the service worker asks the bridge to run mode 1. */
export const CONSUME_PORT = 'tessera-formspec-consume';
/** CONSUME_MS bounds a whole mode-1 fill: provider calls, the person's decision, the writes. */
export const CONSUME_MS = 200_000;

/** Sidecars are the documents discovered for one definition (JSON text each). */
export interface Sidecars {
  references: string[];
  ontologies: string[];
  registries: string[];
  warnings: string[];
}

/** FormspecRequest is the runtime message the bridge (and the popup, op 'mode-of') sends the service worker. */
export type FormspecRequest =
  | { type: 'formspec'; op: 'detected'; detection: Detection }
  | { type: 'formspec'; op: 'mode-of'; tab: number }
  | { type: 'formspec'; op: 'inject'; why: string }
  | { type: 'formspec'; op: 'cache-get'; key: string }
  | { type: 'formspec'; op: 'cache-put'; key: string; sidecars: Sidecars }
  | { type: 'formspec'; op: 'call'; method: AppMethod; params: Record<string, unknown> };

/** Limits on what crosses the channel. */
export const MAX_DOC_CHARS = 4 << 20;
export const MAX_SIDECARS = 8;
