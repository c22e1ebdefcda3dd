import { eq } from "drizzle-orm";
import type { Db } from "../../env";
import { toolExecutionRecords } from "../../db/schema";
import type { ToolCallTrace } from "./types";
import { logError } from "../../lib/log";
import { STORED_OUTPUT_BYTES, withinBytes } from "./output-size";

/** A value as stored: JSON of at most STORED_OUTPUT_BYTES (a longer one is kept as its truncated text). */
function storable(value: unknown): unknown {
  if (value === undefined || JSON.stringify(value) === undefined) return null;
  return withinBytes(value, STORED_OUTPUT_BYTES);
}

/**
 * Writes tool execution records without holding up the loop: the pending row is inserted when a
 * call starts and updated when it ends, each write chained after the previous one, and `flush()`
 * waits for all of them (the reply awaits it before it is stored).
 */
export class ToolRecorder {
  #chain: Promise<unknown> = Promise.resolve();
  #failed: unknown = null;

  /** `db` null: a reply outside any conversation (batch QA), whose calls are not recorded. */
  constructor(
    private db: Db | null,
    private base: {
      organizationId: string;
      chatbotId: string;
      chatbotName: string;
      conversationId: string;
      messageId: string | null;
      messageText: string;
    },
  ) {}

  #then(write: (db: Db) => Promise<unknown>) {
    const { db } = this;
    if (!db) return;
    this.#chain = this.#chain
      .then(() => write(db))
      .catch((err) => {
        this.#failed ??= err;
        logError("tool record write failed", { error: String(err) });
      });
  }

  start(t: ToolCallTrace, createdAt = Date.now()) {
    this.#then((db) =>
      db.insert(toolExecutionRecords).values({
        id: t.id,
        ...this.base,
        messageText: this.base.messageText.slice(0, 2000),
        toolId: t.toolId,
        toolName: t.name,
        toolDisplayName: t.displayName,
        toolType: t.toolType,
        callId: t.callId,
        status: "pending",
        input: t.input,
        createdAt,
        updatedAt: createdAt,
      }),
    );
  }

  finish(t: ToolCallTrace) {
    if (t.status === "pending") return;
    this.#then((db) =>
      db
        .update(toolExecutionRecords)
        .set({
          status: t.status,
          output: storable(t.output),
          error: t.error,
          durationMs: t.durationMs,
          updatedAt: Date.now(),
        })
        .where(eq(toolExecutionRecords.id, t.id)),
    );
  }

  async flush() {
    await this.#chain;
  }
}
