/// <reference types="vite/types/importMeta.d.ts" />
// STYLE.md rule 14: a route file is validation, one service call and the response. A handler that builds rows, walks
// a list, does arithmetic on time or catches errors holds logic its service should (where other callers and the
// service's own tests reach it); one that grows past a screen of lines usually does too.
import { describe, expect, it } from "vitest";

/** Every route file, as text: Vite reads them at build time, so this runs in the Workers pool. */
const ROUTE_FILES: Record<string, string> = import.meta.glob("../../src/routes/**/*.ts", {
  query: "?raw",
  import: "default",
  eager: true,
});

/** Lines a handler's body may take (between its braces), as Biome lays it out. */
const MAX_LINES = 20;

/** What only a service should do, each with what a handler does instead. */
const LOGIC: [RegExp, string][] = [
  [/\b(?:for|while)\s*\(|\bdo\s*\{/, "a loop (a service maps or walks the list)"],
  [/\btry\s*\{|\.catch\(|\.then\(/, "an error caught or a promise chained (the service decides what a failure means)"],
  [/\bDate\.now\(\)|\bnew Date\(/, "time read or built (a service, with an injectable clock)"],
  [/\.reduce\(/, "a reduction (a service computes it)"],
  [/\.map\(\s*\([^)]*\)\s*=>\s*\[/, "rows built (a service builds the sheet or the file)"],
];

/**
 * The index just past the brace closing the one at `open`, skipping strings, template literals (and their `${}`),
 * and comments, so that braces inside them do not count.
 */
function closingBrace(source: string, open: number): number {
  const stack: string[] = ["}"];
  let i = open + 1;
  while (i < source.length && stack.length) {
    const ch = source[i];
    const top = stack[stack.length - 1];
    if (top === "`") {
      if (ch === "\\") i++;
      else if (ch === "`") stack.pop();
      else if (ch === "$" && source[i + 1] === "{") {
        stack.push("}");
        i++;
      }
    } else if (ch === "/" && source[i + 1] === "/") i = source.indexOf("\n", i) - 1;
    else if (ch === "/" && source[i + 1] === "*") i = source.indexOf("*/", i) + 1;
    else if (ch === '"' || ch === "'") {
      for (i++; source[i] !== ch; i++) if (source[i] === "\\") i++;
    } else if (ch === "`") stack.push("`");
    else if (ch === "{") stack.push("}");
    else if (ch === "}") stack.pop();
    i++;
  }
  return i;
}

const lineOf = (source: string, index: number) => source.slice(0, index).split("\n").length;

/** The block body of each handler a route file registers (`(c) => { ... }`), with the line it starts on. */
function handlers(source: string) {
  return [...source.matchAll(/\((?:c)\)\s*=>\s*\{/g)].map((m) => {
    const open = m.index + m[0].length - 1;
    const close = closingBrace(source, open);
    return {
      line: lineOf(source, open),
      lines: lineOf(source, close) - lineOf(source, open) - 1,
      body: source.slice(open, close),
    };
  });
}

describe("route handlers", () => {
  it("read the request, call the service and answer: no logic of their own, no more than a screen", () => {
    const wrong: string[] = [];
    let found = 0;
    for (const [file, source] of Object.entries(ROUTE_FILES)) {
      const at = file.replace("../../", "");
      for (const handler of handlers(source)) {
        found++;
        if (handler.lines > MAX_LINES) wrong.push(`${at}:${handler.line}: ${handler.lines} lines`);
        for (const [pattern, what] of LOGIC)
          if (pattern.test(handler.body)) wrong.push(`${at}:${handler.line}: ${what}`);
      }
    }
    expect(wrong).toEqual([]);
    // The scan found the handlers (every endpoint's, and the pages' and the MCP server's).
    expect(found).toBeGreaterThan(200);
  });

  it("nor do the helpers beside them (one handler for PUT and PATCH, an access check): no error caught there", () => {
    const caught = LOGIC.find(([, what]) => what.startsWith("an error caught"))![0];
    const wrong = Object.entries(ROUTE_FILES)
      .filter(([, source]) => caught.test(source.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, "")))
      .map(([file]) => file.replace("../../", ""));
    expect(wrong).toEqual([]);
  });
});
