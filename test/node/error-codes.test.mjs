// The reference's "Error codes" section (docs/reference.md) names every code `ErrorCode`
// (src/lib/errors.ts) allows, and no other: a code added to the union without its line there fails here. The console
// has words for each in both its languages (console/src/components/problem-strings.ts), so a zh-TW page never shows
// a refusal in the API's English alone.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import path from "node:path";
import { root } from "./support/checkout.mjs";

const source = readFileSync(path.join(root, "src/lib/errors.ts"), "utf8");
const reference = readFileSync(path.join(root, "docs/reference.md"), "utf8");
const problemStrings = readFileSync(path.join(root, "console/src/components/problem-strings.ts"), "utf8");

/** The string literals of a `type Name = | "a" | ...;` declaration, with `prefix_${"x" | "y"}` templates expanded. */
function literals(name) {
  const body = new RegExp(`export type ${name} =([\\s\\S]*?);`).exec(source)?.[1] ?? "";
  const plain = [...body.matchAll(/^\s*\|\s*"([^"]+)"/gm)].map((m) => m[1]);
  const templates = [...body.matchAll(/`(\w*)\$\{([^}]+)\}`/g)].flatMap((m) =>
    [...m[2].matchAll(/"([^"]+)"/g)].map((v) => m[1] + v[1]),
  );
  return [...plain, ...templates];
}

/** The codes one language's table of problem-strings.ts words: its keys (`en: {` or `"zh-TW": {`, two spaces in). */
function worded(language) {
  const opening = `\n  ${/^\w+$/.test(language) ? language : JSON.stringify(language)}: {\n`;
  const start = problemStrings.indexOf(opening);
  const body = start < 0 ? "" : problemStrings.slice(start + opening.length, problemStrings.indexOf("\n  },", start));
  return new Set([...body.matchAll(/^ {4}(\w+):/gm)].map((m) => m[1]));
}

describe("error codes", () => {
  it("the reference's section lists exactly the codes of ErrorCode and S3ErrorCode", () => {
    const codes = [...literals("ErrorCode"), ...literals("S3ErrorCode")];
    expect(codes.length).toBeGreaterThan(30);
    const section = /## Error codes\n([\s\S]*?)(?:\n## |$)/.exec(reference)?.[1] ?? "";
    const named = new Set([...section.matchAll(/`([A-Za-z_]+)`/g)].map((m) => m[1]));
    for (const word of [
      "code",
      "ErrorCode",
      "event: error",
      "Retry-After: 1",
      "Idempotency-Key",
      "auth/login",
      "available-tools",
      "/uploads/...",
    ])
      named.delete(word);
    expect([...named].sort()).toEqual([...new Set(codes)].sort());
  });

  // S3's codes are left out: the upload target answers them in S3's XML, which the console reads as a status only.
  it.each(["en", "zh-TW"])("the console words every code of ErrorCode in %s", (language) => {
    const codes = literals("ErrorCode");
    const words = worded(language);
    expect(words.size).toBeGreaterThan(20);
    expect(codes.filter((code) => !words.has(code))).toEqual([]);
  });
});
