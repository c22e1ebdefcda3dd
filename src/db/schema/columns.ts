import {
  type AnySQLiteColumn,
  index,
  integer,
  primaryKey,
  real,
  type SQLiteColumnBuilderBase,
  sqliteTable,
  text,
} from "drizzle-orm/sqlite-core";
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
/** A row's creation and last-update times. */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });
/**
 * A segment's hour and span (services/statistics/record-segments.ts): the start (epoch ms) of the hour of every
 * record's `createdAt`, how many records it holds, and their first and last `createdAt`.
 */
export const segmentSpan = () => ({
  hour: integer("hour").notNull(),
  records: integer("records").notNull(),
  minCreatedAt: integer("min_created_at").notNull(),
  maxCreatedAt: integer("max_created_at").notNull(),
});
export const bool = (name: string) => integer(name, { mode: "boolean" });
export const json = <T>(name: string) => text(name, { mode: "json" }).$type<T>();
/** A required reference to the row this one belongs to: deleting that row deletes this one. */
export const belongsTo = (name: string, parent: () => AnySQLiteColumn) =>
  text(name).notNull().references(parent, { onDelete: "cascade" });
/** The judge's scores of one answer (services/evaluation/metrics.ts), null when not evaluated: a chatbot record's and a
 * batch QA item's. */
export const evaluationScores = () => ({
  faithfulness: real("faithfulness"),
  answerRelevancy: real("answer_relevancy"),
  contextPrecision: real("context_precision"),
  contextRecall: real("context_recall"),
  answerCorrectness: real("answer_correctness"),
  answerSimilarity: real("answer_similarity"),
});
/**
 * A table that links two rows and holds nothing else: its two columns (`belongsTo` references, in this order), the
 * pair as primary key, and an index named `indexName` on the second column, for reading the links from its side.
 */
export function linkTable<TName extends string, TColumns extends Record<string, SQLiteColumnBuilderBase>>(
  name: TName,
  indexName: string,
  columns: TColumns,
) {
  return sqliteTable(name, columns, (t) => {
    const [first, second] = Object.keys(columns).map((key) => t[key] as AnySQLiteColumn);
    return [primaryKey({ columns: [first, second] }), index(indexName).on(second)];
  });
}
