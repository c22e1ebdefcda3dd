// The housekeeping's purges (services/purges.ts) as a test runs them: on every part of an organization's data plane,
// until the one the test waits for is through (other files' purges in the shared database may come first).
import { client } from "../../src/db/prepared";
import { runPurges, type PurgeKind } from "../../src/services/purges";
import { countRows, parts } from "../harness";

/** Runs every part's purges of the organization's data plane until none of `kind` `id` is left (20 runs at most). */
export async function purgedThrough(organizationId: string, kind: PurgeKind, id: string) {
  const left = async () => {
    let n = 0;
    for (const part of await parts(organizationId))
      n += await countRows(client(part), "purges WHERE kind = ?1 AND id = ?2", kind, id);
    return n;
  };
  for (let run = 0; run < 20 && (await left()); run++)
    for (const part of await parts(organizationId)) await runPurges(part, Date.now());
  if (await left()) throw new Error(`the purge of ${kind} ${id} is not through after 20 runs`);
}
