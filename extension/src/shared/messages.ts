/**
 * Runtime messages between the extension's contexts (popup, service worker,
 * content scripts). Native (app) messages are in rpc.ts and fill.ts.
 *
 * Service worker → content script (tabs.sendMessage to one frame, pinned to
 * the document measured where the browser allows it); the content script
 * answers only senders senderKind calls 'page':
 *
 *   {type:'snapshot'}                          → FrameCapture | Failure
 *   {type:'apply', fields: ApplyField[], doc}  → ApplyOutcome[] | Failure
 *   {type:'submit', ref: string, doc}          → {submitted: boolean} | Failure
 *                                                (an agent's approved form tool, PROTOCOL.md §4.3)
 *
 * Content script → service worker (runtime.sendMessage; the router accepts
 * it from 'content' senders only):
 *
 *   {type:'submitted', frame: FrameCapture, gesture: true}
 *                                              → {accepted: boolean}
 *                                                (a submit the person made: content/submit.ts)
 *   {type:'toolsChanged'}                      → {accepted: boolean}
 *                                                (the top page's WebMCP tools changed; agents list again)
 *
 * Popup → service worker ('page' senders only):
 *
 *   {type:'status'} / {type:'reconnect'}       → Status
 *   {type:'fill', tab: number}                 → FillReport
 *   {type:'unlock'}                            → UnlockResult
 *   {type:'pair'}                              → Status (asks the app to pair this install)
 *
 * On the STATUS_PORT the service worker pushes PopupUpdate messages.
 */
import type { FillKind, FillReport, Identity, LiveValue, Outcome } from './fill';
import type { FormspecRequest } from './formspec';
import type { Status } from './native';

/** STATUS_PORT is the name of the runtime port on which the service worker pushes PopupUpdate to the popup. */
export const STATUS_PORT = 'tessera-status';

/** TEST_PORT is the runtime port of the test build's page bridge (content/testbridge.ts); the shipped build has none. */
export const TEST_PORT = 'tessera-test';

/** BackgroundRequest is a message the service worker accepts. */
export type BackgroundRequest =
  | { type: 'status' }
  | { type: 'reconnect' }
  | { type: 'fill'; tab: number }
  | { type: 'unlock' }
  | { type: 'pair' }
  | { type: 'submitted'; frame: FrameCapture; gesture: true }
  | { type: 'toolsChanged' }
  | FormspecRequest;

/** UnlockResult is vault.unlock's answer from a browser session (PROTOCOL.md §4 vault.unlock). */
export interface UnlockResult {
  state: string;
  shown: boolean;
  message?: string;
}

/** BackgroundResponse maps each request type to its answer. */
export interface BackgroundResponse {
  status: Status;
  reconnect: Status;
  fill: FillReport;
  unlock: UnlockResult;
  pair: Status;
  submitted: { accepted: boolean };
  /** formspec: see shared/formspec.ts and background/formspec.ts. */
  formspec: unknown;
  toolsChanged: { accepted: boolean };
}

/** FillPhase is where a fill stands, for the popup. */
export type FillPhase = 'measuring' | 'confirming' | 'filling' | 'done';

/** FillProgress is the latest fill's state; report is set when phase is 'done'. */
export interface FillProgress {
  tab: number;
  phase: FillPhase;
  report?: FillReport;
}

/** PopupUpdate is what the service worker pushes on STATUS_PORT. */
export type PopupUpdate = { kind: 'status'; status: Status } | { kind: 'fill'; fill: FillProgress };

/** ApplyField is one approved value for a control of the frame the message goes to. */
export interface ApplyField {
  ref: string;
  kind: FillKind;
  value: string;
  expect?: Partial<Identity>;
}

/** ApplyOutcome is what happened to one ApplyField, in the order sent. */
export interface ApplyOutcome {
  ref: string;
  outcome: Outcome;
}

/** ContentRequest is a message a content script accepts (from the extension, never from a page). */
/**
 * ContentRequest is a service worker's request to a content script. apply
 * and submit carry doc, the token of the document that was measured
 * (FrameCapture.doc): a content script answers them only in that document,
 * so values approved for one document never reach one that replaced it in
 * the same frame, whether or not the browser can address a document
 * (Chromium's documentId; Firefox has only frame ids).
 */
export type ContentRequest = { type: 'snapshot' } | { type: 'apply'; fields: ApplyField[]; doc: string } | { type: 'submit'; ref: string; doc: string };

/**
 * FrameCapture is what a content script measured in its document: the
 * serialised DOM whose measured controls carried data-tessera-ref and
 * data-tessera-hidden stamps prefixed with nonce, and the live values. The
 * service worker turns it into a WireFrame (adding frame and parent ids and
 * leaving out title, hidden and shadowRoots).
 */
export interface FrameCapture {
  /** origin is self.origin of the document ("null" when opaque). */
  origin: string;
  url: string;
  title: string;
  nonce: string;
  /** html is the whole document; open shadow roots appear as <template shadowrootmode="open">. */
  html: string;
  /** controls is how many controls were stamped. */
  controls: number;
  values: Record<string, LiveValue>;
  /** hidden maps every stamped ref to its visibility reason, "" when visible (the same text as its stamp). */
  hidden: Record<string, string>;
  /** shadowRoots reports whether open shadow roots were serialised (Element.getHTML present). */
  shadowRoots: boolean;
  /**
   * doc is the token the content script drew when it started in this
   * document, the same for each of its captures and never sent to the app;
   * apply and submit must name it (ContentRequest).
   */
  doc?: string;
}

/** Failure is how a runtime message handler reports an error to its caller. */
export interface Failure {
  error: { code: string; message: string };
}

/** isFailure reports whether v is a Failure. */
export function isFailure(v: unknown): v is Failure {
  const e = (v as { error?: { code?: unknown } } | null)?.error;
  return typeof e?.code === 'string';
}
