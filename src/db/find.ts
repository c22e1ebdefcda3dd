import { notFound } from "../lib/errors";
import { isUuid } from "../lib/ids";

/**
 * The row a path's id names, or null. An id that is not a UUID names nothing, so it is not looked up; `rows` is the
 * query already scoped to what the caller may see (their organization, their parent, CONTRACT section 1).
 */
export async function rowById<T>(id: string, rows: () => PromiseLike<T[]>): Promise<T | null> {
  const [row] = isUuid(id) ? await rows() : [];
  return row ?? null;
}

/** The row a path's id names (see rowById), or 404 `detail`. */
export async function findById<T>(id: string, detail: string, rows: () => PromiseLike<T[]>): Promise<T> {
  const row = await rowById(id, rows);
  if (!row) throw notFound(detail);
  return row;
}
