// The SQLite file behind a stopped `wrangler dev`'s local D1 (its `--persist-to` state), for tests
// and benchmarks that seed history straight into the tables (days in the past, a million rows)
// before starting the server again on that state. Never while the server runs.
import { createHash, createHmac } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";

/**
 * `DB`'s file: the state holds one a D1 binding (the organization shards `CONVERSATIONS_n` too), each named by a hash,
 * so it is the one with `DB`'s `organizations` table.
 */
export function d1File(state) {
  const dir = path.join(state, "v3", "d1", "miniflare-D1DatabaseObject");
  const files = readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  const file = files.find((f) => {
    const db = new DatabaseSync(path.join(dir, f), { readOnly: true });
    try {
      return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'organizations'").get();
    } finally {
      db.close();
    }
  });
  return path.join(dir, file ?? files[0]);
}

/**
 * Each D1 binding's file in a stopped `wrangler dev`'s state, by binding (`DB`, `CONVERSATIONS_1`, ...): Miniflare
 * keeps a database in the object its `database_id` names (`idFromName`: HMAC-SHA256 of the id under the SHA-256 of the
 * object's namespace, then a MAC of that half), so the organization shards, whose tables are alike, are told apart.
 */
export function d1Files(state, root = ".") {
  const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8");
  const namespace = createHash("sha256").update("miniflare-D1DatabaseObject").digest();
  const dir = path.join(state, "v3", "d1", "miniflare-D1DatabaseObject");
  const files = new Map();
  for (const [, binding, databaseId] of toml.matchAll(
    /^\[\[d1_databases\]\]\s*\nbinding\s*=\s*"(\w+)"[^[]*?^database_id\s*=\s*"([^"]+)"/gm,
  )) {
    const id = createHmac("sha256", namespace).update(databaseId).digest().subarray(0, 16);
    const mac = createHmac("sha256", namespace).update(id).digest().subarray(0, 16);
    const file = path.join(dir, `${Buffer.concat([id, mac]).toString("hex")}.sqlite`);
    if (!existsSync(file))
      throw new Error(`${binding}'s file ${file} is not in the state (has Miniflare's naming changed?)`);
    files.set(binding, file);
  }
  return files;
}

/**
 * The file holding an organization's data plane (its conversations, contacts, records, figures: src/db/planes.ts) in
 * a stopped `wrangler dev`'s state: its shard's when `DB`'s directory row says so, else `DB`'s.
 */
export function dataPlaneFile(state, organizationId, root = ".") {
  const main = d1File(state);
  const db = new DatabaseSync(main, { readOnly: true });
  try {
    const row = db
      .prepare("SELECT shard FROM organization_shards WHERE organization_id = ? AND data_plane = 'shard'")
      .get(organizationId);
    return row ? d1Files(state, root).get(row.shard) : main;
  } finally {
    db.close();
  }
}
