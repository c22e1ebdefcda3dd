import type { Router } from "../../lib/openapi";
import { registerCreateSqlDatabase } from "./create";
import { registerListSqlDatabases } from "./list";
import { registerGetSqlDatabase } from "./get";
import { registerUpdateSqlDatabase } from "./update";
import { registerDeleteSqlDatabase } from "./delete";
import { registerSqlTableRoutes } from "./tables";
import { registerCheckSqlDatabase } from "./check";
import { registerAskSqlDatabase } from "./ask";

export function registerSqlDatabaseRoutes(r: Router) {
  registerListSqlDatabases(r);
  registerCreateSqlDatabase(r);
  registerGetSqlDatabase(r);
  registerUpdateSqlDatabase(r);
  registerDeleteSqlDatabase(r);
  registerSqlTableRoutes(r);
  registerCheckSqlDatabase(r);
  registerAskSqlDatabase(r);
}
