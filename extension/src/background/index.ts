/**
 * The service worker: owns the one native port to the Tessera app, runs
 * fills (toolbar popup, context menu on editable fields, the fill-page
 * command, and globalThis.tessera.fill for automation), sends submitted
 * forms for learning, and pushes connection and fill state to open popups.
 */
import type { FillReport } from '../shared/fill';
import { type PopupUpdate, STATUS_PORT, TEST_PORT, type UnlockResult } from '../shared/messages';
import { NativeClient, type Status } from '../shared/native';
import { Pairing, idbInstallStore } from '../shared/pairing';
import { HOST_NAME } from '../shared/rpc';
import { selfFromRuntime, senderKind } from '../shared/sender';
import { Agents, watchTabs } from './agent';
import { engineFor } from './engine';
import { Filler } from './fill';
import { Formspec } from './formspec';
import { browserFrames, parentOf } from './frames';
import { Learner } from './learn';
import { type HandlerTable, makeRouter } from './router';
import { installTestHooks } from './testhooks';

/** MENU_ID is the context-menu item on editable fields; COMMAND the manifest command that fills the active tab. */
const MENU_ID = 'tessera-fill';
const COMMAND = 'fill-page';

const ours = selfFromRuntime();
const engine = engineFor(navigator.userAgent);

const client = new NativeClient({
  connect: () => chrome.runtime.connectNative(HOST_NAME),
  lastError: engine.portError,
  client: { kind: 'browser', name: engine.name, version: engine.version, extension: chrome.runtime.getManifest().version },
  pairing: new Pairing(idbInstallStore()),
});

const popups = new Set<chrome.runtime.Port>();
function push(u: PopupUpdate): void {
  for (const p of popups) {
    try {
      p.postMessage(u);
    } catch {
      // A popup closing right now: its onDisconnect removes it.
      popups.delete(p);
    }
  }
}

const filler = new Filler(client, browserFrames(engine.pinDocuments), (fill) => push({ kind: 'fill', fill }));
const learner = new Learner(client, parentOf);
const formspec = new Formspec(client, (fill) => push({ kind: 'fill', fill }));
/** fillTab fills a tab: through the page's own Assist provider in Formspec mode 1, else the fill-with-consent loop. */
const fillTab = (tab: number): Promise<FillReport> => (formspec.isProvider(tab) ? formspec.consume(tab) : filler.fill(tab));
const agents = new Agents(filler, (method, params) => client.notify(method, params));
client.onRequest((method, params) => agents.handle(method, params));
watchTabs((method, params) => client.notify(method, params));

const table: HandlerTable = {
  status: { from: ['page'], handle: () => client.status },
  reconnect: {
    from: ['page'],
    handle: () => {
      client.retryNow();
      return client.status;
    },
  },
  fill: { from: ['page'], handle: (req) => fillTab(req.tab) },
  unlock: { from: ['page'], handle: async () => (await client.call('vault.unlock')) as UnlockResult },
  pair: {
    from: ['page'],
    handle: () => {
      client.pairNow();
      return client.status;
    },
  },
  submitted: { from: ['content'], handle: (req, sender) => learner.submitted(sender, req.frame, req.gesture) },
  formspec: { from: ['content', 'page'], handle: (req, sender) => formspec.handle(req, sender) },
  toolsChanged: { from: ['content'], handle: (_req, sender) => agents.toolsChanged(sender) },
};
chrome.tabs.onRemoved.addListener((tab) => formspec.forget(tab));
// A document committed: a new top document has not been detected yet (its
// probe may inject anew), and a child frame's navigation makes agents list
// its forms again.
chrome.webNavigation.onCommitted.addListener((d) => {
  if (d.frameId === 0) formspec.forget(d.tabId, (d as { documentId?: string }).documentId);
  agents.frameCommitted(d);
});

chrome.runtime.onMessage.addListener(makeRouter(ours, table));

chrome.runtime.onConnect.addListener((port) => {
  // The test build's page bridge: served by testhooks.ts.
  if (__TESSERA_TEST__ && port.name === TEST_PORT) return;
  if (port.name !== STATUS_PORT || senderKind(port.sender, ours) !== 'page') {
    port.disconnect();
    return;
  }
  popups.add(port);
  port.postMessage({ kind: 'status', status: client.status } satisfies PopupUpdate);
  if (filler.last) port.postMessage({ kind: 'fill', fill: filler.last } satisfies PopupUpdate);
  port.onDisconnect.addListener(() => popups.delete(port));
});
client.onStatus((status) => push({ kind: 'status', status }));

async function fillActive(tab?: chrome.tabs.Tab): Promise<void> {
  const id = tab?.id ?? (await chrome.tabs.query({ active: true, currentWindow: true }))[0]?.id;
  if (id !== undefined && id >= 0) await fillTab(id);
}

chrome.runtime.onInstalled.addListener(() => {
  chrome.contextMenus.create({ id: MENU_ID, title: 'Fill with Tessera', contexts: ['editable'] }, () => {
    // Already there after an update: nothing to do.
    void chrome.runtime.lastError;
  });
});
chrome.contextMenus.onClicked.addListener((info, tab) => {
  if (info.menuItemId === MENU_ID) void fillActive(tab);
});
chrome.commands.onCommand.addListener((command, tab) => {
  if (command === COMMAND) void fillActive(tab);
});

/** TesseraGlobal is globalThis.tessera in the service worker: the automation entry point, shipped. */
export interface TesseraGlobal {
  /** fill fills the tab (as the popup's button does) and resolves when the fill has ended. */
  fill(tabId: number): Promise<FillReport>;
  status(): Status;
  /** formspecMode is the Formspec Assist mode detected in a tab, and why (issue 14). */
  formspecMode(tabId: number): Promise<unknown>;
}
(globalThis as { tessera?: TesseraGlobal }).tessera = {
  fill: (tabId) => fillTab(tabId),
  status: () => client.status,
  formspecMode: (tabId) => formspec.handle({ type: 'formspec', op: 'mode-of', tab: tabId }, undefined),
};

if (__TESSERA_TEST__) installTestHooks(client, filler, ours);

client.start();
