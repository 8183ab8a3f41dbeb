/** The toolbar popup: shows the connection to the Tessera app and the vault state, live. */
import { type BackgroundRequest, STATUS_PORT } from '../shared/messages';
import type { Status } from '../shared/native';
import { describe } from './describe';

function render(s: Status): void {
  const d = describe(s);
  const root = document.getElementById('status')!;
  root.dataset.state = s.state;
  root.dataset.tone = d.tone;
  document.getElementById('title')!.textContent = d.title;
  document.getElementById('hint')!.textContent = d.hint;
  document.getElementById('vault')!.textContent = d.vault;
  document.getElementById('detail')!.textContent = s.detail ?? '';
  document.getElementById('retry')!.hidden = !d.retry;
}

const port = chrome.runtime.connect({ name: STATUS_PORT });
port.onMessage.addListener((s) => render(s as Status));

document.getElementById('retry')!.addEventListener('click', () => {
  void chrome.runtime.sendMessage({ type: 'reconnect' } satisfies BackgroundRequest);
});
