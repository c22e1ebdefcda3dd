// The class the worker exports for the conversation object: it imports the object's body (conversation.ts, and
// with it the whole conversation pipeline: agent, models, tools, knowledge retrieval) when an instance is made, so
// an isolate started for a request that reaches no conversation does not evaluate it (docs/decisions.md, "Cold
// start").
import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../src/env";
import type { Conversation as Body } from "./conversation";

/** The body's methods a caller reaches through the stub (RPC), each forwarded as is. */
export const FORWARDED = [
  "warm",
  "holdForFirstTurn",
  "firstTurnDone",
  "converse",
  "post",
  "stream",
  "subscribe",
  "follow",
  "agentMessage",
  "handOff",
  "change",
  "typing",
  "say",
  "resume",
  "listMessages",
  "lookupMessages",
  "visibleMessages",
  "rate",
  "deliveryState",
  "takeOver",
  "forget",
] as const satisfies readonly (keyof Body)[];

type Forwarded = Pick<Body, (typeof FORWARDED)[number]>;

/**
 * The body's class, once its module is evaluated (it calls `bodyEvaluated`): later instances need no import. The
 * Workers test pool cannot serve a module imported first inside a Durable Object (cloudflare/workers-sdk#5387), so
 * test/setup.ts evaluates the body before the tests and no test's object imports it.
 */
let evaluated: (new (ctx: DurableObjectState, env: Bindings) => Body) | undefined;
export const bodyEvaluated = (body: typeof evaluated) => {
  evaluated = body;
};

// Declares the forwarded methods, which the static block puts on the prototype (where RPC looks them up).
export interface Conversation extends Forwarded {}
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface types the methods the static block defines
export class Conversation extends DurableObject<Bindings> {
  #body: Body | undefined;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    if (evaluated) {
      this.#body = new evaluated(ctx, env);
      return;
    }
    // Made before any call is delivered (the input gate holds them): a call never waits on an import that the
    // request which started it (a `warm()` nobody awaits) could take down with it.
    void ctx.blockConcurrencyWhile(async () => {
      await import("./conversation");
      this.#body = new evaluated!(ctx, env);
    });
  }

  alarm() {
    return this.#body!.alarm();
  }

  static {
    for (const name of FORWARDED) {
      Object.defineProperty(Conversation.prototype, name, {
        value(this: Conversation, ...args: unknown[]) {
          const made = this.#body!;
          return (made[name] as (...a: unknown[]) => unknown).apply(made, args);
        },
        writable: true,
        configurable: true,
      });
    }
  }
}
