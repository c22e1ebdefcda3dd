import type { Bindings } from "../../env";

/**
 * Fault injection for the ingestion queue, for tests and `npm run chaos`; off unless INGESTION_FAULT
 * is set (a deployment never sets it, and /health lists it when set). JSON
 * `{"afterChunks": N, "attempts"?: A, "filename"?: "<regular expression>"}`: the processing of a
 * matching file dies once its first N chunks are in the keyword index and the vector store, as a
 * worker evicted part-way would, on its first A deliveries (every delivery when `attempts` is absent).
 */
interface IngestionFault {
  afterChunks: number;
  attempts?: number;
  filename?: RegExp;
}

let parsed: { source: string; fault: IngestionFault } | null = null;

function ingestionFault(env: Pick<Bindings, "INGESTION_FAULT">): IngestionFault | null {
  const source = env.INGESTION_FAULT;
  if (!source) return null;
  if (parsed?.source === source) return parsed.fault;
  const invalid = (why: string) =>
    new Error(
      `INGESTION_FAULT is not valid (${why}); expected {"afterChunks": N, "attempts"?: A, "filename"?: "regex"}.`,
    );
  let value: { afterChunks?: unknown; attempts?: unknown; filename?: unknown };
  try {
    value = JSON.parse(source);
  } catch {
    throw invalid("not JSON");
  }
  const count = (x: unknown) => typeof x === "number" && Number.isInteger(x) && x >= 0;
  if (!count(value.afterChunks)) throw invalid("afterChunks must be a whole number");
  if (value.attempts !== undefined && !count(value.attempts)) throw invalid("attempts must be a whole number");
  if (value.filename !== undefined && typeof value.filename !== "string") throw invalid("filename must be a string");
  const fault = {
    afterChunks: value.afterChunks as number,
    attempts: value.attempts as number | undefined,
    filename: value.filename ? new RegExp(value.filename as string) : undefined,
  };
  parsed = { source, fault };
  return fault;
}

/** The chunks this delivery of a file writes before it dies, or null when it does not die. */
export function injectedFaultAfter(
  env: Pick<Bindings, "INGESTION_FAULT">,
  filename: string,
  attempt: number,
): number | null {
  const fault = ingestionFault(env);
  if (
    !fault ||
    (fault.attempts !== undefined && attempt > fault.attempts) ||
    (fault.filename && !fault.filename.test(filename))
  )
    return null;
  return fault.afterChunks;
}

export class InjectedIngestionFault extends Error {
  readonly stage = "indexing";
  constructor(written: number, total: number) {
    super(`Processing died after ${written} of ${total} chunks (fault injected by INGESTION_FAULT).`);
  }
}

/** For /health: a deployment with the fault hook on fails files on purpose. */
export function ingestionFaultProblem(env: Pick<Bindings, "INGESTION_FAULT">): string | null {
  if (!env.INGESTION_FAULT) return null;
  try {
    ingestionFault(env);
    return "set: files it matches fail on purpose (fault injection for tests); unset it in a deployment";
  } catch (err) {
    return (err as Error).message;
  }
}
