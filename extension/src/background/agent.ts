/**
 * The app's requests on behalf of agents (PROTOCOL.md §4.3): the browser's
 * tabs, a tab measured as for a fill, approved values applied, an approved
 * form submitted, the tools a page registered read and run. The app has
 * already checked the agent, the site and the person's approval; this side
 * checks what only the browser can (that the tab is still on the origin
 * the app approved) and bounds what the page answers.
 */
import type { FillField } from '../shared/fill';
import { type ContentRequest, isFailure } from '../shared/messages';
import { RpcError } from '../shared/rpc';
import { formToolEvent, submitFormTool } from '../page/formtool';
import { readPageTools, runPageTool } from '../page/webmcp';
import type { Round } from './fill';

/** Measurer is the part of Filler agents use. */
export interface Measurer {
  measure(tab: number): Promise<Round>;
  applyAll(tab: number, round: Round, fields: FillField[]): Promise<unknown>;
}

/** MAX_SNAPSHOTS is how many measurements are kept for browser.apply. */
const MAX_SNAPSHOTS = 8;
/** MAX_PAGE_ANSWER bounds what a page's tools may answer (bytes of JSON). */
const MAX_PAGE_ANSWER = 2 * 1024 * 1024;
/** RESPONSE_WAIT_MS bounds how long a form's respondWith() promise is waited for. */
export const RESPONSE_WAIT_MS = 10_000;
/** MAX_RESPONSE bounds a form's respondWith() answer (characters). */
export const MAX_RESPONSE = 256 * 1024;

function bad(message: string): RpcError {
  return new RpcError('INVALID_PARAMS', message, -32602);
}

function obj(p: unknown): Record<string, unknown> {
  if (typeof p !== 'object' || p === null || Array.isArray(p)) throw bad('params must be an object');
  return p as Record<string, unknown>;
}

function tabOf(p: Record<string, unknown>): number {
  const t = p.tab;
  if (typeof t !== 'number' || !Number.isInteger(t) || t < 0) throw bad('tab must be a tab id');
  return t;
}

function originOf(url: string | undefined): string {
  try {
    const u = new URL(url ?? '');
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : '';
  } catch {
    return '';
  }
}

/** Agents serves the app's agent requests. */
export class Agents {
  private readonly snapshots = new Map<string, { tab: number; round: Round }>();
  private seq = 0;

  private readonly lastChange = new Map<number, number>();
  /** pending are the tabs whose change came too soon and is told at the end of the gap. */
  private readonly pending = new Set<number>();

  constructor(
    private readonly filler: Measurer,
    private readonly notify: (method: string, params: unknown) => void = () => {},
  ) {}

  /** toolsChanged tells the app that the top page of sender's tab changed its tools, at most once a second per tab. */
  toolsChanged(sender: chrome.runtime.MessageSender): { accepted: boolean } {
    const tab = sender.tab?.id;
    if (tab === undefined || sender.frameId !== 0) return { accepted: false };
    return { accepted: this.changed(tab, sender.tab?.url ?? '') };
  }

  /**
   * frameCommitted tells the app that a child frame of a tab navigated (its
   * forms, which agents may see, changed), under the same once-a-second
   * bound per tab; the top frame's navigations are the tab's own
   * (watchTabs).
   */
  frameCommitted(d: { tabId: number; frameId: number; url?: string }): boolean {
    if (d.frameId === 0 || !Number.isInteger(d.tabId) || d.tabId < 0) return false;
    return this.changed(d.tabId, undefined);
  }

  /** changed tells browser.changed for tab, at most once a second; one that comes sooner is told at the end of the gap. */
  private changed(tab: number, url: string | undefined): boolean {
    const params = url === undefined ? { tab } : { tab, url };
    const now = Date.now();
    const wait = MIN_CHANGE_GAP_MS - (now - (this.lastChange.get(tab) ?? 0));
    if (wait > 0) {
      // Too soon after the last: told once at the end of the gap, so the
      // last change of a burst is never lost (agents list after it).
      if (!this.pending.has(tab) && this.pending.size < 1000) {
        this.pending.add(tab);
        setTimeout(() => {
          this.pending.delete(tab);
          this.lastChange.set(tab, Date.now());
          this.notify('browser.changed', params);
        }, wait);
      }
      return false;
    }
    this.lastChange.set(tab, now);
    if (this.lastChange.size > 1000) this.lastChange.clear();
    this.notify('browser.changed', params);
    return true;
  }

  /** handle answers one request from the app; it rejects with an RpcError. */
  async handle(method: string, params: unknown): Promise<unknown> {
    switch (method) {
      case 'browser.tabs':
        return this.tabs();
      case 'browser.snapshot':
        return this.snapshot(tabOf(obj(params)));
      case 'browser.apply':
        return this.apply(obj(params));
      case 'browser.submit':
        return this.submit(obj(params));
      case 'browser.tools':
        return this.tools(obj(params));
      case 'browser.execute':
        return this.execute(obj(params));
      case 'browser.toolevent':
        return this.toolEvent(obj(params));
      case 'browser.submittool':
        return this.submitTool(obj(params));
      default:
        throw new RpcError('METHOD_NOT_FOUND', `unknown method ${method}`, -32601);
    }
  }

