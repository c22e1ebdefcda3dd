// Validation messages in the caller's language (docs/decisions.md, "Validation messages"): zod's own messages follow
// `Accept-Language` (English or zh-TW); a schema's own message, the `detail`'s lead and the `code` stay as they are.
import { describe, expect, it } from "vitest";
import { PREFIXES, expectError, seedOwner } from "../../harness";

describe("validation messages", () => {
  it.each(PREFIXES)("follow Accept-Language: zod's own in zh-TW, a schema's own as written (%s)", async (prefix) => {
    const owner = await seedOwner();
    const bad = { name: "   ", color: "red" };
    const zh = await expectError(
      await owner.fetch("POST", "/labels/", bad, { prefix, headers: { "Accept-Language": "zh-TW,en;q=0.5" } }),
      400,
      "invalid",
    );
    expect(zh.errors).toEqual({ name: ["數值過小：預期 string 應為 >=1 字元"], color: ["A colour as #rrggbb"] });
    expect(zh.detail).toBe("Invalid request. name: 數值過小：預期 string 應為 >=1 字元; color: A colour as #rrggbb");
    const en = await expectError(await owner.fetch("POST", "/labels/", bad, { prefix }), 400, "invalid");
    expect(en.errors?.name).toEqual(["Too small: expected string to have >=1 characters"]);
  });

  it("a query's messages too; English where English ranks first or zh-TW is refused", async () => {
    const owner = await seedOwner();
    const pageZero = (language: string) =>
      owner.fetch("GET", "/labels/?page=0", undefined, { headers: { "Accept-Language": language } });
    const page = async (language: string) => (await expectError(await pageZero(language), 400, "invalid")).errors;
    expect(await page("fr-CA, zh-Hant-TW;q=0.8")).toEqual({ page: ["數值過小：預期 number 應為 >=1"] });
    for (const english of ["en-US,zh-TW;q=0.9", "zh-TW;q=0, fr", "*", "zh-CN"])
      expect(await page(english), english).toEqual({ page: ["Too small: expected number to be >=1"] });
  });
});
