import { describe, expect, it } from "vitest";
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
