/**
 * Formspec Assist (issue 14): the messages between the page-world script
 * (page/formspec.ts, MV3 world "MAIN"), the isolated content script
 * (content/formspec-bridge.ts) and the service worker (background/formspec.ts).
 *
 * The page world and the bridge talk over a private MessageChannel: the
 * page-world script, which runs at document_start before any page script,
 * creates it and posts one port to the window; the bridge, also at
 * document_start, registered the first capture listener on the window, so it
 * takes the port and stops the event before any page listener sees it. Every
 * message on the channel also carries the per-page secret sent with the
 * port, and the handshake is accepted only from the window itself with this
 * document's origin. A page script cannot obtain the port, so it cannot
 * forge a message either way.
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
  | { secret: string; kind: 'consume'; id: number };

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
  | { type: 'formspec'; op: 'cache-get'; key: string }
  | { type: 'formspec'; op: 'cache-put'; key: string; sidecars: Sidecars }
  | { type: 'formspec'; op: 'call'; method: AppMethod; params: Record<string, unknown> };

/** Limits on what crosses the channel. */
export const MAX_DOC_CHARS = 4 << 20;
export const MAX_SIDECARS = 8;
