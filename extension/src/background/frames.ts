/**
 * The browser's FrameDriver. Frames come from webNavigation.getAllFrames
 * (it alone knows each frame's parent); each frame's content script is asked
 * with tabs.sendMessage, pinned on Chromium to the document that was listed
 * (documentId); apply names the token of the document measured
 * (FrameInfo.token), which the content script of any other document
 * refuses, so on Firefox too (frame ids only) values approved for one
 * document can never reach a document that replaced it in the same frame. A frame whose content script
 * is missing (it existed before the extension was installed or updated) gets
 * it injected once, then is asked again.
 */
import { type ApplyField, type ApplyOutcome, type ContentRequest, type FrameCapture, isFailure } from '../shared/messages';
import { type FrameDriver, FrameError, type FrameInfo } from './fill';

/** SNAPSHOT_TIMEOUT_MS and APPLY_TIMEOUT_MS bound a frame's answer (apply includes up to 1 s of settling). */
export const SNAPSHOT_TIMEOUT_MS = 5_000;
export const APPLY_TIMEOUT_MS = 15_000;

const NO_RECEIVER = /Receiving end does not exist|Could not establish connection/i;

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new FrameError('TIMEOUT', `${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

async function ask(tab: number, f: FrameInfo, msg: ContentRequest, ms: number): Promise<unknown> {
  const opts = f.document !== undefined ? { documentId: f.document } : { frameId: f.frame };
  const send = () => withTimeout(chrome.tabs.sendMessage(tab, msg, opts) as Promise<unknown>, ms, `frame ${f.frame}`);
  let answer: unknown;
  try {
    answer = await send();
  } catch (e) {
    if (!NO_RECEIVER.test(String(e))) throw new FrameError('UNREACHABLE', `frame ${f.frame}: ${String(e)}`);
    try {
      const target = f.document !== undefined ? { tabId: tab, documentIds: [f.document] } : { tabId: tab, frameIds: [f.frame] };
      await chrome.scripting.executeScript({ target, files: ['content.js'] });
      answer = await send();
    } catch (e2) {
      throw new FrameError('UNREACHABLE', `Tessera cannot run in frame ${f.frame} of this page: ${String(e2)}`);
    }
  }
  if (isFailure(answer)) throw new FrameError(answer.error.code, answer.error.message);
  return answer;
}

/** browserFrames returns the FrameDriver for this browser; pinDocuments is for browsers whose messaging takes documentId (Chromium). */
export function browserFrames(pinDocuments: boolean): FrameDriver {
  return {
    list: async (tab) => {
      let frames: chrome.webNavigation.GetAllFrameResultDetails[] | null;
      try {
        frames = await chrome.webNavigation.getAllFrames({ tabId: tab });
      } catch (e) {
        throw new FrameError('UNREACHABLE', `tab ${tab}: ${String(e)}`);
      }
      return (frames ?? [])
        .filter((f) => !f.errorOccurred)
        .map((f) => {
          const info: FrameInfo = { frame: f.frameId, parent: f.parentFrameId };
          const doc = (f as { documentId?: string }).documentId;
          if (pinDocuments && doc !== undefined) info.document = doc;
          return info;
        });
    },
    snapshot: async (tab, f) => (await ask(tab, f, { type: 'snapshot' }, SNAPSHOT_TIMEOUT_MS)) as FrameCapture,
    apply: async (tab, f, fields: ApplyField[]) => {
      const got = await ask(tab, f, { type: 'apply', fields, doc: f.token ?? '' }, APPLY_TIMEOUT_MS);
      if (!Array.isArray(got)) throw new FrameError('INVALID_ANSWER', `frame ${f.frame} answered apply with an unknown shape`);
      return got as ApplyOutcome[];
    },
  };
}

/** parentOf returns the parent frame id of frame in tab: -1 for the top, 0 when the browser no longer knows the frame. */
export async function parentOf(tab: number, frame: number): Promise<number> {
  if (frame === 0) return -1;
  try {
    const f = await chrome.webNavigation.getFrame({ tabId: tab, frameId: frame });
    return f?.parentFrameId ?? 0;
  } catch {
    return 0;
  }
}
