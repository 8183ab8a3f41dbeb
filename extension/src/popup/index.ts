/**
 * The toolbar popup: the connection to the Tessera app and the vault state,
 * live; "Fill this page" for the active tab, with the fill's progress and
 * report (the fill runs in the service worker, so it goes on when the popup
 * closes as the app's dialog takes focus, and the report is here when the
 * popup opens again); "Unlock in Tessera" while the vault is locked.
 */
import { type BackgroundRequest, type FillProgress, type PopupUpdate, STATUS_PORT, type UnlockResult } from '../shared/messages';
import type { Status } from '../shared/native';
import { describe, describeFill } from './describe';
import { showMode } from './formspec';

const $ = (id: string): HTMLElement => document.getElementById(id)!;
let activeTab: number | undefined;

function renderStatus(s: Status): void {
  const d = describe(s);
  const root = $('status');
  root.dataset.state = s.state;
  root.dataset.tone = d.tone;
  $('title').textContent = d.title;
  $('hint').textContent = d.hint;
  $('vault').textContent = d.vault;
  $('detail').textContent = s.detail ?? '';
  $('retry').hidden = !d.retry;
  $('unlock').hidden = !d.unlock;
  $('pair').hidden = !d.pair;
  $('code').textContent = d.code ?? '';
  $('code').hidden = d.code === undefined;
}

function renderFill(p: FillProgress): void {
  // Another tab's fill is not this page's news.
  if (activeTab !== undefined && p.tab !== activeTab) return;
  const d = describeFill(p);
  $('fill').dataset.tone = d.tone;
  $('fill-title').textContent = d.title;
  $('fill-detail').textContent = d.detail;
  ($('fill-page') as HTMLButtonElement).disabled = d.busy;
}

function send(req: BackgroundRequest): Promise<unknown> {
  return chrome.runtime.sendMessage(req);
}

const port = chrome.runtime.connect({ name: STATUS_PORT });
const ready = chrome.tabs.query({ active: true, currentWindow: true }).then(([tab]) => {
  activeTab = tab?.id;
});
port.onMessage.addListener((u: PopupUpdate) => {
  if (u.kind === 'status') renderStatus(u.status);
  else void ready.then(() => renderFill(u.fill));
});

$('retry').addEventListener('click', () => void send({ type: 'reconnect' }));
$('pair').addEventListener('click', () => void send({ type: 'pair' }));
$('unlock').addEventListener('click', () => {
  void send({ type: 'unlock' }).then((r) => {
    // A headless app cannot show its unlock screen; its message says how to unlock.
    const u = r as Partial<UnlockResult> | undefined;
    if (u?.shown === false && typeof u.message === 'string') $('hint').textContent = u.message;
  });
});
$('fill-page').addEventListener('click', () => {
  void ready.then(() => {
    if (activeTab === undefined) return;
    // Progress and the report arrive on the port.
    void send({ type: 'fill', tab: activeTab });
  });
});

void showMode();
