/**
 * Sender checks for runtime messages. Every listener calls senderKind first
 * and drops the message when it returns null: only this extension's own pages
 * and content scripts may talk to it.
 */

/** SenderKind says which part of the extension a message came from. */
export type SenderKind = 'page' | 'content';

/** Self identifies this extension: its ID and its origin ("chrome-extension://<id>/"). */
export interface Self {
  id: string;
  origin: string;
}

/**
 * senderKind classifies a runtime message sender: 'page' for this
 * extension's own pages (popup, options), 'content' for its content scripts
 * in a tab, null for anything else — other extensions, web pages (via
 * externally_connectable), or a sender without an ID.
 */
export function senderKind(sender: chrome.runtime.MessageSender | undefined, self: Self): SenderKind | null {
  if (sender === undefined || sender.id !== self.id) return null;
  if (sender.tab !== undefined) {
    // A content script reports the tab's URL; our own pages opened in a tab
    // report our origin.
    return sender.url?.startsWith(self.origin) ? 'page' : 'content';
  }
  if (sender.url === undefined || !sender.url.startsWith(self.origin)) return null;
  return 'page';
}

/** selfFromRuntime reads Self from chrome.runtime. */
export function selfFromRuntime(): Self {
  return { id: chrome.runtime.id, origin: chrome.runtime.getURL('') };
}
