/**
 * A fill, orchestrated in the service worker (PROTOCOL.md §4.1):
 *
 *   snapshot every frame → fill.request {page, frames} → the person decides
 *   in the app → apply the approved values frame by frame (each frame's
 *   content script lets the page settle, then reads back) → snapshot again;
 *   while new or newly visible controls appeared (at most 3 times):
 *   fill.continue {fill, page, frames} → apply → … → fill.report {fill, fields}.
 *
 * A fill resolves with a FillReport; it never rejects.
 */
import {
  type FieldOutcome,
  type FillField,
  type FillReport,
  MAX_FRAMES,
  MAX_REQUEST_BYTES,
  MAX_URL_BYTES,
  MAX_VALUES,
  type Outcome,
  type PageInfo,
  type PageParams,
  type WireFrame,
  parseFillAnswer,
  utf8Length,
} from '../shared/fill';
import type { ApplyField, ApplyOutcome, FillProgress, FrameCapture } from '../shared/messages';
import { Codes, RpcError } from '../shared/rpc';

/**
 * FrameInfo locates one frame of a tab: the browser's frame id, its
 * parent's (-1 for the top), where the browser has one the id of the
 * document in it, and once measured the token of the document measured
 * (FrameCapture.doc), which apply and submit must name.
 */
export interface FrameInfo {
  frame: number;
  parent: number;
  document?: string;
  token?: string;
}

/** FrameError is how a FrameDriver rejects: code is a Failure code from the content script or a local one. */
export class FrameError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'FrameError';
    this.code = code;
  }
}

/** FrameDriver reaches the content scripts of a tab (frames.ts is the browser's; tests fake it). */
export interface FrameDriver {
  /** list returns the tab's frames. */
  list(tab: number): Promise<FrameInfo[]>;
  /** snapshot asks f's content script for a FrameCapture. */
  snapshot(tab: number, f: FrameInfo): Promise<FrameCapture>;
  /** apply has f's content script apply fields and answers one outcome per field, in order. */
  apply(tab: number, f: FrameInfo, fields: ApplyField[]): Promise<ApplyOutcome[]>;
}

/** Caller is the native choke point (NativeClient.call). */
export interface Caller {
  call(method: string, params?: unknown, timeoutMs?: number): Promise<unknown>;
}

/** DIALOG_TIMEOUT_MS bounds a call that waits for the person: the app's dialog itself times out after 2 minutes. */
export const DIALOG_TIMEOUT_MS = 150_000;

/** MAX_CONTINUES is how often one fill may be continued (PROTOCOL.md §4.1 fill.continue). */
export const MAX_CONTINUES = 3;

const OUTCOMES: readonly string[] = ['filled', 'rejected', 'gone', 'changed', 'hidden'] satisfies Outcome[];

/** Round is one measurement of the whole tab, as sent to the app. */
export interface Round {
  page: PageInfo;
  frames: WireFrame[];
  infos: Map<number, FrameInfo>;
  // hidden holds each frame's refs and their visibility reasons.
  hidden: Map<number, Record<string, string>>;
}

/** wireFrame turns a content script's capture into the frame the app receives. */
export function wireFrame(info: FrameInfo, c: FrameCapture): WireFrame {
  return {
    frame: info.frame,
    parent: info.parent,
    origin: c.origin,
    url: c.url,
    nonce: c.nonce,
    html: c.html,
    controls: c.controls,
    values: c.values,
  };
}

function failed(reason: string, message: string, fields: FieldOutcome[] = []): FillReport {
  return { status: 'failed', reason, message, fields };
}

/**
 * Filler runs fills, at most one per tab at a time: a second trigger while
 * one runs (a double shortcut press) gets the running fill's report.
 */
export class Filler {
  private readonly inflight = new Map<number, Promise<FillReport>>();
  private lastProgress: FillProgress | undefined;

  constructor(
    private readonly native: Caller,
    private readonly frames: FrameDriver,
    private readonly onProgress: (p: FillProgress) => void = () => {},
  ) {}

  /** last returns the latest fill's progress (its report once done). */
  get last(): FillProgress | undefined {
    return this.lastProgress;
  }

