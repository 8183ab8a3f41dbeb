import { describe, expect, it } from "vitest";
import { dialogWords, reasonText } from "./confirm";

describe("dialog words", () => {
  // Issue 23: a page's script that asks to learn (Formspec profile.learn)
  // got a dialog saying "You submitted…".
  it("never claims a submit the page's script asked for", () => {
    expect(dialogWords({ kind: "learn" }).lede).toMatch(/^You submitted/);
    expect(dialogWords({ kind: "learn", pageInitiated: true }).lede).not.toMatch(/submitted/i);
    expect(dialogWords({ kind: "learn", pageInitiated: true }).approve(2)).toBe("Save 2 values");
    expect(dialogWords({ kind: "fill", pageInitiated: true }).title).toBe("Fill this form?");
  });
  it("says why a Formspec field is not ticked", () => {
    expect(reasonText("no control: Tessera found no field on the page for this one", undefined)).toMatch(/^Not on the page/);
    expect(reasonText("hidden: transparent", undefined)).toBe("Hidden: the field is transparent");
    expect(reasonText("does not fit: the form's options or rules do not take this value", undefined)).toMatch(/^Does not fit/);
  });
});
