import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { WriteQueue } from "../../durable-objects/write-queue";
import { db } from "../harness";

const table = `write_queue_${Math.random().toString(36).slice(2, 8)}`;
const insert = (value: number) => env.DB.prepare(`INSERT INTO ${table} (value) VALUES (?) RETURNING value`).bind(value);
const stored = async () =>
  (await env.DB.prepare(`SELECT value FROM ${table} ORDER BY rowid`).all<{ value: number }>()).results.map(
    (r) => r.value,
  );

// The conversation object's writes (durable-objects/write-queue.ts), against the real local D1.
describe("WriteQueue", () => {
  it("stores writes in the order queued, each given its own results", async () => {
    await env.DB.exec(`CREATE TABLE ${table} (value INTEGER UNIQUE)`);
    const queue = new WriteQueue(db, () => undefined);
    const writes = [
      queue.write([insert(1)], 0),
      queue.write([insert(2), insert(3)], 0),
      queue.write([insert(4)], null),
    ];
    const results = await Promise.all(writes);
    expect(results.map((r) => r.map((x) => x.results))).toEqual([
      [[{ value: 1 }]],
      [[{ value: 2 }], [{ value: 3 }]],
      [[{ value: 4 }]],
    ]);
    expect(await stored()).toEqual([1, 2, 3, 4]);
  });

  it(
    "a failed batch stores none of its writes; writes queued on that view are refused, later views and null go " + "on",
    async () => {
      await env.DB.exec(`DELETE FROM ${table}`);
      let failures = 0;
      const queue = new WriteQueue(db, () => failures++);
      await queue.write([insert(10)], 0); // alone in its batch
      // Queued in one turn of the event loop: one batch (group commit), which the duplicate fails whole.
      const before = queue.write([insert(16)], 0);
      const failing = queue.write([insert(11), insert(10)], 0);
      const sameBatch = queue.write([insert(12)], 0);
      await expect(before).rejects.toThrow();
      await expect(failing).rejects.toThrow();
      await expect(sameBatch).rejects.toThrow();
      expect(failures).toBe(1);
      expect(queue.view).toBe(1);
      // Queued on the view that failed: refused without running; a handoff (null view) and the next view run.
      const stale = queue.write([insert(13)], 0);
      const handoff = queue.write([insert(14)], null);
      const next = queue.write([insert(15)], queue.view);
      await expect(stale).rejects.toThrow("An earlier write of this conversation failed.");
      await Promise.all([handoff, next]);
      await queue.idle();
      expect(await stored()).toEqual([10, 14, 15]);
    },
  );
});
