import { outboundAllowedHosts, webhookUrlProblem } from "../../lib/ssrf";
import type { SqlDatabaseType } from "../../db/schema";

/** What connecting needs of the deployment's settings: the SSRF guard's exceptions and the Hyperdrive bindings
 * organizations may use. */
export interface ConnectionEnv {
  OUTBOUND_ALLOWED_HOSTS?: string;
  WEBHOOK_ALLOWED_HOSTS?: string;
  SQL_HYPERDRIVE_BINDINGS?: string;
}

/** What a postgres connection needs, read from a connection string (never the string itself: no host lists, sockets or
 * options). */
export interface PostgresTarget {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  ssl: false | "require";
}

export class ConnectionError extends Error {}

const SSL_MODES: Record<string, PostgresTarget["ssl"]> = {
  disable: false,
  allow: false,
  prefer: false,
  require: "require",
  "verify-ca": "require",
  "verify-full": "require",
};

/**
 * Reads `postgresql://user:password@host:port/database?sslmode=require`. Refuses several hosts,
 * Unix sockets and every other option, so what the SSRF guard checks is what is connected to.
 */
export function parsePostgresUrl(url: string): PostgresTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConnectionError("Not a valid connection string: postgresql://user:password@host:5432/database.");
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:")
    throw new ConnectionError("A PostgreSQL connection string starts with postgresql://.");
  // Non-special schemes keep the host as written: read it with the http parser for the same normalisation fetch uses.
  const asHttp = new URL(url.replace(/^[a-z]+:/i, "http:"));
  if (!asHttp.hostname || asHttp.hostname.includes(","))
    throw new ConnectionError("The connection string needs exactly one host.");
  for (const key of asHttp.searchParams.keys()) {
    if (key !== "sslmode")
      throw new ConnectionError(`The connection option "${key.slice(0, 40)}" is not supported; only sslmode.`);
  }
  const sslmode = asHttp.searchParams.get("sslmode") ?? "disable";
  // Own keys only: `in` would take "constructor" (Object.prototype's) for a mode.
  if (!Object.hasOwn(SSL_MODES, sslmode)) throw new ConnectionError(`Unknown sslmode "${sslmode.slice(0, 40)}".`);
  const database = decoded(asHttp.pathname.replace(/^\//, ""), "database name");
  if (!database || database.includes("/"))
    throw new ConnectionError(
      "The connection string must name one database: postgresql://user:password@host:5432/database.",
    );
  if (!asHttp.username) throw new ConnectionError("The connection string must name a user.");
  return {
    host: asHttp.hostname.replace(/^\[|\]$/g, ""),
    port: Number(asHttp.port || 5432),
    user: decoded(asHttp.username, "user"),
    password: decoded(asHttp.password, "password"),
    database,
    ssl: SSL_MODES[sslmode],
  };
}

/** A part of the connection string percent-decoded: a stray `%` (a password's `100%`) is a ConnectionError (400). */
function decoded(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new ConnectionError(
      `The connection string's ${what} is not valid percent-encoding: percent-encode special characters ` +
        "(% as %25, @ as %40, / as %2F, : as %3A).",
    );
  }
}

/** Why the host may not be reached (private, loopback, metadata... unless OUTBOUND_ALLOWED_HOSTS lists it), or null. */
export function hostProblem(
  env: { OUTBOUND_ALLOWED_HOSTS?: string; WEBHOOK_ALLOWED_HOSTS?: string },
  url: string,
): string | null {
  const asHttp = new URL(url.replace(/^[a-z]+:/i, "http:"));
  const port = asHttp.port || "5432";
  return webhookUrlProblem(`http://${asHttp.host.replace(/:\d+$/, "")}:${port}/`, outboundAllowedHosts(env));
}

const HYPERDRIVE_URL = /^hyperdrive:\/\/([A-Za-z_][A-Za-z0-9_]{0,63})\/?$/i;

/**
 * `hyperdrive://BINDING` names a Hyperdrive binding of the deployment (wrangler.toml `[[hyperdrive]]`):
 * its name, or null when the URL is not a Hyperdrive reference. Anything else after `hyperdrive:` is refused.
 */
export function hyperdriveBindingName(url: string): string | null {
  if (!/^hyperdrive:/i.test(url.trim())) return null;
  const match = HYPERDRIVE_URL.exec(url.trim());
  if (!match)
    throw new ConnectionError(
      "A Hyperdrive database is written hyperdrive://BINDING_NAME, the name of a [[hyperdrive]] binding of " +
        "this deployment.",
    );
  return match[1];
}

/**
 * `SQL_HYPERDRIVE_BINDINGS`: the Hyperdrive bindings organizations may use, comma-separated; `NAME` for
 * every organization, `NAME=orgId|orgId` for those organizations only. Unset: none.
 */
