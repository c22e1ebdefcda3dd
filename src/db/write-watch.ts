// Per-isolate caches forget at the write itself (docs/decisions.md, "Per-isolate caches"): every D1
// statement that inserts, updates or deletes rows of a table some cache reads makes this isolate
// forget that cache once it has run, whichever route, service, queue or object ran it. A cache
// names the tables it reads where it is declared (`tableCache`); a new write path needs no
// classification anywhere.
import { getTableName, type Table } from "drizzle-orm";
import { TtlCache } from "../lib/ttl-cache";

type Forget = () => void;

/** Table name -> what a write to it makes this isolate forget. */
const watched = new Map<string, Set<Forget>>();
/** Statements that write a watched table and keep the caches current themselves (see `keepsCachesCurrent`). */
const neutral = new Set<string>();

/** After each write to one of `tables`, this isolate calls `forget`. */
function forgetOnWrite(tables: Table[], forget: Forget): void {
  for (const table of tables) {
    const name = getTableName(table);
    if (!watched.has(name)) watched.set(name, new Set());
    watched.get(name)!.add(forget);
  }
}

/**
 * A statement of the conversation pipeline that writes a watched table but leaves the caches right:
 * a message's bookkeeping on its conversation row (the conversation object brings a remembered row
 * up to date itself) and an assistant's word count (no cache reads it for anything).
 */
export function keepsCachesCurrent(sql: string): void {
  neutral.add(sql);
}

/** The table a statement writes; anchored, so a read fails at its first word. */
const WRITE = /^\s*(?:insert\s+(?:or\s+\w+\s+)?into|update|delete\s+from)\s+"?(\w+)"?/i;

/** What running `sql` makes this isolate forget (null: nothing). */
function forgetsOf(sql: string): Forget[] | null {
  const table = WRITE.exec(sql)?.[1];
  const forgets = table && !neutral.has(sql) ? watched.get(table) : undefined;
  return forgets?.size ? [...forgets] : null;
}

const forgetAll = (forgets: Forget[]) => {
  for (const forget of forgets) forget();
};

/** A statement that writes a watched table: runs as before, then forgets (bound copies too). */
const watchedStatements = new WeakMap<D1PreparedStatement, { real: D1PreparedStatement; forgets: Forget[] }>();
function watch(real: D1PreparedStatement, forgets: Forget[]): D1PreparedStatement {
  const after = <T>(p: Promise<T>) => p.finally(() => forgetAll(forgets));
  const statement = {
    bind: (...values: unknown[]) => watch(real.bind(...values), forgets),
    run: () => after(real.run()),
    all: () => after(real.all()),
    first: (column?: string) => after(column === undefined ? real.first() : real.first(column)),
    raw: (options?: { columnNames?: boolean }) => after(real.raw(options as { columnNames: true })),
  } as unknown as D1PreparedStatement;
  watchedStatements.set(statement, { real, forgets });
  return statement;
}

/**
 * `d1` with its writes watched: statements that write no watched table are D1's own (nothing added
 * on their path but an anchored match of their first words); a batch forgets what its statements make forget once
 * it has run.
 */
export function watchWrites(d1: D1Database): D1Database {
  return {
    prepare(query: string) {
      const statement = d1.prepare(query);
      const forgets = forgetsOf(query);
      return forgets ? watch(statement, forgets) : statement;
    },
    batch<T>(statements: D1PreparedStatement[]) {
      const forgets = new Set<Forget>();
      const reals = statements.map((s) => {
        const w = watchedStatements.get(s);
        if (!w) return s;
        for (const forget of w.forgets) forgets.add(forget);
        return w.real;
      });
      const done = d1.batch<T>(reals);
      return forgets.size ? done.finally(() => forgetAll([...forgets])) : done;
    },
    exec: (query: string) => d1.exec(query),
    dump: () => d1.dump(),
    withSession: (constraint?: string) => d1.withSession(constraint as never),
  } as D1Database;
}

/**
 * A per-isolate cache of what is read from `tables`, for `ttlMs`: any write to one of them, in this
 * isolate, clears it at once (other isolates follow within `ttlMs`).
 */
export function tableCache<V>(tables: Table[], ttlMs = 2_000): TtlCache<V> {
  const cache = new TtlCache<V>(ttlMs);
  forgetOnWrite(tables, () => cache.clear());
  return cache;
}
