import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres-server.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** URL of the throwaway PostgreSQL cluster (test/support/postgres-server.mjs), "" when none could be started. */
    postgresUrl: string;
    /** Why there is no PostgreSQL server, when there is none. */
    postgresUnavailable: string;
  }
}

/** Starts one PostgreSQL cluster for the run (Debian's binaries, loopback port, throwaway data directory). */
export default async function setup(project: TestProject) {
  const pg = await startPostgres();
  project.provide("postgresUrl", pg.url ?? "");
  project.provide("postgresUnavailable", pg.url ? "" : (pg.reason ?? "unknown"));
  if (!pg.url) console.warn(`[postgres] ${pg.reason} Tests that need a PostgreSQL server are skipped.`);
  return async () => {
    await pg.stop?.();
  };
}
