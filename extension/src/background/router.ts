/**
 * The service worker's runtime message router: a typed table from message
 * type to handler, each naming which senders may use it. The sender is
 * checked before anything else is looked at.
 */
import type { BackgroundRequest, BackgroundResponse, Failure } from '../shared/messages';
import { type Self, type SenderKind, senderKind } from '../shared/sender';

/** Handler serves one request type for the senders it lists. */
export interface Handler<K extends BackgroundRequest['type']> {
  from: readonly SenderKind[];
  /** handle serves req; sender has passed the from check. */
  handle(
    req: Extract<BackgroundRequest, { type: K }>,
    sender: chrome.runtime.MessageSender,
  ): Promise<BackgroundResponse[K]> | BackgroundResponse[K];
}

/** HandlerTable has exactly one handler per request type. */
export type HandlerTable = { [K in BackgroundRequest['type']]: Handler<K> };

type Listener = (msg: unknown, sender: chrome.runtime.MessageSender, sendResponse: (r: unknown) => void) => boolean;

function failure(code: string, message: string): Failure {
  return { error: { code, message } };
}

/**
 * makeRouter returns a chrome.runtime.onMessage listener serving table.
 * Messages from foreign senders are dropped without an answer; known senders
 * get either the handler's answer or a Failure.
 */
export function makeRouter(self: Self, table: HandlerTable): Listener {
  return (msg, sender, sendResponse) => {
    const kind = senderKind(sender, self);
    if (kind === null) return false;
    const type = typeof msg === 'object' && msg !== null ? (msg as { type?: unknown }).type : undefined;
    if (typeof type !== 'string' || !Object.hasOwn(table, type)) {
      sendResponse(failure('UNKNOWN_MESSAGE', `unknown message type ${JSON.stringify(type)}`));
      return false;
    }
    const h = table[type as BackgroundRequest['type']] as Handler<BackgroundRequest['type']>;
    if (!h.from.includes(kind)) {
      sendResponse(failure('FORBIDDEN', `${type} is not available to ${kind} senders`));
      return false;
    }
    Promise.resolve()
      .then(() => h.handle(msg as BackgroundRequest, sender))
      .then(sendResponse, (e: unknown) => {
        const code = typeof (e as { code?: unknown })?.code === 'string' ? (e as { code: string }).code : 'INTERNAL';
        sendResponse(failure(code, e instanceof Error ? e.message : String(e)));
      });
    // true keeps the channel open for the asynchronous answer.
    return true;
  };
}
