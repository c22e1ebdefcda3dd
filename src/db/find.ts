import { notFound } from "../lib/errors";
import { isUuid } from "../lib/ids";

/**
 * The row a path's id names, or 404 `detail`. An id that is not a UUID names nothing, so it is not looked
 * up; `rows` is the query already scoped to the caller's organization or parent (CONTRACT section 1).
 */
export async function findById<T>(id: string, detail: string, rows: () => PromiseLike<T[]>): Promise<T> {
  const [row] = isUuid(id) ? await rows() : [];
  if (!row) throw notFound(detail);
  return row;
}
