// A throwaway PostgreSQL cluster on a loopback port for the tests (and `npm run db:pg`), from
// Debian's `postgresql` package (/usr/lib/postgresql/<version>/bin). Root cannot run postgres, so
// as root the cluster belongs to the `postgres` user the package creates and commands run through
// runuser. Returns null (with the reason) when no server can be started.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, chownSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export const PG_PASSWORD = "pg-test-secret";
export const PG_USER = "platform";
export const PG_DATABASE = "shop";

function binDir() {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], "bin") : null;
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Seeds what the tests read: a `sales` table, and a `secrets` table no assistant is given. */
export const SEED_SQL = `
create table sales (
  id serial primary key, region text not null, amount integer not null, sold_on date not null default current_date
);
insert into sales (region, amount) values ('north', 120), ('north', 80), ('south', 50), ('east', 75);
create table secrets (id serial primary key, value text);
insert into secrets (value) values ('top secret');
`;

export async function startPostgres({ seed = SEED_SQL } = {}) {
  const bin = binDir();
  if (!bin)
    return { url: null, reason: "Debian's postgresql package is not installed (apt-get install -y postgresql)." };
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }) : null;
  if (asRoot && owner.status !== 0)
    return { url: null, reason: "Running as root and there is no postgres user to own the cluster." };
  const dir = mkdtempSync(path.join(tmpdir(), "pg-test-"));
  const data = path.join(dir, "data");
  const run = (cmd, args, input) => {
    const full = asRoot
      ? ["runuser", ["-u", "postgres", "--", path.join(bin, cmd), ...args]]
      : [path.join(bin, cmd), args];
    return execFileSync(full[0], full[1], {
      stdio: ["pipe", "pipe", "pipe"],
      input,
      encoding: "utf8",
      env: { ...process.env, PGPASSWORD: PG_PASSWORD },
    });
  };
  try {
    const pwfile = path.join(dir, "pw");
    writeFileSync(pwfile, `${PG_PASSWORD}\n`);
    if (asRoot) {
      const uid = Number(owner.stdout.trim());
      chownSync(dir, uid, -1);
      chownSync(pwfile, uid, -1);
    }
    chmodSync(dir, 0o700);
    run("initdb", [
      "-D",
      data,
      "-U",
      PG_USER,
      "--pwfile",
      pwfile,
      "--auth=scram-sha-256",
      "--no-sync",
      "-E",
      "UTF8",
      "--locale=C",
    ]);
    const port = await freePort();
    run("pg_ctl", [
      "-D",
      data,
      "-l",
      path.join(dir, "log"),
      "-w",
      "-t",
      "30",
      "-o",
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      "start",
    ]);
    const psql = (db, sql) =>
      run("psql", ["-h", "127.0.0.1", "-p", String(port), "-U", PG_USER, "-d", db, "-v", "ON_ERROR_STOP=1", "-q"], sql);
    psql("postgres", `create database ${PG_DATABASE};`);
    if (seed) psql(PG_DATABASE, seed);
    const url = `postgresql://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/${PG_DATABASE}`;
    return {
      url,
      port,
      psql: (sql) => psql(PG_DATABASE, sql),
      stop: async () => {
        try {
          run("pg_ctl", ["-D", data, "-m", "immediate", "stop"]);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (err) {
    const reason = String(err?.stderr || err?.message || err)
      .trim()
      .split("\n")
      .slice(-3)
      .join(" ");
    rmSync(dir, { recursive: true, force: true });
    return { url: null, reason: `PostgreSQL could not be started: ${reason}` };
  }
}

// `npm run db:pg`: start a cluster, print its URL, keep it until Ctrl-C.
if (import.meta.url === `file://${process.argv[1]}`) {
  const pg = await startPostgres();
  if (!pg.url) {
    console.error(pg.reason);
    process.exit(1);
  }
  console.log(`PostgreSQL at ${pg.url} (seeded tables: sales, secrets). Ctrl-C stops and deletes it.`);
  const stop = async () => {
    await pg.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
