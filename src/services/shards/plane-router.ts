// The data plane of an organization whose rows are in `DB` (created before the shards held data planes), as one D1
// binding that follows them to the organization's shard when they move (./data-plane-move.ts; docs/decisions.md,
// "Moving an organization's data plane"). Each statement goes where the directory says at the time it runs (read
// from a per-isolate cache, 2 s), so a conversation object or a request holding this binding keeps working across
// the move. While a move is under way, each write made in `DB` checks in its own batch that the rows are still there
// (`plane_checks`, migration 0043); once they are fenced or moved the check fails the batch as a whole, and the batch
// runs again where the directory then says, waiting while the move replays its last changes.
import { organizationParts, organizationShards } from "../../db/schema";
import { tableCache } from "../../db/write-watch";
import type { Bindings } from "../../env";
import { placement, shardDb, type ShardName } from ".";
import type { DataPart } from "./parts";

/** Where an organization's data plane is: `db` (in `DB`), `moving` (in `DB`, copied to its shard), `fenced` (in
 * `DB`, its last changes being copied: writes wait), `shard` (in its shard). */
export type DataPlane = "db" | "moving" | "fenced" | "shard";
export interface PlaneState {
  plane: DataPlane;
  shard: ShardName;
  /** Its further parts, oldest first (./parts.ts): read with the row, so a conversation's part costs no read more. */
  parts: DataPart[];
}

/** Remembered per isolate (docs/decisions.md, "Per-isolate caches"); a write to the directory here clears it. */
const states = tableCache<PlaneState>([organizationShards, organizationParts]);

/** How long a statement waits for a move's last replay before failing (it takes a few D1 round trips). */
export const FENCE_WAIT_MS = 30_000;
const RETRY_MS = 100;

const READ_STATE =
  "SELECT shard, data_plane, (SELECT json_group_array(json_object('from', from_ms, 'shard', shard)) " +
  "FROM organization_parts WHERE organization_id = ?1) AS parts FROM organization_shards WHERE organization_id = ?1";

async function readState(env: Bindings, organizationId: string): Promise<PlaneState> {
  const row = await env.DB.prepare(READ_STATE)
    .bind(organizationId)
    .first<{ shard: ShardName; data_plane: DataPlane; parts: string }>();
  // No directory row yet: an organization from before, in `DB`, placed on first use.
  if (!row) return { plane: "db", shard: placement(organizationId), parts: [] };
  // An aggregate's order is not its input's: sorted here.
  const parts = (JSON.parse(row.parts) as DataPart[]).sort((a, b) => a.from - b.from);
  return { plane: row.data_plane, shard: row.shard, parts };
}

/**
 * An organization's data-plane state; `fresh` reads the directory past the cache and remembers what it read, after
 * forgetting what this isolate held: a background read of the cache under way then (TtlCache's refresh) may have read
 * the directory before a change just made, and is not remembered.
 */
export async function planeState(env: Bindings, organizationId: string, fresh = false): Promise<PlaneState> {
  if (!fresh) return states.remember(organizationId, () => readState(env, organizationId));
  states.forget(organizationId);
  const state = await readState(env, organizationId);
  states.set(organizationId, state);
  return state;
}

const WRITE = /^\s*(?:insert|update|delete|replace|with)\b/i;
const MOVED = /data plane moved/;

type Target = { d1: D1Database; checked: boolean };

