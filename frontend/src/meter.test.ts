import { describe, expect, it } from "vitest";
import { meterText } from "./meter";

describe("meterText", () => {
  it("shows nothing for an empty field", () => {
    expect(meterText({ score: 0, acceptable: false, words: "" })).toEqual({ label: "", tone: "none" });
  });
  it("says a refused passphrase is bad, with Go's advice", () => {
    expect(meterText({ score: 1, acceptable: false, words: "weak", advice: "Easy to guess." })).toEqual({ label: "Strength: weak — Easy to guess.", tone: "bad" });
  });
  it("never calls acceptable what Go refused, whatever the score", () => {
    expect(meterText({ score: 4, acceptable: false, words: "too long", advice: "Use at most 1024 bytes." }).tone).toBe("bad");
  });
  it("tells strong from very strong", () => {
    expect(meterText({ score: 3, acceptable: true, words: "strong" })).toEqual({ label: "Strength: strong", tone: "ok" });
    expect(meterText({ score: 4, acceptable: true, words: "very strong" }).tone).toBe("good");
  });
});
