/**
 * Learning after a submit the person made: a content script sends the
 * capture it took at the submit, with gesture true (content/submit.ts sends
 * only a submit that followed the person's own click or Enter on that form);
 * the service worker asks the app learn.request {page, frames: [that frame],
 * gesture: true}. The app compares, asks the person, and saves only what
 * they approve. A message without that evidence is refused here, and the
 * app refuses a learn.request without it too. Nothing here waits for the
 * person on the page's behalf, and a tab gets one learn at a time (a page
 * cannot queue dialogs).
 */
import type { PageParams } from '../shared/fill';
import type { FrameCapture } from '../shared/messages';
import { type Caller, DIALOG_TIMEOUT_MS, wireFrame } from './fill';

/** LearnParams are learn.request's params: gesture says the person made the submit (PROTOCOL.md §4.1). */
export interface LearnParams extends PageParams {
  gesture: true;
}

/** LearnSender is the part of a runtime MessageSender learning reads (already checked to be our content script). */
export interface LearnSender {
  tab?: { id?: number; url?: string; title?: string };
  frameId?: number;
}

/** isCapture reports whether v has the shape of a FrameCapture (it comes from a renderer). */
export function isCapture(v: unknown): v is FrameCapture {
  const c = v as Partial<FrameCapture> | null;
  return (
    typeof c === 'object' &&
    c !== null &&
    typeof c.origin === 'string' &&
    typeof c.url === 'string' &&
    typeof c.title === 'string' &&
    typeof c.nonce === 'string' &&
    typeof c.html === 'string' &&
    Number.isInteger(c.controls) &&
    typeof c.values === 'object' &&
    c.values !== null
  );
}

/** Learner sends submitted captures to the app. */
export class Learner {
  private readonly busy = new Set<number>();

  constructor(
    private readonly native: Caller,
    private readonly parentOf: (tab: number, frame: number) => Promise<number>,
  ) {}

  /**
   * submitted starts learning from capture and answers at once: accepted is
   * false when the message is unusable, does not say the person submitted
   * (gesture), or the tab already has a learn under way. The outcome
   * (saved, nothing new, declined, app unreachable) is the app's to show;
   * none of it comes back to the page.
   */
  submitted(sender: LearnSender, capture: unknown, gesture: unknown): { accepted: boolean } {
    const tab = sender.tab?.id;
    const frame = sender.frameId ?? 0;
    if (tab === undefined || gesture !== true || !isCapture(capture) || this.busy.has(tab)) return { accepted: false };
    this.busy.add(tab);
    void this.learn(tab, frame, sender, capture).finally(() => this.busy.delete(tab));
    return { accepted: true };
  }

  private async learn(tab: number, frame: number, sender: LearnSender, c: FrameCapture): Promise<void> {
    const w = wireFrame({ frame, parent: await this.parentOf(tab, frame) }, c);
    const page =
      frame === 0
        ? { tab, url: c.url, title: c.title }
        : { tab, url: sender.tab?.url ?? '', title: sender.tab?.title ?? '' };
    try {
      await this.native.call('learn.request', { page, frames: [w], gesture: true } satisfies LearnParams, DIALOG_TIMEOUT_MS);
    } catch {
      // DECLINED is the person's answer; anything else (locked, not
      // connected) leaves nothing to do after a submit.
    }
  }
}
