/**
 * Content script bootstrap, in every frame (manifest content_scripts with
 * all_frames, match_about_blank, match_origin_as_fallback). It may also be
 * injected again by scripting.executeScript (a frame that existed before the
 * extension was installed), so it sets itself up only once per document.
 *
 * It answers the service worker's ContentRequests (snapshot, apply; see
 * shared/messages.ts) and, after a form submit, sends the frame's capture
 * for learning.
 */
import type { ApplyField, ApplyOutcome, BackgroundRequest, ContentRequest, Failure, FrameCapture } from '../shared/messages';
import { selfFromRuntime, senderKind } from '../shared/sender';
import { apply } from './apply';
import { watchFormspec } from './formspec-probe';
import { Registry } from './refs';
import { settle } from './settle';
import { CaptureError, capture, controlsAndRoots, newNonce } from './snapshot';
import { watchSubmits } from './submit';
import { installPageBridge } from './testbridge';
import { liveLayout } from './visibility';

const GUARD = Symbol.for('tessera.content');

function failure(code: string, message: string): Failure {
  return { error: { code, message } };
}

/** Content is one document's content script state: its refs live here, in the isolated world only. */
class Content {
  private readonly reg = new Registry();
  // doc names this document to the service worker (FrameCapture.doc): refs
  // are this document's, and a frame that navigated holds another.
  private readonly doc = newNonce();

  snapshot(): FrameCapture | Failure {
    try {
      return { ...capture(document, liveLayout(window), this.reg), doc: this.doc };
    } catch (e) {
      if (e instanceof CaptureError) return failure(e.code, e.message);
      throw e;
    }
  }

  /** other returns a Failure when doc does not name this document: the request was meant for the document measured, which this is not. */
  private other(doc: unknown): Failure | null {
    return doc === this.doc ? null : failure('NOT_FOUND', 'this is not the document that was measured (the frame navigated)');
  }

  apply(fields: unknown, doc: unknown): Promise<ApplyOutcome[]> | Failure {
    const other = this.other(doc);
    if (other !== null) return other;
    if (!Array.isArray(fields)) return failure('INVALID_MESSAGE', 'apply needs fields');
    return apply(fields as ApplyField[], {
      reg: this.reg,
      layout: liveLayout(window),
      settle: () => settle([document, ...controlsAndRoots(document).roots]),
    });
  }

  // submit submits the form of the control ref names, as its submit button
  // would (the page's submit handlers run): an agent's approved form tool
  // whose page allows agents to submit (toolautosubmit).
  submit(ref: unknown, doc: unknown): { submitted: boolean } | Failure {
    const other = this.other(doc);
    if (other !== null) return other;
    const el = typeof ref === 'string' ? this.reg.lookup(ref) : undefined;
    const f = (el as HTMLInputElement | undefined)?.form;
    if (el === undefined || !el.isConnected || !f) return failure('NOT_FOUND', 'the control or its form is gone');
    f.requestSubmit();
    return { submitted: true };
  }

  // handle answers one ContentRequest.
  handle(msg: unknown): FrameCapture | Failure | Promise<ApplyOutcome[]> | { submitted: boolean } {
    const m = (typeof msg === 'object' && msg !== null ? msg : {}) as Partial<ContentRequest> & { fields?: unknown; ref?: unknown; doc?: unknown };
    switch (m.type) {
      case 'snapshot':
        return this.snapshot();
      case 'apply':
        return this.apply(m.fields, m.doc);
      case 'submit':
        return this.submit(m.ref, m.doc);
      default:
        return failure('UNKNOWN_MESSAGE', `unknown message type ${JSON.stringify(m.type)}`);
    }
  }
}

// The guard holds the runtime the installed instance talks through: a second
// injection into the same document finds its own runtime there and stops,
// while a script orphaned by an extension update (whose globals may outlive
// its runtime) does not keep the new one from setting up.
const g = globalThis as { [GUARD]?: unknown };
if (g[GUARD] !== chrome.runtime) {
  g[GUARD] = chrome.runtime;
  const ours = selfFromRuntime();
  const content = new Content();
  chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
    // Only the extension itself (not a content script in another tab, not a page) may ask.
    if (senderKind(sender, ours) !== 'page') return false;
    let answer: ReturnType<Content['handle']>;
    try {
      answer = content.handle(msg);
    } catch (e) {
      answer = failure('INTERNAL', String(e));
    }
    if (answer instanceof Promise) {
      answer.then(sendResponse, (e: unknown) => sendResponse(failure('INTERNAL', String(e))));
      // true keeps the channel open for the asynchronous answer.
      return true;
    }
    sendResponse(answer);
    return false;
  });
  // An extension update leaves this script without a runtime (id undefined):
  // it then captures nothing.
  const live = (): boolean => chrome.runtime?.id !== undefined;
  const sendSubmitted = (frame: FrameCapture): void => {
    // watchSubmits sends only a submit the person made (their click or Enter on that form).
    chrome.runtime.sendMessage({ type: 'submitted', frame, gesture: true } satisfies BackgroundRequest).catch(() => {
      // The service worker may be restarting; learning is best effort.
    });
  };
  watchSubmits(document, sendSubmitted, () => (live() ? content.snapshot() : failure('INVALIDATED', 'the extension was updated')));
  // The page's WebMCP tools changed (page/webmcp.ts): agents list again.
  if (window === window.top) {
    // Formspec Assist runs only on a page that shows a Formspec form.
    watchFormspec(document, (why) => {
      if (live()) chrome.runtime.sendMessage({ type: 'formspec', op: 'inject', why } satisfies BackgroundRequest).catch(() => {});
    });
    document.addEventListener('tessera-webmcp-toolchange', () => {
      if (live()) chrome.runtime.sendMessage({ type: 'toolsChanged' } satisfies BackgroundRequest).catch(() => {});
    });
  }
  if (__TESSERA_TEST__) installPageBridge();
}
