/**
 * Runtime messages between the extension's contexts (popup, service worker,
 * content scripts). Native (app) messages are in rpc.ts.
 */
import type { Status } from './native';

/** STATUS_PORT is the name of the runtime port on which the service worker pushes Status to the popup. */
export const STATUS_PORT = 'tessera-status';

/** BackgroundRequest is a message the service worker accepts. */
export type BackgroundRequest = { type: 'status' } | { type: 'reconnect' };

/** BackgroundResponse maps each request type to its answer. */
export interface BackgroundResponse {
  status: Status;
  reconnect: Status;
}

/** ContentRequest is a message a content script accepts (from the extension, never from a page). */
export type ContentRequest = { type: 'snapshot' };

/**
 * PageSnapshot is what a content script sends for one document: the
 * serialised live DOM, with every control stamped data-tessera-ref and
 * measured-invisible ones data-tessera-hidden="<reason>". The app extracts
 * the form.Snapshot from it.
 */
export interface PageSnapshot {
  url: string;
  title: string;
  /** html is the whole document; open shadow roots appear as <template shadowrootmode="open">. */
  html: string;
  /** controls is how many controls were stamped. */
  controls: number;
  /** shadowRoots reports whether open shadow roots were serialised (Element.getHTML present). */
  shadowRoots: boolean;
}

/** Failure is how a runtime message handler reports an error to its caller. */
export interface Failure {
  error: { code: string; message: string };
}
