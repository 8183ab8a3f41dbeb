/**
 * The popup's Formspec line: which Assist mode (§10) the active tab's page
 * is in, and why, as the page-world detection reported it.
 */
import type { Detection } from '../shared/formspec';

const NAMES = { 1: 'Formspec form with its own Assist provider', 2: 'Formspec form: Tessera provides Assist', 3: 'Plain form: heuristic filling' } as const;

/** describeMode is the popup's text for a detection (undefined: nothing reported yet). */
export function describeMode(d: Detection | undefined): { title: string; detail: string; mode: string } {
  if (!d) return { title: NAMES[3], detail: 'no Formspec form detected on this page', mode: '3' };
  const tools = d.tools.length > 0 ? ` · ${d.tools.length} tools` : '';
  const form = d.title || d.definitionUrl ? ` · ${d.title ?? d.definitionUrl}${d.definitionVersion ? ` ${d.definitionVersion}` : ''}` : '';
  return { title: `Mode ${d.mode}: ${NAMES[d.mode]}`, detail: `${d.why}${form}${tools}`, mode: String(d.mode) };
}

export async function showMode(): Promise<void> {
  const el = document.getElementById('formspec-mode');
  if (!el) return;
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  if (tab?.id === undefined) return;
  const r = (await chrome.runtime.sendMessage({ type: 'formspec', op: 'mode-of', tab: tab.id })) as { detection?: Detection } | undefined;
  const d = describeMode(r?.detection);
  el.dataset.mode = d.mode;
  el.textContent = d.title;
  el.title = d.detail;
  const detail = document.getElementById('formspec-why');
  if (detail) detail.textContent = d.detail;
}