  /** fill fills tab and resolves with the report. */
  fill(tab: number): Promise<FillReport> {
    if (!Number.isInteger(tab) || tab < 0) return Promise.resolve(failed('INVALID_TAB', `no tab ${String(tab)}`));
    const running = this.inflight.get(tab);
    if (running) return running;
    const p = this.run(tab)
      .catch((e: unknown) => failed(Codes.Internal, e instanceof Error ? e.message : String(e)))
      .then((report) => {
        this.inflight.delete(tab);
        this.progress({ tab, phase: 'done', report });
        return report;
      });
    this.inflight.set(tab, p);
    return p;
  }

  private progress(p: FillProgress): void {
    this.lastProgress = p;
    try {
      this.onProgress(p);
    } catch {
      // Whoever watches (a popup that just closed) does not change the fill.
    }
  }

  private async run(tab: number): Promise<FillReport> {
    this.progress({ tab, phase: 'measuring' });
    let round: Round;
    try {
      round = await this.measure(tab);
    } catch (e) {
      return this.fromError(e);
    }
    this.progress({ tab, phase: 'confirming' });
    let answer;
    try {
      answer = parseFillAnswer(await this.native.call('fill.request', { page: round.page, frames: round.frames } satisfies PageParams, DIALOG_TIMEOUT_MS));
    } catch (e) {
      return this.fromError(e);
    }
    if (answer === null) return failed('INVALID_ANSWER', 'the Tessera app answered fill.request with an unknown shape');
    this.progress({ tab, phase: 'filling' });
    const outcomes = await this.applyAll(tab, round, answer.fields);
    // Only a page that took values can have reacted to them; one that took
    // none is not asked about again.
    let changed = outcomes.some((o) => o.outcome === 'filled');

    const seen = new Map<string, Set<string>>();
    addVisible(seen, round);
    for (let i = 0; i < MAX_CONTINUES && changed; i++) {
      let next: Round;
      try {
        next = await this.measure(tab);
      } catch {
        break;
      }
      if (!addVisible(seen, next)) break;
      let more;
      try {
        more = parseFillAnswer(
          await this.native.call(
            'fill.continue',
            { fill: answer.fill, page: next.page, frames: next.frames } satisfies PageParams & { fill: string },
            DIALOG_TIMEOUT_MS,
          ),
        );
      } catch {
        // Declined follow-up, expired or finished fill: what was filled stays filled.
        break;
      }
      if (more === null) break;
      const got = await this.applyAll(tab, next, more.fields);
      changed = got.some((o) => o.outcome === 'filled');
      outcomes.push(...got);
    }
    try {
      await this.native.call('fill.report', { fill: answer.fill, fields: outcomes });
    } catch {
      // The outcomes are the page's; a lost report changes nothing on it.
    }
    return { status: 'filled', fill: answer.fill, fields: outcomes };
  }

