import { batch } from "../src/db/prepared";
import type { Db } from "../src/env";

type Entry = {
  statements: D1PreparedStatement[] | Promise<D1PreparedStatement[]>;
  view: number | null;
  resolve: (results: D1Result[]) => void;
  reject: (err: unknown) => void;
};

/**
 * A conversation object's D1 writes, stored in the order they are queued. Whatever is queued while
 * a batch runs goes into the next batch together (group commit), and an idle queue starts its batch
 * only once the current turn of the event loop is over: a turn's reply and the next turn's visitor
 * message, queued one after the other, cost one D1 round trip, not two (~0.65 ms of the local
 * runtime each; docs/decisions.md, "One conversation at 500 messages/s"). One batch is one
 * transaction. When one fails, `view` moves on and writes queued under the old view are refused
 * rather than stored: a reply built on a history that was not stored must not be stored either.
 */
export class WriteQueue {
  #queue: Entry[] = [];
  #running = false;
  #last: Promise<unknown> = Promise.resolve();
  /** What writers saw of the conversation: bumped by every failed batch. */
  view = 0;

  constructor(
    /** The database the statements are on (the conversation's organization's data plane, once known). */
    private readonly db: () => Db,
    /** Called when a batch fails (the object forgets what it kept in memory). */
    private readonly onFailure: () => void,
  ) {}

  /**
   * Stores `statements` after everything queued before; `view` null: whatever failed before. Statements still being
   * built (a promise) keep their place: a batch waits for them, and one that fails to be built fails its batch.
   */
  write(statements: D1PreparedStatement[] | Promise<D1PreparedStatement[]>, view: number | null): Promise<D1Result[]> {
    const written = new Promise<D1Result[]>((resolve, reject) =>
      this.#queue.push({ statements, view, resolve, reject }),
    );
    this.#last = written.catch(() => undefined);
    if (!this.#running) {
      this.#running = true;
      setTimeout(() => void this.#run());
    }
    return written;
  }

  /** Settles once everything queued so far is stored or refused. */
  idle(): Promise<unknown> {
    return this.#last;
  }

  async #run() {
    while (this.#queue.length) {
      const group: Entry[] = [];
      for (const entry of this.#queue.splice(0)) {
        if (entry.view === null || entry.view === this.view) group.push(entry);
        else entry.reject(new Error("An earlier write of this conversation failed."));
      }
      if (!group.length) continue;
      try {
        const built = await Promise.all(group.map((e) => e.statements));
        const results = await batch(this.db(), built.flat());
        let at = 0;
        for (const [n, entry] of group.entries()) entry.resolve(results.slice(at, (at += built[n].length)));
      } catch (err) {
        this.view++;
        this.onFailure();
        for (const entry of group) entry.reject(err);
      }
    }
    this.#running = false;
  }
}