  private async tabs(): Promise<unknown> {
    const all = await chrome.tabs.query({});
    const focused = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    const active = new Set(focused.map((t) => t.id));
    return {
      tabs: all
        .filter((t) => t.id !== undefined && t.id >= 0)
        .slice(0, 500)
        .map((t) => ({ tab: t.id, window: t.windowId, url: t.url ?? '', title: t.title ?? '', active: active.has(t.id) })),
    };
  }

  private async snapshot(tab: number): Promise<unknown> {
    let round: Round;
    try {
      round = await this.filler.measure(tab);
    } catch (e) {
      throw new RpcError('NOT_FOUND', e instanceof Error ? e.message : String(e), -32020);
    }
    const id = `x${++this.seq}`;
    this.snapshots.set(id, { tab, round });
    for (const k of this.snapshots.keys()) {
      if (this.snapshots.size <= MAX_SNAPSHOTS) break;
      this.snapshots.delete(k);
    }
    return { snapshot: id, page: round.page, frames: round.frames };
  }

  private measured(p: Record<string, unknown>): { tab: number; round: Round } {
    const tab = tabOf(p);
    const s = typeof p.snapshot === 'string' ? this.snapshots.get(p.snapshot) : undefined;
    if (s === undefined || s.tab !== tab) throw new RpcError('NOT_FOUND', 'no such measurement of this tab: measure it again', -32020);
    return s;
  }

  private async apply(p: Record<string, unknown>): Promise<unknown> {
    const { tab, round } = this.measured(p);
    if (!Array.isArray(p.fields)) throw bad('fields must be an array');
    // applyAll fills only refs of that measurement, each in the document
    // measured, and reports the rest gone.
    return { fields: await this.filler.applyAll(tab, round, p.fields as FillField[]) };
  }

  private async submit(p: Record<string, unknown>): Promise<unknown> {
    const { tab, round } = this.measured(p);
    const frame = typeof p.frame === 'number' ? round.infos.get(p.frame) : undefined;
    if (frame === undefined || typeof p.ref !== 'string') throw bad('frame and ref must name a measured control');
    const opts = frame.document !== undefined ? { documentId: frame.document } : { frameId: frame.frame };
    // The token pins the submit to the document measured (Firefox addresses frames only).
    const answer: unknown = await chrome.tabs.sendMessage(tab, { type: 'submit', ref: p.ref, doc: frame.token ?? '' } satisfies ContentRequest, opts);
    if (isFailure(answer)) throw new RpcError(answer.error.code === 'NOT_FOUND' ? 'NOT_FOUND' : 'INTERNAL', answer.error.message);
    return answer;
  }

  /**
   * frameDocument returns the document of frame (the top one unless
   * inFrames allows another) of tab when it is still on origin, so a
   * script runs in exactly the document the app approved: a frame that
   * navigated to another site is not the one the person opened.
   */
  private async frameDocument(p: Record<string, unknown>, inFrames: boolean): Promise<{ tab: number; frame: number; doc?: string }> {
    const tab = tabOf(p);
    const frame = p.frame === undefined ? 0 : p.frame;
    if (typeof frame !== 'number' || !Number.isInteger(frame) || frame < 0) throw bad('frame must be a frame id');
    // Imperative page tools are the top-level document's (WebMCP).
    if (frame !== 0 && !inFrames) throw bad("a page's registered tools run in its top frame only");
    let f: chrome.webNavigation.GetFrameResultDetails | null;
    try {
      f = await chrome.webNavigation.getFrame({ tabId: tab, frameId: frame });
    } catch {
      f = null;
    }
    if (f === null || typeof p.origin !== 'string' || originOf(f.url) !== p.origin) {
      throw new RpcError('NOT_EXPOSED', frame === 0 ? 'the tab is no longer on the site the person opened to agents' : `frame ${frame} is no longer on the site the person opened to agents`, -32033);
    }
    return { tab, frame, doc: (f as { documentId?: string }).documentId };
  }

