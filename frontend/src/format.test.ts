import { describe, expect, it } from "vitest";
import { ago, autoLockWords, changeWords, details, doneWords, sentence } from "./format";

describe("sentence", () => {
  it("capitalises and ends a Go error", () => {
    expect(sentence("unlock: wrong passphrase")).toBe("Unlock: wrong passphrase.");
    expect(sentence("done!")).toBe("Done!");
    expect(sentence("  ")).toBe("Something went wrong.");
  });
});

describe("details", () => {
  it("counts details", () => {
    expect(details(0)).toBe("No details yet");
    expect(details(1)).toBe("1 detail");
    expect(details(12)).toBe("12 details");
  });
});

describe("ago", () => {
  const now = Date.parse("2026-11-25T12:00:00Z");
  it("says just now, then minutes, hours, days", () => {
    expect(ago("2026-11-25T11:59:30Z", now)).toBe("just now");
    expect(ago("2026-11-25T11:55:00Z", now)).toMatch(/5 minutes ago/);
    expect(ago("2026-11-25T09:00:00Z", now)).toMatch(/3 hours ago/);
    expect(ago("2026-11-23T12:00:00Z", now)).toMatch(/2 days ago/);
  });
  it("gives a date past a week and nothing for nonsense", () => {
    expect(ago("2026-10-01T12:00:00Z", now)).not.toMatch(/ago/);
    expect(ago("not a time", now)).toBe("");
  });
});

describe("autoLockWords", () => {
  it("says minutes, hours and never", () => {
    expect(autoLockWords(1)).toBe("after 1 minute without use");
    expect(autoLockWords(15)).toBe("after 15 minutes without use");
    expect(autoLockWords(60)).toBe("after 1 hour without use");
    expect(autoLockWords(240)).toBe("after 4 hours without use");
    expect(autoLockWords(0)).toBe("never after a time without use");
  });
});

describe("import words", () => {
  it("counts what an import brings, conflicts kept beside", () => {
    expect(changeWords({ new: 3, same: 2, conflicts: 1 })).toBe("3 new · 2 already there · 1 conflict (kept beside yours)");
    expect(changeWords({ new: 0, same: 0, conflicts: 2 })).toBe("2 conflicts (kept beside yours)");
    expect(changeWords({ new: 0, same: 0, conflicts: 0 })).toBe("nothing to import");
  });
  it("says what an import did", () => {
    expect(doneWords({ profiles: 1, created: 0, learned: 3, unchanged: 2, candidates: 1 })).toBe(
      "Imported 1 profile: 3 values added, 1 kept beside yours for you to choose in the editor, 2 already there.",
    );
    expect(doneWords({ profiles: 2, created: 2, learned: 1, unchanged: 0, candidates: 0 })).toBe("Imported 2 profiles (2 new): 1 value added.");
  });
});
