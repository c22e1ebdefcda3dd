import { describe, expect, it } from "vitest";
import { TtlCache } from "../../src/lib/ttl-cache";
import { BACKGROUND_DELAY_MS } from "../../src/lib/background";

describe("TtlCache", () => {
  it("remembers a value for its time to live, then loads again", async () => {
    const cache = new TtlCache<string>(1_000);
    cache.set("k", "old", 10_000);
    expect(cache.get("k", 10_999)).toBe("old");
    expect(cache.get("k", 11_000)).toBeUndefined();
    let loads = 0;
    const load = async () => `v${++loads}`;
    expect(await cache.remember("a", load)).toBe("v1");
    expect(await cache.remember("a", load)).toBe("v1");
    expect(loads).toBe(1);
    // Nothing found is not remembered: the next call looks again.
    let found: string | undefined;
    expect(await cache.remember("b", async () => found)).toBeUndefined();
    found = "now there";
    expect(await cache.remember("b", async () => found)).toBe("now there");
  });

  it("does not remember a load that was under way when it forgot (it may have read what changed)", async () => {
    const cache = new TtlCache<string>(60_000);
    let finish!: (v: string) => void;
    const pending = cache.remember("k", () => new Promise<string>((resolve) => (finish = resolve)));
    cache.clear();
    finish("read before the change");
    expect(await pending).toBe("read before the change");
    expect(cache.get("k")).toBeUndefined();
    expect(await cache.remember("k", async () => "fresh")).toBe("fresh");
    expect(cache.get("k")).toBe("fresh");
  });

  it("forgets the entries a predicate picks, and the oldest beyond its size", () => {
    const cache = new TtlCache<{ user: string }>(60_000, 2);
    cache.set("a", { user: "u1" });
    cache.set("b", { user: "u2" });
    cache.deleteWhere((v) => v.user === "u1");
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("b")).toEqual({ user: "u2" });
    cache.set("c", { user: "u3" });
    cache.set("d", { user: "u4" });
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("d")).toEqual({ user: "u4" });
  });

  it(
    "reads a value used in the second half of its time again in the background, remembered from when that read " +
      "started",
    async () => {
      const cache = new TtlCache<string>(1_000);
      let loads = 0;
      let stored = "v1";
      const load = async () => (loads++, stored);
      expect(await cache.remember("k", load, 10_000)).toBe("v1");
      // First half: the value as it is, no read.
      expect(await cache.remember("k", load, 10_400)).toBe("v1");
      await cache.refreshed();
      expect(loads).toBe(1);
      // Second half: the value as it is now, and one read behind it (not one per use).
      stored = "v2";
      expect(await cache.remember("k", load, 10_600)).toBe("v1");
      expect(await cache.remember("k", load, 10_700)).toBe("v1");
      await cache.refreshed();
      expect(loads).toBe(2);
      // Remembered as of 10_600: current until 11_600, though the first read would have ended at 11_000.
      expect(cache.get("k", 11_500)).toBe("v2");
      expect(cache.get("k", 11_600)).toBeUndefined();
    },
  );

  it(
    "forgets a value its background read no longer finds (a revoked key fails its next request), and one " +
      "forgotten meanwhile",
    async () => {
      const cache = new TtlCache<string>(1_000);
      let found: string | undefined = "key";
      const load = async () => found;
      await cache.remember("k", load, 10_000);
      found = undefined;
      expect(await cache.remember("k", load, 10_900)).toBe("key");
      await cache.refreshed();
      expect(cache.get("k", 10_901)).toBeUndefined();

      let finish!: (v: string) => void;
      await cache.remember("j", async () => "old", 20_000);
      expect(await cache.remember("j", () => new Promise<string>((resolve) => (finish = resolve)), 20_600)).toBe("old");
      await new Promise((r) => setTimeout(r, BACKGROUND_DELAY_MS + 5)); // the read starts in the background
      cache.deleteWhere((v) => v === "another"); // something else changed: this read may predate it
      finish("read before the change");
      await cache.refreshed();
      expect(cache.get("j", 20_601)).toBe("old");
    },
  );

  it("a failed background read leaves the value to expire as it would have", async () => {
    const cache = new TtlCache<string>(1_000);
    await cache.remember("k", async () => "v1", 10_000);
    expect(await cache.remember("k", async () => Promise.reject(new Error("D1 down")), 10_800)).toBe("v1");
    await cache.refreshed();
    expect(cache.get("k", 10_999)).toBe("v1");
    expect(cache.get("k", 11_000)).toBeUndefined();
  });
});
