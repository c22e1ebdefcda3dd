import { env } from "cloudflare:workers";

/**
 * What a set of organizations (and users) holds in D1 and R2, to tell whether a request wrote
 * anything. Every table is scoped through its foreign keys: `organization_id` in the set, or a
 * reference to a row that is in scope (a file of a knowledge base of the organization, ...), so
 * other test files writing at the same time do not disturb the comparison. Rows are compared whole,
 * so an update counts as a write too; only bookkeeping columns listed in IGNORED are left out.
 */

/** Columns that change without a write by the request (the key's last use, kept by the auth middleware). */
const IGNORED: Record<string, string[]> = { api_keys: ["last_used_at"] };

export interface Scope {
  organizations: string[];
  users: string[];
  /** Users created by a request (registration) carry this in their e-mail address. */
  emailMarker: string;
  /** R2 key prefixes that belong to the scope. */
  objectPrefixes: string[];
}

type TableInfo = {
  name: string;
  /** What rows are read in: `rowid`, or a table WITHOUT ROWID's primary key columns. */
  order: string;
  columns: string[];
  fks: { from: string; table: string; to: string }[];
};

let tablesCache: Promise<TableInfo[]> | undefined;

async function tables(): Promise<TableInfo[]> {
  const { results } = await env.DB.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all<{
    name: string;
    sql: string | null;
  }>();
  const virtual = results.filter((t) => /^CREATE VIRTUAL/i.test(t.sql ?? "")).map((t) => t.name);
  const names = results
    .map((t) => t.name)
    .filter((n) => !n.startsWith("sqlite_") && !n.startsWith("_cf_") && n !== "d1_migrations")
    // FTS5 tables and their shadow tables mirror the content tables.
    .filter((n) => !virtual.some((v) => n === v || n.startsWith(`${v}_`)));
  return Promise.all(
    names.map(async (name) => {
      const cols = await env.DB.prepare(`PRAGMA table_info("${name}")`).all<{ name: string; pk: number }>();
      const fks = await env.DB.prepare(`PRAGMA foreign_key_list("${name}")`).all<{
        from: string;
        table: string;
        to: string | null;
      }>();
      // A table WITHOUT ROWID (e.g. conversation_terms) is read in its primary key's order.
      const withoutRowid = /WITHOUT ROWID/i.test(results.find((t) => t.name === name)?.sql ?? "");
      const key = cols.results.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
      return {
        name,
        order: withoutRowid ? key.map((c) => `"${c.name}"`).join(", ") : "rowid",
        columns: cols.results.map((c) => c.name),
        fks: fks.results.map((f) => ({ from: f.from, table: f.table, to: f.to ?? "id" })),
      };
    }),
  );
}

const list = (ids: string[]) => {
  for (const id of ids) if (!/^[0-9a-f-]{36}$/i.test(id)) throw new Error(`not an id: ${id}`);
  return ids.length ? ids.map((id) => `'${id}'`).join(", ") : "NULL";
};

/** The WHERE clause that keeps a table's rows in scope, or null when nothing links it to the scope. */
function scopeOf(info: Map<string, TableInfo>, table: string, scope: Scope, depth = 0): string | null {
  if (table === "organizations") return `"id" IN (${list(scope.organizations)})`;
  if (table === "users")
    return `("id" IN (${list(scope.users)}) OR "email" LIKE '%${scope.emailMarker.replace(/'/g, "")}%')`;
  const t = info.get(table);
  if (!t || depth > 4) return null;
  const conditions: string[] = [];
  if (t.columns.includes("organization_id")) conditions.push(`"organization_id" IN (${list(scope.organizations)})`);
  for (const fk of t.fks) {
    if (fk.table === table) continue;
    const parent = scopeOf(info, fk.table, scope, depth + 1);
    if (parent) conditions.push(`"${fk.from}" IN (SELECT "${fk.to}" FROM "${fk.table}" WHERE ${parent})`);
  }
  return conditions.length ? `(${conditions.join(" OR ")})` : null;
}

export interface Snapshot {
  rows: Map<string, string[]>;
  objects: string[];
  /** Tables nothing links to the scope (compared globally; other tests may disturb them). */
  unscoped: string[];
}

export async function snapshot(scope: Scope): Promise<Snapshot> {
  const all = await (tablesCache ??= tables());
  const info = new Map(all.map((t) => [t.name, t]));
  const statements = all.map((t) => {
    const where = scopeOf(info, t.name, scope);
    const cols = t.columns.filter((c) => !IGNORED[t.name]?.includes(c)).map((c) => `"${c}"`);
    return {
      name: t.name,
      unscoped: !where,
      sql: `SELECT ${cols.join(", ")} FROM "${t.name}"${where ? ` WHERE ${where}` : ""} ORDER BY ${t.order}`,
    };
  });
  const results = await env.DB.batch(statements.map((s) => env.DB.prepare(s.sql)));
  const rows = new Map<string, string[]>();
  statements.forEach((s, i) => {
    rows.set(
      s.name,
      results[i].results.map((r) => JSON.stringify(r)),
    );
  });
  const objects: string[] = [];
  for (const prefix of scope.objectPrefixes) {
    let cursor: string | undefined;
    do {
      const page = await env.FILES.list({ prefix, cursor });
      objects.push(...page.objects.map((o) => `${o.key} ${o.size} ${o.etag}`));
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
  }
  return { rows, objects: objects.sort(), unscoped: statements.filter((s) => s.unscoped).map((s) => s.name) };
}

/** What changed between two snapshots, e.g. `chatbots: 3 -> 4 rows` or `faqs: 1 row changed`; empty when nothing did.
 * */
export function changes(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const [table, rows] of after.rows) {
    const old = before.rows.get(table) ?? [];
    if (old.length !== rows.length) out.push(`${table}: ${old.length} -> ${rows.length} rows`);
    else {
      const previous = new Set(old);
      const changed = rows.filter((r) => !previous.has(r)).length;
      if (changed) out.push(`${table}: ${changed} row${changed > 1 ? "s" : ""} changed`);
    }
  }
  const objectsBefore = new Set(before.objects);
  const added = after.objects.filter((o) => !objectsBefore.has(o)).length;
  const removed = before.objects.length - (after.objects.length - added);
  if (added || removed) out.push(`R2: ${added} object(s) written, ${removed} removed`);
  return out;
}

/** Waits until background work of the setup (queues, waitUntil) has stopped changing the scope. */
export async function settled(scope: Scope, timeoutMs = 10_000): Promise<Snapshot> {
  const until = Date.now() + timeoutMs;
  let last = await snapshot(scope);
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const next = await snapshot(scope);
    if (!changes(last, next).length || Date.now() > until) return next;
    last = next;
  }
}
