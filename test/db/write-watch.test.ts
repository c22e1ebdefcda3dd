// Per-isolate caches forget at the write (src/db/write-watch.ts): every statement that writes a
// table a cache reads clears it once run, however it is run (the query builder, a prepared
// statement, a batch, raw SQL); writes to other tables and the pipeline's own bookkeeping do not.
import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { batch, prepared } from "../../src/db/prepared";
import { labels, webhooks } from "../../src/db/schema";
import { tableCache } from "../../src/db/write-watch";
import { NO_SUCH_ID, db } from "../harness";

const remembered = (cache: ReturnType<typeof tableCache<string>>) => cache.get("k") !== undefined;

describe("caches that forget at the write", () => {
  it("forget after a write to a table they read, whichever way it runs; not after other writes", async () => {
    const cache = tableCache<string>([webhooks]);
    const writes: [string, () => Promise<unknown>, boolean][] = [
      [
        "the query builder's update",
        () => db().update(webhooks).set({ name: "x" }).where(eq(webhooks.id, NO_SUCH_ID)),
        true,
      ],
      ["the query builder's delete", () => db().delete(webhooks).where(eq(webhooks.id, NO_SUCH_ID)), true],
      ["raw SQL", () => db().run(sql`update ${webhooks} set name = 'x' where id = ${NO_SUCH_ID}`), true],
      [
        "a batch holding one such write",
        () =>
          db().batch([
            db().select().from(labels).limit(1),
            db().update(webhooks).set({ name: "x" }).where(eq(webhooks.id, NO_SUCH_ID)),
          ]),
        true,
      ],
      [
        "a prepared statement in a batch",
        () =>
          batch(db(), [
            prepared<{ id: string }>((d) => d.delete(webhooks).where(eq(webhooks.id, sql.placeholder("id"))))(db(), {
              id: NO_SUCH_ID,
            }),
          ]),
        true,
      ],
      [
        "a write to another table",
        () => db().update(labels).set({ name: "x" }).where(eq(labels.id, NO_SUCH_ID)),
        false,
      ],
      ["a read", () => db().select().from(webhooks).limit(1), false],
      [
        "a write that keeps the caches current",
        () =>
          batch(db(), [
            prepared<{ id: string }>((d) => d.delete(webhooks).where(eq(webhooks.id, sql.placeholder("id"))), {
              keepsCaches: true,
            })(db(), { id: NO_SUCH_ID }),
          ]),
        false,
      ],
    ];
    for (const [what, write, forgets] of writes) {
      cache.set("k", "v");
      await write();
      expect(remembered(cache), what).toBe(!forgets);
    }
  });

  it("a read under way when the write runs is not remembered", async () => {
    const cache = tableCache<string>([webhooks]);
    let release!: () => void;
    const reading = cache.remember("k", () => new Promise<string>((r) => (release = () => r("old"))));
    await db().update(webhooks).set({ name: "x" }).where(eq(webhooks.id, NO_SUCH_ID));
    release();
    expect(await reading).toBe("old");
    expect(remembered(cache)).toBe(false);
  });
});