  private async inPage<A extends unknown[]>(p: Record<string, unknown>, func: (...args: A) => Promise<string>, args: A, inFrames = false): Promise<string | null> {
    const { tab, frame, doc } = await this.frameDocument(p, inFrames);
    const target = doc !== undefined ? { tabId: tab, documentIds: [doc] } : { tabId: tab, frameIds: [frame] };
    // A document that goes away (navigates, closes) while its script runs
    // does not always fail the injection: its leaving ends the wait.
    let stop = (): void => {};
    const gone = new Promise<null>((resolve) => {
      const committed = (d: chrome.webNavigation.WebNavigationTransitionCallbackDetails): void => {
        if (d.tabId === tab && d.frameId === frame) resolve(null);
      };
      const removed = (id: number): void => {
        if (id === tab) resolve(null);
      };
      chrome.webNavigation.onCommitted.addListener(committed);
      chrome.tabs.onRemoved.addListener(removed);
      stop = () => {
        chrome.webNavigation.onCommitted.removeListener(committed);
        chrome.tabs.onRemoved.removeListener(removed);
      };
    });
    let res: chrome.scripting.InjectionResult<Awaited<string>>[] | null;
    try {
      res = await Promise.race([chrome.scripting.executeScript({ target, world: 'MAIN', func, args }), gone]);
    } catch {
      // The document went away before it answered.
      res = null;
    } finally {
      stop();
    }
    const r = res?.[0]?.result;
    if (typeof r !== 'string') return null;
    if (r.length > MAX_PAGE_ANSWER) throw new RpcError('TOO_LARGE', 'the page answered more than 2 MiB', -32003);
    return r;
  }

  private async tools(p: Record<string, unknown>): Promise<unknown> {
    const r = await this.inPage(p, readPageTools, []);
    if (r === null) return { api: '', tools: [] };
    return JSON.parse(r) as unknown;
  }

  private async execute(p: Record<string, unknown>): Promise<unknown> {
    if (typeof p.name !== 'string' || typeof p.input !== 'object' || p.input === null) throw bad('name and input are required');
    const r = await this.inPage(p, runPageTool, [p.name, JSON.stringify(p.input)]);
    if (r === null) return { result: null };
    const a = JSON.parse(r) as { ok?: unknown; result?: unknown; error?: unknown };
    if (a.ok !== true) throw new RpcError('ENGINE_ERROR', `the page's tool failed: ${String(a.error).slice(0, 2000)}`, -32026);
    return { result: typeof a.result === 'string' || a.result === null ? a.result : '' };
  }

  /** toolEvent fires toolactivated or toolcancel at the page's form tool; what the page does with it is its own affair. */
  private async toolEvent(p: Record<string, unknown>): Promise<unknown> {
    if (typeof p.name !== 'string' || (p.event !== 'toolactivated' && p.event !== 'toolcancel')) throw bad('name and event (toolactivated or toolcancel) are required');
    const r = await this.inPage(p, formToolEvent, [p.name, p.event], true);
    return { fired: r !== null && r.startsWith('{"ok":true') };
  }

  /** submitTool submits the page's form tool for an agent, with SubmitEvent.agentInvoked and respondWith(). */
  private async submitTool(p: Record<string, unknown>): Promise<unknown> {
    if (typeof p.name !== 'string') throw bad('name is required');
    return readSubmitAnswer(await this.inPage(p, submitFormTool, [p.name, RESPONSE_WAIT_MS, MAX_RESPONSE], true));
  }
}

export interface SubmitToolAnswer {
  submitted: boolean;
  responded: boolean;
  response?: string;
  json?: boolean;
}

/**
 * readSubmitAnswer checks what submitFormTool answered (the page's word):
 * the shape, and the response's size again, whatever the page's world did
 * to its own JSON or timers. A rejected or late response is an error.
 */
export function readSubmitAnswer(r: string | null): SubmitToolAnswer {
  // The document left (the form's action navigated) before it answered.
  if (r === null) return { submitted: true, responded: false };
  let a: unknown;
  try {
    a = JSON.parse(r);
  } catch {
    throw new RpcError('ENGINE_ERROR', 'the page answered something that is not JSON', -32026);
  }
  const o = (typeof a === 'object' && a !== null ? a : {}) as Record<string, unknown>;
  if (o.ok !== true) throw new RpcError('ENGINE_ERROR', `the page's response failed: ${String(o.error).slice(0, 2000)}`, -32026);
  if (o.responded !== true) return { submitted: o.submitted === true, responded: false };
  if (typeof o.response !== 'string') throw new RpcError('ENGINE_ERROR', "the page's response is not text", -32026);
  if (o.response.length > MAX_RESPONSE) throw new RpcError('TOO_LARGE', `the page's response is over ${MAX_RESPONSE} characters`, -32003);
  return { submitted: true, responded: true, response: o.response, json: o.json === true };
}

/** MIN_CHANGE_GAP_MS is the least time between two tool changes reported for one tab (a page cannot flood the app). */
const MIN_CHANGE_GAP_MS = 1000;

/** watchTabs tells the app when a tab navigated, was activated or closed, so agents list their tools again. */
export function watchTabs(notify: (method: string, params: unknown) => void): void {
  chrome.tabs.onUpdated.addListener((tab, info, t) => {
    if (info.url !== undefined || info.status === 'complete') notify('browser.changed', { tab, url: t.url ?? '' });
  });
  chrome.tabs.onActivated.addListener(({ tabId }) => notify('browser.changed', { tab: tabId }));
  chrome.tabs.onRemoved.addListener((tab) => notify('browser.changed', { tab, closed: true }));
}