class RoutedStatement {
  constructor(
    readonly router: DataPlaneRouter,
    readonly sql: string,
    readonly params: unknown[] = [],
  ) {}
  bind(...params: unknown[]) {
    return new RoutedStatement(this.router, this.sql, params);
  }
  /** This statement prepared on `d1`. */
  on(d1: D1Database) {
    const prepared = d1.prepare(this.sql);
    return this.params.length ? prepared.bind(...this.params) : prepared;
  }
  run() {
    return this.router.one(
      this,
      (s) => s.run(),
      (r) => r,
    );
  }
  all() {
    return this.router.one(
      this,
      (s) => s.all(),
      (r) => r,
    );
  }
  first(column?: string) {
    return this.router.one(
      this,
      (s) => (column === undefined ? s.first() : s.first(column)),
      (r) => {
        const row = (r.results[0] as Record<string, unknown> | undefined) ?? null;
        return column === undefined || row === null ? row : (row[column] ?? null);
      },
    );
  }
  raw(options?: { columnNames?: boolean }) {
    return this.router.one(
      this,
      (s) => s.raw(options as { columnNames: true }),
      (r) => {
        const rows = r.results as Record<string, unknown>[];
        const values = rows.map((row) => Object.values(row));
        return options?.columnNames ? [Object.keys(rows[0] ?? {}), ...values] : values;
      },
    );
  }
}

class DataPlaneRouter {
  constructor(
    readonly env: Bindings,
    readonly organizationId: string,
  ) {}

  prepare(sql: string) {
    return new RoutedStatement(this, sql);
  }

  batch<T>(statements: RoutedStatement[]): Promise<D1Result<T>[]> {
    return this.#route(true, async ({ d1, checked }) => {
      const prepared = statements.map((s) => s.on(d1));
      if (!checked) return d1.batch<T>(prepared);
      return (await d1.batch<T>([this.#check(d1), ...prepared])).slice(1);
    });
  }

  exec(sql: string) {
    return this.#route(false, ({ d1 }) => d1.exec(sql));
  }

  dump(): Promise<ArrayBuffer> {
    throw new Error("dump() is not supported on an organization's data plane");
  }

  withSession(): D1DatabaseSession {
    throw new Error("withSession() is not supported on an organization's data plane");
  }

  /** One statement: as it is, or (a write while a move is under way) in a batch after the check. */
  one<R>(
    statement: RoutedStatement,
    alone: (s: D1PreparedStatement) => Promise<R>,
    fromBatch: (result: D1Result) => unknown,
  ): Promise<R> {
    return this.#route(WRITE.test(statement.sql), async ({ d1, checked }) => {
      if (!checked) return alone(statement.on(d1));
      const [, result] = await d1.batch([this.#check(d1), statement.on(d1)]);
      return fromBatch(result) as R;
    });
  }

  #check(d1: D1Database) {
    return d1.prepare("INSERT INTO plane_checks (organization_id) VALUES (?1)").bind(this.organizationId);
  }

  async #target(writes: boolean, fresh: boolean): Promise<Target> {
    const { plane, shard } = await planeState(this.env, this.organizationId, fresh);
    if (plane === "shard") return { d1: shardDb(this.env, shard), checked: false };
    return { d1: this.env.DB, checked: writes && plane !== "db" };
  }

  /** Runs `op` where the data plane is; a write the check refused runs again once the directory says elsewhere. */
  async #route<R>(writes: boolean, op: (target: Target) => Promise<R>): Promise<R> {
    const started = Date.now();
    for (let fresh = false; ; fresh = true) {
      const target = await this.#target(writes, fresh);
      if (fresh && target.checked && Date.now() - started > FENCE_WAIT_MS)
        throw new Error(
          `Organization ${this.organizationId}'s data plane stayed fenced for ${FENCE_WAIT_MS} ms: is its move stuck?`,
        );
      try {
        return await op(target);
      } catch (err) {
        if (!target.checked || !MOVED.test(String(err))) throw err;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }
}

const routers = new WeakMap<Bindings, Map<string, D1Database>>();

/** The organization's data plane as one binding (see above), one per organization and isolate. */
export function routedDataPlane(env: Bindings, organizationId: string): D1Database {
  let byOrganization = routers.get(env);
  if (!byOrganization) routers.set(env, (byOrganization = new Map()));
  let router = byOrganization.get(organizationId);
  if (!router) byOrganization.set(organizationId, (router = new DataPlaneRouter(env, organizationId) as never));
  return router;
}
