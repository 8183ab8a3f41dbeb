import { describe, expect, it } from "vitest";
import { syncWords } from "./synccard";

describe("syncWords", () => {
  it("says where sync stands", () => {
    expect(syncWords({ enabled: false, running: false }, 0)).toMatch(/not kept in step/);
    expect(syncWords({ enabled: false, running: false, problem: "the folder is gone" }, 0)).toBe("Sync could not start: the folder is gone");
    const status = { folder: "/home/ada/Sync", name: "laptop", devices: [] };
    expect(syncWords({ enabled: true, running: true, status }, 0)).toMatch(/^Kept in step through \/home\/ada\/Sync as "laptop", not synced yet/);
    expect(syncWords({ enabled: true, running: true, status: { ...status, lastError: "waiting for the sync tool" } }, 0)).toBe("The last sync failed: waiting for the sync tool");
  });
});
