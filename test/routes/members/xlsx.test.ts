import { describe, expect, it } from "vitest";
import { xlsxDownload } from "../../../src/lib/xlsx";
import { readXlsx } from "../../support/xlsx";

describe("members spreadsheet writer in the Workers runtime", () => {
  // Parts over 160 kB make fflate's async zip spawn a Web Worker, which workerd does not have;
  // this size would fail with write-excel-file/universal.
  it("writes a sheet far larger than 160 kB", async () => {
    const rows = Array.from({ length: 4000 }, (_, i) => [
      `Member ${i}`,
      `member-${i}@example.com`,
      "Sales, West",
      i % 2 === 0,
      i,
    ]);
    const res = await xlsxDownload(["Name", "Email", "Groups", "Owner", "Number"], rows, "big.xlsx");
    const parsed = readXlsx(await res.arrayBuffer());
    expect(parsed).toHaveLength(4001);
    expect(parsed[4000]).toEqual(["Member 3999", "member-3999@example.com", "Sales, West", false, 3999]);
  });

  it("keeps every character XML allows and shows U+FFFD for each one it does not", async () => {
    const cells = [
      "kept \uFFFD",
      "C1 \u0085\u009F",
      "C0 \u0001 tab\t",
      "lone \uD800 and x\uDC00",
      "pair \u{1F600} \uFFFE",
    ];
    const res = await xlsxDownload(["A", "B", "C", "D", "E"], [cells], "chars.xlsx");
    const parsed = readXlsx(await res.arrayBuffer());
    expect(parsed[1]).toEqual([
      "kept \uFFFD",
      "C1 \u0085\u009F",
      "C0 \uFFFD tab\t",
      "lone \uFFFD and x\uFFFD",
      "pair \u{1F600} \uFFFD",
    ]);
  });
});
