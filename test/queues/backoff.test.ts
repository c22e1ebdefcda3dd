import { describe, expect, it } from "vitest";
import { backoffSeconds } from "../../src/queues/settle";

describe("backoffSeconds", () => {
  it("waits `first` after the first failure, doubling each time, never past `max`", () => {
    const waits = [1, 2, 3, 4, 5, 6, 7].map((attempts) => backoffSeconds(attempts, { first: 5, max: 60 }));
    expect(waits).toEqual([5, 10, 20, 40, 60, 60, 60]);
    // A message the runtime has not counted yet waits as after the first failure.
    expect(backoffSeconds(0, { first: 20, max: 300 })).toBe(20);
  });
});
