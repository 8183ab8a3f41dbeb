import { describe, expect, it } from "vitest";
import { learnLede } from "./confirm";

// Regression (issue 23): every learn dialog said "You submitted…", also
// when the page itself asked to learn (no submit of the person's).
describe("learnLede", () => {
  it("claims a submit only when the person made one", () => {
    expect(learnLede({ submitted: true })).toMatch(/^You submitted/);
    for (const c of [{}, { submitted: false }]) {
      expect(learnLede(c)).not.toMatch(/you submitted/i);
      expect(learnLede(c)).toMatch(/The page, not you/);
    }
  });
});
