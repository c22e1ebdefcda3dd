import { choicesOf } from "../../api/choices";
import { api, unwrap, type Schemas } from "../../api/client";
import type { paths } from "../../api/schema";

export type SqlDatabaseItem = Schemas["SqlDatabaseListItem"];
export type SqlDatabase = Schemas["SqlDatabase"];
export type SqlTable = Schemas["SqlTable"];
export type AskOutcome = Schemas["SqlAskOutcome"];
export type SqlDatabaseWrite = paths["/api/v1/sql-databases/"]["post"]["requestBody"]["content"]["application/json"];

export const listDatabases = (page: number) =>
  unwrap(api.GET("/api/v1/sql-databases/", { params: { query: { page, pageSize: 20 } } }));
export const getDatabase = (id: string) => unwrap(api.GET("/api/v1/sql-databases/{id}/", { params: { path: { id } } }));
export const createDatabase = (body: SqlDatabaseWrite) => unwrap(api.POST("/api/v1/sql-databases/", { body }));
export const updateDatabase = (id: string, body: Partial<SqlDatabaseWrite>) =>
  unwrap(api.PATCH("/api/v1/sql-databases/{id}/", { params: { path: { id } }, body }));
/** The assistants that may query a database, as `{id, name}` to tick; null when the member may not list them. */
export const assistantChoices = (organizationId: string) => choicesOf("assistants", organizationId);
export const deleteDatabase = (id: string) =>
  unwrap(api.DELETE("/api/v1/sql-databases/{id}/", { params: { path: { id } } }));
export const checkConnection = (id: string) =>
  unwrap(api.POST("/api/v1/sql-databases/{id}/check-connection/", { params: { path: { id } } }));
export const deleteTable = (id: string, tableId: string) =>
  unwrap(api.DELETE("/api/v1/sql-databases/{id}/tables/{tableId}/", { params: { path: { id, tableId } } }));
export const ask = (id: string, question: string, largeLanguageModel?: string) =>
  unwrap(
    api.POST("/api/v1/sql-databases/{id}/ask/", { params: { path: { id } }, body: { question, largeLanguageModel } }),
  );
/** The organization's language models, for choosing who writes the SQL. */
export const languageModels = () =>
  unwrap(api.GET("/api/v1/large-language-models/", { params: { query: { pageSize: 100 } } }));
/** Posted with XMLHttpRequest for its progress (components/upload.tsx). */
export const tablesPath = (id: string) => `/api/v1/sql-databases/${encodeURIComponent(id)}/tables/`;
