// The main module of the Dynamic Worker that function tools run in (docs/decisions.md, "Function tools: an isolate of
// their own"). scripts/build-vendor.mjs bundles this file, QuickJS with it, into the text of
// src/vendor/functionIsolate.js, which services/tools/isolate.ts hands to the Worker Loader. It is never part of the
// worker's own script.
import { runFunction } from "./sandbox";

/** What the worker sends: the tool's code, the call's arguments and its time limit. */
export interface IsolateCall {
  code: string;
  args: Record<string, unknown>;
  timeoutMs: number;
}

export default {
  async fetch(request: Request): Promise<Response> {
    const { code, args, timeoutMs } = (await request.json()) as IsolateCall;
    return Response.json(await runFunction(code, args, { timeoutMs }));
  },
};
