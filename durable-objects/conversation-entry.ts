// The class the worker exports for the conversation object: it imports the object's body (conversation.ts, and with
// it the whole conversation pipeline: agent, models, tools, knowledge retrieval) on its first call, so an isolate
// started for a request that reaches no conversation does not evaluate it (docs/decisions.md, "Cold start").
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
] as const satisfies readonly (keyof Body)[];

type Forwarded = {
  [K in (typeof FORWARDED)[number]]: (...args: Parameters<Body[K]>) => Promise<Awaited<ReturnType<Body[K]>>>;
};

// Declares the forwarded methods, which the static block puts on the prototype (where RPC looks them up).
export interface Conversation extends Forwarded {}
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface types the methods the static block defines
export class Conversation extends DurableObject<Bindings> {
  #body: Promise<Body> | undefined;

  /** The body, made on the first call (its module imported by the isolate's first instance). */
  #made(): Promise<Body> {
    this.#body ??= import("./conversation").then(({ Conversation: Made }) => new Made(this.ctx, this.env));
    return this.#body;
  }

  async alarm() {
    return (await this.#made()).alarm();
  }

  static {
    for (const name of FORWARDED) {
      Object.defineProperty(Conversation.prototype, name, {
        async value(this: Conversation, ...args: unknown[]) {
          const made = await this.#made();
          return (made[name] as (...a: unknown[]) => unknown).apply(made, args);
        },
        writable: true,
        configurable: true,
      });
    }
  }
}
