import { integer, text } from "drizzle-orm/sqlite-core";
import { uuidv7 } from "../../lib/ids";

/** Shared column builders: uuid v7 primary key and epoch-millisecond timestamps. */
export const id = () =>
  text("id")
    .primaryKey()
    .$defaultFn(() => uuidv7());
export const createdAt = () =>
  integer("created_at")
    .notNull()
    .$defaultFn(() => Date.now());
export const updatedAt = () =>
  integer("updated_at")
    .notNull()
    .$defaultFn(() => Date.now())
    .$onUpdateFn(() => Date.now());
export const bool = (name: string) => integer(name, { mode: "boolean" });
export const json = <T>(name: string) => text(name, { mode: "json" }).$type<T>();
