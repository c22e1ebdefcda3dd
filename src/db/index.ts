import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";
import type { Db } from "../env";

export const getDb = (d1: D1Database): Db => drizzle(d1, { schema });
export { schema };
