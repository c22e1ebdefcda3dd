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

/** Minimal .xlsx reading for tests: the first sheet's rows as arrays of cell text (shared and inline strings, numbers).
 * */
export async function readXlsxRows(bytes) {
  const { unzipSync, strFromU8 } = await import("fflate");
  const files = unzipSync(new Uint8Array(bytes));
  const decode = (s) =>
    s
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, "&");
  const shared = files["xl/sharedStrings.xml"]
    ? [...strFromU8(files["xl/sharedStrings.xml"]).matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
        decode([...m[1].matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => t[1]).join("")),
      )
    : [];
  const sheetName = Object.keys(files).find((f) => /^xl\/worksheets\/sheet\d+\.xml$/.test(f));
  const sheet = strFromU8(files[sheetName]);
  const column = (ref) => [...ref.replace(/\d+/g, "")].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
  return [...sheet.matchAll(/<row[^>]*>([\s\S]*?)<\/row>/g)].map((row) => {
    const cells = [];
    for (const c of row[1].matchAll(/<c r="([A-Z]+\d+)"([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const type = /t="(\w+)"/.exec(c[2])?.[1];
      const inner = c[3] ?? "";
      const value = /<v>([\s\S]*?)<\/v>/.exec(inner)?.[1];
      cells[column(c[1])] =
        type === "s"
          ? shared[Number(value)]
          : type === "inlineStr"
            ? decode(/<t[^>]*>([\s\S]*?)<\/t>/.exec(inner)?.[1] ?? "")
            : value === undefined
              ? null
              : decode(value);
    }
    return Array.from(cells, (v) => v ?? null);
  });
}
