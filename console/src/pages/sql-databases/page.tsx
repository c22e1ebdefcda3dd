import type { PageProps } from "../types";
import { DatabaseDetail } from "./detail";
import { DatabaseList } from "./list";

/** `/sql-databases`: the list; `/sql-databases/<id>`: one database. */
export default function SqlDatabasesPage({ params, organizationId }: PageProps) {
  return params.rest ? (
    <DatabaseDetail id={params.rest} organizationId={organizationId} />
  ) : (
    <DatabaseList organizationId={organizationId} />
  );
}
