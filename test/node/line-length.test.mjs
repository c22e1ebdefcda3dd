// No line of the tracked sources is longer than Biome's line width (biome.json, 120). Biome wraps code
// but must keep strings, template literals, regular expressions and comments as written, so those are
// split by hand where they read naturally: SQL one clause per line, CSS one declaration per line, a
// long regular expression from pieces. In Node, not the Workers pool: it reads what git tracks, and
// stylesheets, which Vitest's module graph would hand over empty.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "./support/checkout.mjs";

const MAX = 120;

/** Tracked scripts and stylesheets, without the generated API types (`schema.d.ts`, `api-schema.d.ts`). */
const files = execFileSync("git", ["ls-files", "-z", "*.ts", "*.tsx", "*.mjs", "*.js", "*.css"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\0")
  .filter((f) => f && !f.endsWith("schema.d.ts"));

/** `file:line (n characters)` of each line over MAX, in characters (code points), not bytes or UTF-16 units. */
function longLines(sources) {
  const out = [];
  for (const [file, source] of sources) {
    source.split("\n").forEach((line, i) => {
      const length = [...line.replace(/\r$/, "")].length;
      if (length > MAX) out.push(`${file}:${i + 1} (${length} characters)`);
    });
  }
  return out.sort();
}

const sources = files.map((f) => [f, readFileSync(path.join(root, f), "utf8")]);

describe("line length", () => {
  it("reads the tracked sources of every directory, stylesheets included", () => {
    for (const dir of ["bench/", "console/src/", "durable-objects/", "scripts/", "src/", "test/", "widget/src/"])
      expect(
        files.some((f) => f.startsWith(dir)),
        dir,
      ).toBe(true);
    expect(files).toContain("console/src/components/components.css");
    expect(files.some((f) => f.startsWith("src/vendor/"))).toBe(false);
  });

  it(`no line is longer than ${MAX} characters`, () => {
    expect(longLines(sources)).toEqual([]);
  });

  it("counts characters, not bytes or UTF-16 units, and not a CRLF's carriage return", () => {
    const source = ["中".repeat(MAX), "😀".repeat(MAX), `${"a".repeat(MAX)}\r`, "a".repeat(MAX + 1)].join("\n");
    expect(longLines([["x.ts", source]])).toEqual([`x.ts:4 (${MAX + 1} characters)`]);
  });
});
