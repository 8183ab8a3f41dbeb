import { describe, expect, it } from "vitest";
import { joinWords, spacedCode, syncWords } from "./synccard";

describe("syncWords", () => {
  it("says where sync stands", () => {
    expect(syncWords({ enabled: false, running: false }, 0)).toMatch(/not kept in step/);
    expect(syncWords({ enabled: false, running: false, problem: "the folder is gone" }, 0)).toBe("Sync could not start: the folder is gone");
    const status = { folder: "/home/ada/Sync", name: "laptop", devices: [] };
    expect(syncWords({ enabled: true, running: true, status }, 0)).toMatch(/^Kept in step through \/home\/ada\/Sync as "laptop", not synced yet/);
    expect(syncWords({ enabled: true, running: true, status: { ...status, lastError: "waiting for the sync tool" } }, 0)).toBe("The last sync failed: waiting for the sync tool");
  });
});

describe("joining by approval", () => {
  it("shows the code in two groups and says what to do", () => {
    expect(spacedCode("042917")).toBe("042 917");
    expect(joinWords({ folder: "/home/ada/Sync" })).toMatch(/^Asked to join through \/home\/ada\/Sync\. On a device already kept in step/);
    expect(joinWords({ folder: "/f", code: "042917" })).toMatch(/only if it shows this same code/);
    expect(joinWords({ folder: "/f", code: "042917", problem: "join: the request to join was declined on the other device" })).toMatch(/declined/);
    expect(syncWords({ enabled: false, running: false, joining: { folder: "/f" } }, 0)).toBe("Waiting to join the devices kept in step through /f.");
  });
});
