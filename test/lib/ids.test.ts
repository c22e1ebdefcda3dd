import { describe, expect, it } from "vitest";
import { isUuid, uuidv7 } from "../../src/lib/ids";

describe("uuidv7", () => {
  it("is a valid version 7 uuid", () => {
    const id = uuidv7();
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe("7");
    expect("89ab").toContain(id[19]);
  });

  it("increases strictly, also within one millisecond", () => {
    const now = Date.now() + 10_000;
    const ids = Array.from({ length: 5000 }, () => uuidv7(now));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
