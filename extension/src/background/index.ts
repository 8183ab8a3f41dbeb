/**
 * The service worker: owns the one native port to the Tessera app, serves
 * the popup's requests, and pushes connection status to open popups.
 */
import { STATUS_PORT } from '../shared/messages';
import { NativeClient } from '../shared/native';
import { HOST_NAME } from '../shared/rpc';
import { selfFromRuntime, senderKind } from '../shared/sender';
import { browserInfo } from './clientinfo';
import { type HandlerTable, makeRouter } from './router';
import { installTestHooks } from './testhooks';

const ours = selfFromRuntime();

const client = new NativeClient({
  connect: () => chrome.runtime.connectNative(HOST_NAME),
  lastError: (port) => chrome.runtime.lastError?.message ?? (port as { error?: { message?: string } }).error?.message,
  client: {
    kind: 'browser',
    ...browserInfo(navigator.userAgent),
    extension: chrome.runtime.getManifest().version,
  },
});

const table: HandlerTable = {
  status: { from: ['page'], handle: () => client.status },
  reconnect: {
    from: ['page'],
    handle: () => {
      client.retryNow();
      return client.status;
    },
  },
};

chrome.runtime.onMessage.addListener(makeRouter(ours, table));

chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== STATUS_PORT || senderKind(port.sender, ours) !== 'page') {
    port.disconnect();
    return;
  }
  port.postMessage(client.status);
  const off = client.onStatus((s) => port.postMessage(s));
  port.onDisconnect.addListener(off);
});

if (__TESSERA_TEST__) installTestHooks(client);

client.start();
