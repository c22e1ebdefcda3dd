import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../src/env";

/**
 * One instance per conversation (id = idFromName(conversationId)). It hands out the strictly
 * increasing message sequence of its conversation from its own SQLite storage, so concurrent
 * writers never interleave. Reply locking and live streaming build on it (issue 3).
 */
export class Conversation extends DurableObject<Bindings> {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS sequence (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL)");
    });
  }

  /** Reserves `count` consecutive sequence numbers and returns the first. */
  nextSequence(count = 1): number {
    const row = this.ctx.storage.sql
      .exec<{ value: number }>(
        "INSERT INTO sequence (id, value) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET value = value + ? RETURNING value",
        count,
        count,
      )
      .one();
    return row.value - count + 1;
  }
}
