// What the confirmation dialog adds for an agent's question (PROTOCOL.md
// §4.3): whether an agent may use a site, and a page tool an agent wants to
// run. The page's description of its tool is the page's text: it is shown
// as a quotation, as text (never markup), and said to be the page's.
import type { Confirmation } from "./wails";

/** AgentAsk is app.AgentAsk. */
export interface AgentAsk {
  tool?: string;
  pageTool?: string;
  untrusted?: string;
  submit?: boolean;
  readOnly?: boolean;
}

/** The agent kinds' wording, keyed like the dialog's own. */
export const agentWording: Record<string, { title: string; lede: string; approve: (n: number) => string }> = {
  "agent-access": {
    title: "Let an agent use this site?",
    lede: "An AI agent asks to read the forms and use the tools of pages on",
    // The access is kept in agent-access.json across restarts of the app:
    // the button says how long it lasts, and it is not "while Tessera runs".
    approve: () => "Allow until I take it back",
  },
  "agent-call": {
    title: "Run this tool for the agent?",
    lede: "An AI agent asks to run a tool of the page on",
    approve: (n) => (n === 0 ? "Run it" : n === 1 ? "Run with 1 value" : `Run with ${n} values`),
  },
};

/** accessNote is what an agent-access dialog says the approval means. */
export const accessNote =
  "Until you close this site in Settings → Agents (closing or restarting Tessera does not close it), this agent (and any other you run) may list this site's form tools and ask to use them. Every fill and every tool call still asks you first.";

/** isAgentKind reports whether c is an agent's question: it may be approved with no row. */
export function isAgentKind(c: Confirmation): boolean {
  return Object.hasOwn(agentWording, c.kind);
}

function el(tag: string, cls: string, ...children: (string | Node)[]): HTMLElement {
  const e = document.createElement(tag);
  e.className = cls;
  e.append(...children);
  return e;
}

/** agentSection returns what an agent's question shows above its rows, or null for other kinds. */
export function agentSection(c: Confirmation): HTMLElement | null {
  if (!isAgentKind(c)) return null;
  const ask = ((c as Confirmation & { agent?: AgentAsk }).agent ?? {}) as AgentAsk;
  const s = el("section", "cf-section cf-agent");
  s.id = "cf-agent";
  if ((c.kind as string) === "agent-access") {
    s.append(el("p", "cf-note", accessNote));
    return s;
  }
  const name = el("p", "cf-agent-tool", "Tool ", el("strong", "mono", ask.pageTool ?? ""), ask.tool ? ` (the agent calls it ${ask.tool})` : "");
  s.append(name);
  const quote = el("blockquote", "cf-untrusted");
  quote.id = "cf-untrusted";
  quote.textContent = ask.untrusted || "(the page gives no description)";
  s.append(el("p", "cf-note", "The page describes it so. These are the page's words, not Tessera's; a page can say anything:"), quote);
  if (ask.readOnly) s.append(el("p", "cf-note", "The page says this tool only reads. \"Remember\" lets agents run it on this site without asking again, until you take it back in Settings."));
  if (ask.submit) s.append(el("p", "cf-note cf-warn", "The page lets agents submit this form: approving also submits it."));
  s.append(el("p", "cf-note", "The values below come from the agent, not from your profile."));
  return s;
}
