import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { expectError, seedOwner } from "../harness";
import { bodyOf } from "../support/api";

describe("per-key rate limit: 1,200 requests a minute (CONTRACT section 8)", () => {
  it("the 1,201st request of a key is a 429 with Retry-After; other keys are unaffected", async () => {
    // All of it within one minute's window: a new minute starts a new count.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 10_000) await new Promise((r) => setTimeout(r, left + 50));
    const owner = await seedOwner();
    const other = await seedOwner();
    const statuses: number[] = [];
    for (let batch = 0; batch < 12; batch++) {
      const responses = await Promise.all(Array.from({ length: 100 }, () => owner.fetch("GET", "/users/current/")));
      statuses.push(...responses.map((r) => r.status));
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const throttled = await owner.fetch("GET", "/users/current/");
    await expectError(throttled, 429, "throttled");
    expect(Number(throttled.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await other.fetch("GET", "/users/current/")).status).toBe(200);
  });
});

describe("the limit is shared across isolates through the key's RateLimiter object", () => {
  it("requests counted elsewhere in the window throttle this isolate after its next flush", async () => {
    const owner = await seedOwner();
    expect((await owner.fetch("GET", "/users/current/")).status).toBe(200);
    const [{ id: keyId }] = (await bodyOf<"GET /api-keys/">(await owner.fetch("GET", "/api-keys/"))).results;
    const limiter = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(keyId));
    let window = Math.floor(Date.now() / 60_000);
    // Our own requests reach the object within a flush interval or so.
    let total = 0;
    for (let i = 0; i < 40 && total < 2; i++) {
      await new Promise((r) => setTimeout(r, 120));
      expect((await owner.fetch("GET", "/users/current/")).status).toBe(200);
      total = await limiter.add(window, 0);
    }
    expect(total).toBeGreaterThanOrEqual(2);
    // Other isolates used up the rest of the minute: this isolate learns it at a flush and throttles.
    await limiter.add(window, 1200);
    let status = 200;
    let sent = 0;
    while (status === 200 && sent < 40) {
      await new Promise((r) => setTimeout(r, 120));
      const now = Math.floor(Date.now() / 60_000);
      if (now !== window) await limiter.add((window = now), 1200); // the minute turned: fill the new one

      status = (await owner.fetch("GET", "/users/current/")).status;
      sent++;
    }
    expect(status).toBe(429);
  });
});

describe("the RateLimiter object's count", () => {
  it("a late flush of a minute that has ended neither counts nor resets the current minute", async () => {
    const limiter = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(crypto.randomUUID()));
    const window = Math.floor(Date.now() / 60_000);
    expect(await limiter.add(window, 5)).toBe(5);
    expect(await limiter.add(window - 1, 3)).toBe(0);
    expect(await limiter.add(window, 2)).toBe(7);
    expect(await limiter.add(window + 1, 1)).toBe(1);
  });
});
