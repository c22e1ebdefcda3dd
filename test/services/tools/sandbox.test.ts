import { describe, expect, it } from "vitest";
import { compileProblem, runFunction } from "../../../src/services/tools/sandbox";

describe("function tool sandbox (QuickJS in WebAssembly)", () => {
  it("runs main(args) and returns its JSON output", async () => {
    const out = await runFunction("function main(args) { return { sum: args.a + args.b }; }", { a: 2, b: 3 });
    expect(out).toMatchObject({ status: "success", output: { sum: 5 } });
  });

  it("awaits async functions and keeps console output", async () => {
    const out = await runFunction(
      "async function main(args) { console.log('hi', args.n); return await Promise.resolve(args.n * 2); }",
      { n: 21 },
    );
    expect(out).toMatchObject({ status: "success", output: 42, logs: ["hi 21"] });
  });

  it("uses the last expression when there is no main", async () => {
    expect(await runFunction("args.word.toUpperCase()", { word: "ok" })).toMatchObject({
      status: "success",
      output: "OK",
    });
  });

  it("a main that returns nothing, or a script of declarations only, has null as its output", async () => {
    for (const code of ["function main() {}", "function main(args) { args.seen = true; }", "const x = 1;"])
      expect(await runFunction(code, {}), code).toMatchObject({ status: "success", output: null });
  });

  it("a main returning a function or a symbol (nothing in JSON) has null as its output", async () => {
    for (const code of ["function main() { return () => 1; }", "function main() { return Symbol('x'); }"])
      expect(await runFunction(code, {}, { timeoutMs: 1000 }), code).toMatchObject({ status: "success", output: null });
  });

  it("a result JSON cannot hold (cyclic, a BigInt inside, a throwing toJSON) fails with JSON's error", async () => {
    for (const [code, error] of [
      ["function main() { const o = { id: 1 }; o.self = o; return o; }", /^TypeError: circular reference/],
      ["function main() { return { id: 1, big: 10n }; }", /^TypeError: .*BigInt/i],
      ["function main() { return { toJSON() { throw new Error('nope'); } }; }", /^Error: nope$/],
    ] as const) {
      const out = await runFunction(code, {}, { timeoutMs: 1000 });
      // It was a success with the output "[object Object]": the model was told the tool answered that string.
      expect(out, code).toMatchObject({ status: "failure", error: expect.stringMatching(error) });
    }
  });

  it("a result whose getter, toJSON or proxy trap runs until the limit is a timeout, not a success", async () => {
    for (const code of [
      "function main() { return { get total() { for (;;) {} } }; }",
      "function main() { return { toJSON() { for (;;) {} } }; }",
      "function main() { return new Proxy({}, { ownKeys() { for (;;) {} } }); }",
    ]) {
      const out = await runFunction(code, {}, { timeoutMs: 200 });
      // Serialising the result runs its code after main returned: it was a success, "[object Object]" (or "").
      expect(out.status, `${code} -> ${JSON.stringify(out)}`).toBe("timeout");
    }
  });

  it("console.log of an object or array logs its JSON, of anything else its text", async () => {
    const out = await runFunction(
      "function main() { console.log('order', { id: 7 }, [1, 2], null, undefined, 10n, Symbol('s')); return 1; }",
      {},
    );
    expect(out.logs).toEqual(['order {"id":7} [1,2] null undefined 10 Symbol(s)']);
  });

  it("ends an endless loop as timeout", async () => {
    const out = await runFunction("function main() { for (;;) {} }", {}, { timeoutMs: 200 });
    expect(out.status).toBe("timeout");
    expect(out.durationMs).toBeLessThan(2000);
  });

  it("ends endless loops at their limit on a clock standing still (a deployed worker's, as code runs)", async () => {
    const stopped = () => 1_767_225_600_000;
    for (const code of [
      "function main() { for (;;) {} }",
      "function main() { let i = 0; while (true) i = (i * 31 + 7) % 1000003; }",
      "async function main() { for (;;) await null; }",
    ]) {
      const started = Date.now();
      const out = await runFunction(code, {}, { timeoutMs: 200, now: stopped });
      expect(out.status, code).toBe("timeout");
      // 200 ms of checks: on a busy machine each comes later, never thousands of times later.
      expect(Date.now() - started, code).toBeLessThan(5_000);
    }
  });

  it("ends a loop of awaits near its limit on a stopped clock, though its steps are in the job queue", async () => {
    const started = Date.now();
    const out = await runFunction(
      "async function main() { for (;;) await null; }",
      {},
      { timeoutMs: 1_000, now: () => 0 },
    );
    expect(out.status).toBe("timeout");
    // Near 1 s alone here; it ran 9 s while only the interpreter's own checks were counted.
    expect(Date.now() - started).toBeLessThan(4_000);
    // A function awaiting often, but not without end, still answers.
    const awaits =
      "async function main() { let n = 0; for (let i = 0; i < 20000; i++) { await null; n++; } return n; }";
    expect(await runFunction(awaits, {}, { timeoutMs: 1_000, now: () => 0 })).toMatchObject({ output: 20_000 });
  });

  it("reports an exception as failure with its message", async () => {
    const out = await runFunction("function main() { throw new TypeError('bad input'); }", {});
    expect(out).toMatchObject({ status: "failure", error: "TypeError: bad input" });
  });

  it("has no access to the worker: no fetch, env, bindings or timers", async () => {
    const out = await runFunction(
      "function main() { return [typeof fetch, typeof env, typeof process, typeof setTimeout, typeof globalThis.DB]; }",
      {},
    );
    expect(out).toMatchObject({
      status: "success",
      output: ["undefined", "undefined", "undefined", "undefined", "undefined"],
    });
  });

  it("stops code that eats memory", async () => {
    // Objects kept in a plain loop reach 4 MiB within ~0.3 s, well inside the time limit, so it is the heap limit that
    // ends the call: without it the loop runs to the time limit ("interrupted"). `new Array(100000).fill(1)` spent
    // 7 to 20 s in one `fill` before the heap ran out (docs/decisions.md, "Function tools").
    const out = await runFunction(
      "function main() { const a = []; for (;;) a.push({ n: a.length, s: 'x' + a.length }); }",
      {},
      { memoryBytes: 4 * 1024 * 1024, timeoutMs: 1500 },
    );
    expect(out).toMatchObject({ status: "failure", error: expect.stringMatching(/out of memory/) });
  });

  it("tells a syntax error at save time", async () => {
    expect(await compileProblem("function main( {")).toMatch(/Does not compile/);
    expect(await compileProblem("function main(a) { return a; }")).toBeNull();
  });

  it("tells code nested deeper than the compiler's stack as not compiling, and compiles on after it", async () => {
    // The parser recurses per bracket: with no stack limit of its own it overflowed the host's (a RangeError, which
    // leaves the interpreter's stack pointer behind); QuickJS's own limit stops it first.
    const nested = (depth: number) => `function main() { return ${"[".repeat(depth)}${"]".repeat(depth)}; }`;
    for (const code of [nested(45_000), `function main() { ${"if (1) {".repeat(5_000)}${"}".repeat(5_000)} }`])
      expect(await compileProblem(code)).toMatch(/^Does not compile: \w+Error: stack overflow/);
    expect(await compileProblem(nested(100))).toBeNull();
    expect(await runFunction(nested(3), {})).toMatchObject({ output: [[[]]] });
  });
});
