// Settings' "Agents" card (app/agent_access.go): the sites the person
// opened to AI agents (issue 15) and the read-only page tools they let run
// there without asking, each with a button that takes it back. Both are
// kept in agent-access.json until taken back. Added to the Settings
// section from here, so the section's own file stays as it is. Tool names are the pages' words: set
// as text only.
import { uiBinding } from "./wails";
import { CardMessages, make, pollWhileShown } from "./dom";

/** AgentAccess is UI.AgentAccess's answer. */
export interface AgentAccess {
  sites: string[] | null;
  tools: { site: string; tool: string }[] | null;
}

interface AgentAccessBinding {
  AgentAccess(): Promise<AgentAccess>;
  CloseAgentSite(origin: string): Promise<AgentAccess>;
  UntrustAgentTool(origin: string, tool: string): Promise<AgentAccess>;
}

const binding = (): AgentAccessBinding => uiBinding<AgentAccessBinding>();

/** How often the open card reads Go again (an agent was let in meanwhile). */
const pollMs = 3000;

/** The card, appended to the Settings section's cards. */
export class AgentAccessCard {
  private readonly sites = make("ul", "sites");
  private readonly msg = new CardMessages<AgentAccess>((v) => this.render(v));
  private shown = "";

  constructor(settings: HTMLElement) {
    const card = make("section", "card");
    card.id = "agents-card";
    this.sites.id = "agent-sites";
    card.append(
      make("h2", "", "Agents"),
      make("p", "hint", "AI agents (through tessera mcp) may use the pages of the sites you opened to them, each call still waiting for your approval, except the read-only tools you let run without asking. Close a site, and agents must ask again. Tessera keeps these choices until you take them back here."),
      this.sites,
      this.msg.status,
      this.msg.error,
    );
    settings.append(card);
    pollWhileShown(settings, pollMs, () => this.load());
  }

  private async load(): Promise<void> {
    try {
      this.render(await binding().AgentAccess());
    } catch (e) {
      this.msg.fail(e);
    }
  }


  private render(a: AgentAccess): void {
    const key = JSON.stringify(a);
    if (key === this.shown) return;
    this.shown = key;
    this.msg.error.hidden = true;
    const sites = a.sites ?? [];
    const tools = a.tools ?? [];
    if (sites.length === 0) {
      this.sites.replaceChildren(make("li", "muted", "No site is open to agents. An agent asks you the first time it wants a site's page."));
      return;
    }
    this.sites.replaceChildren(
      ...sites.map((site) => {
        const li = make("li", "site");
        li.dataset.site = site;
        const grow = make("div", "grow");
        grow.append(make("span", "site-name", site));
        const trusted = tools.filter((t) => t.site === site);
        if (trusted.length === 0) {
          grow.append(make("span", "meta muted", "Every call asks you."));
        } else {
          const list = make("ul", "sites");
          for (const t of trusted) {
            const item = make("li", "site");
            item.dataset.tool = t.tool;
            const ask = make("button", "button", "Ask again");
            ask.type = "button";
            ask.setAttribute("aria-label", `Ask again before the tool ${t.tool} runs on ${site}`);
            ask.addEventListener("click", () => void this.msg.act(() => binding().UntrustAgentTool(site, t.tool), `The page's tool ${t.tool} asks you again on ${site}.`));
            item.append(make("span", "meta", `Runs without asking: the page's read-only tool "${t.tool}"`), ask);
            list.append(item);
          }
          grow.append(list);
        }
        const close = make("button", "button", "Close to agents");
        close.type = "button";
        close.setAttribute("aria-label", `Close ${site} to agents`);
        close.addEventListener("click", () => void this.msg.act(() => binding().CloseAgentSite(site), `${site} is closed to agents.`));
        li.append(grow, close);
        return li;
      }),
    );
  }


}