function hyperdriveOffered(env: ConnectionEnv, name: string, organizationId: string): boolean {
  for (const entry of (env.SQL_HYPERDRIVE_BINDINGS ?? "").split(",")) {
    const [binding, organizations] = entry.split("=", 2).map((part) => part.trim());
    if (binding !== name) continue;
    if (organizations === undefined || organizations === "*") return true;
    if (
      organizations
        .split("|")
        .map((id) => id.trim())
        .includes(organizationId)
    )
      return true;
  }
  return false;
}

/**
 * The Hyperdrive binding `name` for an organization: listed for it in SQL_HYPERDRIVE_BINDINGS, present in
 * the deployment and a Hyperdrive binding (it has a connection string) for PostgreSQL. Throws a ConnectionError saying
 * which it is not.
 */
export function hyperdriveBinding(env: ConnectionEnv, name: string, organizationId: string): Hyperdrive {
  if (!hyperdriveOffered(env, name, organizationId)) {
    throw new ConnectionError(
      `The Hyperdrive binding "${name}" is not available to this organization: the operator lists the ` +
        `bindings organizations may use in SQL_HYPERDRIVE_BINDINGS.`,
    );
  }
  const binding: unknown = Object.hasOwn(env, name) ? (env as Record<string, unknown>)[name] : undefined;
  if (binding === undefined || binding === null)
    throw new ConnectionError(
      `No Hyperdrive binding named "${name}" is configured in this deployment ([[hyperdrive]] in wrangler.toml).`,
    );
  const hd = binding as Partial<Hyperdrive>;
  if (typeof binding !== "object" || typeof hd.connectionString !== "string" || typeof hd.host !== "string") {
    throw new ConnectionError(`"${name}" is a binding of this deployment but not a Hyperdrive binding.`);
  }
  const scheme = /^([a-z]+):/i.exec(hd.connectionString)?.[1] ?? "";
  if (!/^postgres(ql)?$/i.test(scheme))
    throw new ConnectionError(
      `The Hyperdrive binding "${name}" is for a ${scheme || "non-PostgreSQL"} database, not PostgreSQL.`,
    );
  return binding as Hyperdrive;
}

/**
 * Where a postgresql database's connections go: the binding's own host, port and credentials for
 * `hyperdrive://BINDING` (no TLS: Hyperdrive speaks it to the origin; no SSRF guard: the operator
 * chose the origin), else the connection string after the SSRF guard.
 */
export function postgresTarget(env: ConnectionEnv, url: string, organizationId: string): PostgresTarget {
  const name = hyperdriveBindingName(url);
  if (name) {
    const hd = hyperdriveBinding(env, name, organizationId);
    return {
      host: hd.host,
      port: Number(hd.port) || 5432,
      user: hd.user,
      password: hd.password,
      database: hd.database,
      ssl: false,
    };
  }
  const target = parsePostgresUrl(url);
  const problem = hostProblem(env, url);
  if (problem) throw new ConnectionError(problem);
  return target;
}

/** Checks a connection string for a database type on save (400 text): the SSRF guard, or the Hyperdrive binding it
 * names. */
export function connectionProblem(
  env: ConnectionEnv,
  type: SqlDatabaseType,
  url: string,
  organizationId: string,
): string | null {
  if (type !== "postgresql") return null;
  try {
    postgresTarget(env, url, organizationId);
  } catch (err) {
    if (!(err instanceof ConnectionError)) throw err;
    return err.message;
  }
  return null;
}

/** A pair of a query string or of an ADO/JDBC/ODBC connection string whose value is a secret, the value whole. */
const SECRET_PAIR = new RegExp(
  String.raw`(^|[?&;])(\s*[\w.-]*(?:password|passwd|pwd|secret|token)[\w.-]*\s*=\s*)` +
    String.raw`(\{(?:[^}]|\}\})*\}|"(?:[^"]|"")*"|'(?:[^']|'')*'|[^;&]*)`,
  "gi",
);

/**
 * A connection string with its secrets hidden, in every form the SQL connectors take (CONTRACT section 15:
 * `postgresql://user:***@host/db`): a URL's `user:password@` up to the last `@` (a password may hold one), Oracle's
 * `user/password@`, and `password=`, `pwd=`, `…secret=`, `…token=` pairs of a query or a `Key=Value;` string (a
 * braced or quoted value whole). Masking a masked string changes nothing, so a masked value sent back is recognised.
 */
export function maskConnectionString(url: string, mask = "***"): string {
  return url
    .replace(/^([a-z][a-z0-9+.:-]*:\/\/[^:@/?#]*:).*@/i, (_, head: string) => `${head}${mask}@`)
    .replace(/^((?:jdbc:oracle:[a-z]+:)?[^/@:\s;=]+\/).*@/i, (_, head: string) => `${head}${mask}@`)
    .replace(SECRET_PAIR, (_, start: string, key: string) => `${start}${key}${mask}`);
}
