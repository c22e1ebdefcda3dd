import { describe, expect, it } from "vitest";
import { strToU8, zipSync } from "fflate";
import { mimeTypeOf, readSkillPackage } from "../../../src/services/skills/package";

describe("mimeTypeOf", () => {
  it("knows its own extensions only: a resource named x.constructor is octet-stream", () => {
    expect(mimeTypeOf("docs/guide.MD")).toBe("text/markdown");
    expect(mimeTypeOf("scripts/run.constructor")).toBe("application/octet-stream");
    expect(mimeTypeOf("data/x.__proto__")).toBe("application/octet-stream");
  });
});

describe("readSkillPackage", () => {
  const packageNamed = (name: string) =>
    zipSync({ "SKILL.md": strToU8(`---\nname: "${name}"\ndescription: Files an expense report\n---\nSteps.`) });

  it("refuses a name of only invisible characters (zero-width space, BOM), as the API refuses one", () => {
    for (const name of ["\\u200B", "\\u200C\\u200D", "\\uFEFF"])
      expect(() => readSkillPackage(packageNamed(name)), name).toThrow("has no name");
    expect(readSkillPackage(packageNamed("expense-report")).name).toBe("expense-report");
  });

  it('reads the name in Unicode\'s composed form (NFC), as the API stores names: NFD "Café" is "Café"', () => {
    expect(readSkillPackage(packageNamed("Café".normalize("NFD"))).name).toBe("Café".normalize("NFC"));
  });
});
