import { describe, expect, it } from "vitest";
import { maskSecret } from "../../src/lib/crypto";

describe("maskSecret", () => {
  it.each([
    [null, null],
    ["", null],
    ["short", "••••"],
    ["fifteen-chars!!", "••••"],
    ["sixteen-chars-ab", "…s-ab"],
    ["sk-0123456789abcdefghijwxyz", "…wxyz"],
  ])("%s reads %s: never more than a quarter of the secret", (secret, shown) => {
    expect(maskSecret(secret)).toBe(shown);
    if (secret && shown) expect(shown.replace(/[…•]/g, "").length).toBeLessThanOrEqual(secret.length / 4);
  });
});
