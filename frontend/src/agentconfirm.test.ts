import { describe, expect, it } from "vitest";
import { accessNote, agentWording } from "./agentconfirm";

// Regression (issue 23): the agent-access button said "Allow while Tessera
// runs", but the access is kept across restarts until the person takes it
// back in Settings.
describe("agent-access wording", () => {
  const w = agentWording["agent-access"]!;
  const said = [w.title, w.lede, w.approve(0), accessNote];
  it("never says the access ends with the app", () => {
    for (const s of said) {
      expect(s).not.toMatch(/while Tessera runs|until Tessera (quits|stops|closes|exits)|this session|until (you )?restart/i);
    }
  });
  it("says it lasts until the person takes it back", () => {
    expect(w.approve(0)).toBe("Allow until I take it back");
    expect(accessNote).toMatch(/Settings/);
    expect(accessNote).toMatch(/restarting Tessera does not close it/);
  });
});
