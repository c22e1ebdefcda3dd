import { describe, expect, it } from "vitest";
import { TtlCache } from "../../src/lib/ttl-cache";

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
});