  /**
   * measure snapshots every frame of tab (at most MAX_FRAMES, the top one
   * first). Frames that cannot be captured are left out (the app never hears
   * of their controls); so are frames that would take the request over
   * MAX_REQUEST_BYTES or MAX_VALUES, and frames with a URL longer than
   * MAX_URL_BYTES (a data: URL). The top frame is required, and must be an
   * http(s) page: the app fills nothing else.
   */
  async measure(tab: number): Promise<Round> {
    const infos = (await this.frames.list(tab)).sort((a, b) => (a.frame === 0 ? -1 : b.frame === 0 ? 1 : a.frame - b.frame));
    const chosen = infos.slice(0, MAX_FRAMES);
    if (chosen[0]?.frame !== 0) throw new FrameError('NO_FRAMES', 'Tessera cannot read this page');
    const caps = await Promise.allSettled(chosen.map((f) => this.frames.snapshot(tab, f)));
    const top = caps[0]!;
    if (top.status === 'rejected') throw top.reason;
    if (!/^https?:\/\//i.test(top.value.url)) throw new FrameError('UNSUPPORTED_PAGE', 'Tessera fills only web pages (http and https)');
    if (utf8Length(top.value.url) > MAX_URL_BYTES) throw new FrameError('UNSUPPORTED_PAGE', 'the address of this page is too long for Tessera');
    const page: PageInfo = { tab, url: top.value.url, title: top.value.title };
    const round: Round = { page, frames: [], infos: new Map(), hidden: new Map() };
    // What the request costs besides the frames: the envelope, the page and separators.
    let budget = MAX_REQUEST_BYTES - 1024 - utf8Length(JSON.stringify(page));
    let values = MAX_VALUES;
    chosen.forEach((info, i) => {
      const c = caps[i]!;
      if (c.status === 'rejected' || utf8Length(c.value.url) > MAX_URL_BYTES || utf8Length(c.value.origin) > MAX_URL_BYTES) return;
      const w = wireFrame(info, c.value);
      const cost = utf8Length(JSON.stringify(w)) + 1;
      const n = Object.keys(w.values).length;
      if (cost > budget || n > values) {
        if (info.frame === 0) throw new FrameError(Codes.TooLarge, 'this page is too large to send to Tessera (over 8 MiB)');
        return;
      }
      budget -= cost;
      values -= n;
      round.frames.push(w);
      round.infos.set(info.frame, { ...info, token: c.value.doc });
      round.hidden.set(info.frame, c.value.hidden);
    });
    return round;
  }

  /**
   * applyAll sends each frame its approved fields. A field for a frame or a
   * ref that was not in round (what the app was sent) is reported gone and
   * goes nowhere; so are the fields of a frame that cannot be reached.
   */
  async applyAll(tab: number, round: Round, fields: FillField[]): Promise<FieldOutcome[]> {
    const out: FieldOutcome[] = fields.map((f) => ({ frame: f.frame, ref: f.ref, outcome: 'gone' }));
    const byFrame = new Map<number, number[]>();
    fields.forEach((f, i) => {
      if (!round.infos.has(f.frame) || !Object.hasOwn(round.hidden.get(f.frame)!, f.ref)) return;
      const list = byFrame.get(f.frame) ?? [];
      list.push(i);
      byFrame.set(f.frame, list);
    });
    await Promise.all(
      [...byFrame].map(async ([frame, idx]) => {
        const apply: ApplyField[] = idx.map((i) => {
          const f = fields[i]!;
          const a: ApplyField = { ref: f.ref, kind: f.kind, value: f.value };
          if (f.expect !== undefined) a.expect = f.expect;
          return a;
        });
        let got: ApplyOutcome[];
        try {
          got = await this.frames.apply(tab, round.infos.get(frame)!, apply);
        } catch {
          return;
        }
        idx.forEach((i, k) => {
          const o = got[k];
          if (o?.ref === fields[i]!.ref && OUTCOMES.includes(o.outcome)) out[i]!.outcome = o.outcome;
        });
      }),
    );
    return out;
  }

  /** fromError turns why a fill could not go on into its report; a locked vault also asks the app to show its unlock screen. */
  private async fromError(e: unknown): Promise<FillReport> {
    if (!(e instanceof RpcError) && !(e instanceof FrameError)) {
      return failed(Codes.Internal, e instanceof Error ? e.message : String(e));
    }
    switch (e.code) {
      case Codes.Declined: {
        const reason = e instanceof RpcError ? e.data?.reason : undefined;
        return { status: 'declined', reason: typeof reason === 'string' ? reason : 'denied', message: e.message, fields: [] };
      }
      case Codes.VaultLocked:
        try {
          await this.native.call('vault.unlock');
        } catch {
          // The fill has failed either way; the message says what to do.
        }
        return failed(e.code, 'The Tessera vault is locked: unlock it in the Tessera app, then fill again.');
      case Codes.VaultUninitialized:
        return failed(e.code, 'There is no Tessera vault yet: set one up in the Tessera app.');
      case Codes.NotConnected:
        return failed(e.code, 'Not connected to the Tessera app.');
      case Codes.NotPaired:
        return failed(e.code, 'This browser is not paired with Tessera: pair it from the Tessera button in the toolbar.');
      default:
        return failed(e.code, e.message);
    }
  }
}

/**
 * addVisible adds round's visible refs to seen and reports whether any was
 * new: a control that appeared, or one that was hidden and now shows. New
 * hidden controls alone do not continue a fill (the app could not fill them
 * without asking again anyway).
 */
function addVisible(seen: Map<string, Set<string>>, round: Round): boolean {
  let added = false;
  for (const [frame, hidden] of round.hidden) {
    // A frame that navigated holds a new document whose refs start afresh.
    const info = round.infos.get(frame);
    const key = `${frame}/${info?.document ?? ''}/${info?.token ?? ''}`;
    let s = seen.get(key);
    if (s === undefined) seen.set(key, (s = new Set()));
    for (const [ref, reason] of Object.entries(hidden)) {
      if (reason !== '' || s.has(ref)) continue;
      s.add(ref);
      added = true;
    }
  }
  return added;
}
