import { outboundAllowedHosts, webhookUrlProblem } from "../../lib/ssrf";
import type { SqlDatabaseType } from "../../db/schema";

/** What a postgres connection needs, read from a connection string (never the string itself: no host lists, sockets or options). */
export interface PostgresTarget {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  ssl: false | "require";
}

export class ConnectionError extends Error {}

const SSL_MODES: Record<string, PostgresTarget["ssl"]> = { disable: false, allow: false, prefer: false, require: "require", "verify-ca": "require", "verify-full": "require" };

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
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") throw new ConnectionError("A PostgreSQL connection string starts with postgresql://.");
  // Non-special schemes keep the host as written: read it with the http parser for the same normalisation fetch uses.
  const asHttp = new URL(url.replace(/^[a-z]+:/i, "http:"));
  if (!asHttp.hostname || asHttp.hostname.includes(",")) throw new ConnectionError("The connection string needs exactly one host.");
  for (const key of asHttp.searchParams.keys()) {
    if (key !== "sslmode") throw new ConnectionError(`The connection option "${key.slice(0, 40)}" is not supported; only sslmode.`);
  }
  const sslmode = asHttp.searchParams.get("sslmode") ?? "disable";
  if (!(sslmode in SSL_MODES)) throw new ConnectionError(`Unknown sslmode "${sslmode.slice(0, 40)}".`);
  const database = decodeURIComponent(asHttp.pathname.replace(/^\//, ""));
  if (!database || database.includes("/")) throw new ConnectionError("The connection string must name one database: postgresql://user:password@host:5432/database.");
  if (!asHttp.username) throw new ConnectionError("The connection string must name a user.");
  return {
    host: asHttp.hostname.replace(/^\[|\]$/g, ""),
    port: Number(asHttp.port || 5432),
    user: decodeURIComponent(asHttp.username),
    password: decodeURIComponent(asHttp.password),
    database,
    ssl: SSL_MODES[sslmode],
  };
}

/** Why the host may not be reached (private, loopback, metadata... unless OUTBOUND_ALLOWED_HOSTS lists it), or null. */
export function hostProblem(env: { OUTBOUND_ALLOWED_HOSTS?: string; WEBHOOK_ALLOWED_HOSTS?: string }, url: string): string | null {
  const asHttp = new URL(url.replace(/^[a-z]+:/i, "http:"));
  const port = asHttp.port || "5432";
  return webhookUrlProblem(`http://${asHttp.host.replace(/:\d+$/, "")}:${port}/`, outboundAllowedHosts(env));
}

/** Checks a connection string for a database type on save (400 text), including the SSRF guard. */
export function connectionProblem(env: { OUTBOUND_ALLOWED_HOSTS?: string; WEBHOOK_ALLOWED_HOSTS?: string }, type: SqlDatabaseType, url: string): string | null {
  if (type !== "postgresql") return null;
  try {
    parsePostgresUrl(url);
  } catch (err) {
    return (err as Error).message;
  }
  return hostProblem(env, url);
}

/** `user:password@` becomes `user:***@` (CONTRACT section 15). */
export const maskConnectionUrl = (url: string) => url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/?#]*:)[^@/?#]*@/i, "$1***@").replace(/([?&](?:password|pwd)=)[^&]*/gi, "$1***");
