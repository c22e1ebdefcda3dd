import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { expectError, seedOwner } from "../harness";

describe("per-key rate limit: 1,200 requests a minute (CONTRACT section 8)", () => {
  it("the 1,201st request of a key is a 429 with Retry-After; other keys are unaffected", async () => {
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
    const [{ id: keyId }] = ((await (await owner.fetch("GET", "/api-keys/")).json()) as { results: { id: string }[] }).results;
    const limiter = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(keyId));
    const window = Math.floor(Date.now() / 60_000);
    // Our own requests reach the object within a flush interval.
    await new Promise((r) => setTimeout(r, 150));
    expect((await owner.fetch("GET", "/users/current/")).status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(await limiter.add(window, 0)).toBeGreaterThanOrEqual(2);
    // Other isolates used up the rest of the minute.
    await limiter.add(window, 1200);
    await new Promise((r) => setTimeout(r, 150));
    await owner.fetch("GET", "/users/current/"); // flushes and learns the total
    await new Promise((r) => setTimeout(r, 50));
    await expectError(await owner.fetch("GET", "/users/current/"), 429, "throttled");
  });
});
