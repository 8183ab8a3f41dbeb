import { describe, expect, it } from "vitest";
import { dialogWords, reasonText } from "./confirm";

describe("dialog words", () => {
  // Issue 23: every learn dialog said "You submitted…", also when the page
  // itself submitted or asked to learn (Formspec profile.learn).
  it("claims a submit only when the person made one", () => {
    expect(dialogWords({ kind: "learn", submitted: true }).lede).toMatch(/^You submitted/);
    const learn = "learn" as const;
    for (const c of [{ kind: learn }, { kind: learn, submitted: false }, { kind: learn, pageInitiated: true }, { kind: learn, pageInitiated: true, submitted: true }]) {
      expect(dialogWords(c).lede).not.toMatch(/you submitted/i);
      expect(dialogWords(c).lede).toMatch(/The page, not you/);
    }
    expect(dialogWords({ kind: "learn", pageInitiated: true }).approve(2)).toBe("Save 2 values");
    expect(dialogWords({ kind: "fill", pageInitiated: true }).title).toBe("Fill this form?");
  });
  it("says why a Formspec field is not ticked", () => {
    expect(reasonText("no control: Tessera found no field on the page for this one", undefined)).toMatch(/^Not on the page/);
    expect(reasonText("hidden: transparent", undefined)).toBe("Hidden: the field is transparent");
    expect(reasonText("does not fit: the form's options or rules do not take this value", undefined)).toMatch(/^Does not fit/);
  });
});
