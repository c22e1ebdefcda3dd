// Response bodies typed by the OpenAPI document: the console's generated types (console/src/api/schema.d.ts,
// `npm run console:types`) are the one copy, so a test reads what the document promises instead of a shape
// it wrote itself, and a change of the document that a test relies on fails the typecheck.
import type { components, paths } from "../../console/src/api/schema";
import type { ResourceProblem, SettingProblem } from "../../src/services/settings";

/** The document's schemas by name (`Schemas["Message"]`). */
export type Schemas = components["schemas"];

type Method = "get" | "post" | "put" | "patch" | "delete";
type Route<P> = P extends `/api/v1${infer R}` ? R : never;

/** Every operation of the API as "METHOD /path", the path as the document writes it without /api/v1. */
export type Operation = {
  [P in keyof paths]: {
    [M in Method]: [NonNullable<paths[P][M]>] extends [never] ? never : `${Uppercase<M>} ${Route<P>}`;
  }[Method];
}[keyof paths];

type OperationOf<K> = K extends `${infer M} ${infer P}`
  ? `/api/v1${P}` extends keyof paths
    ? NonNullable<paths[`/api/v1${P}`][Lowercase<M> & Method]>
    : never
  : never;
type Responses<K> = OperationOf<K> extends { responses: infer R } ? R : never;
/** The statuses an operation answers with. */
export type Status<K> = keyof Responses<K> & number;
type Success<K> = Extract<Status<K>, 200 | 201 | 202>;

/** The JSON body of operation `K`'s answer with status `S` (by default its success). */
export type Body<K extends Operation, S extends Status<K> = Success<K>> = Responses<K>[S] extends {
  content: { "application/json": infer T };
}
  ? T
  : never;

/**
 * The body of `res`, an answer of operation `K` (e.g. `bodyOf<"GET /chatbots/{chatbotId}/">(res)`), typed as
 * the document says for status `S` (its success unless given). It only reads: the test asserts the status.
 */
export async function bodyOf<K extends Operation, S extends Status<K> = Success<K>>(
  res: Response,
): Promise<Body<K, S>> {
  return res.json<Body<K, S>>();
}

/** The body of an error answer: `detail` for people, `code` for code, `errors` by field. */
export const problemOf = (res: Response) => res.json<Schemas["Error"]>();

/** An error answer's body less its `requestId`, which differs on every call: for answers compared across calls. */
export async function problemWithoutRequestOf(res: Response) {
  const { requestId: _, ...problem } = await problemOf(res);
  return problem;
}

/** The body of `res`, an error's less its `requestId`: whole answers of any operation compared across calls. */
export const comparableBodyOf = async (res: Response): Promise<unknown> =>
  res.ok ? res.json() : problemWithoutRequestOf(res);

type Listed<K extends Operation> = Body<K> extends infer B ? (B extends unknown[] ? B : never) : never;
type Paged<K extends Operation> = Extract<Body<K>, { count: number }>;

/**
 * A list's page (`{count, next, previous, results}`) where the document also allows another shape for other
 * queries (the whole list with `pagination=false`, a cursor page).
 */
export const pageOf = <K extends Operation>(res: Response) => res.json<Paged<K>>();

/** A list asked for whole (`pagination=false`): the plain array the document allows beside the page. */
export const listOf = <K extends Operation>(res: Response) => res.json<Listed<K>>();

// An open object (`{[key: string]: unknown}`) takes whatever the test names; so does the generator's
// `Schema & (Record<string, never> | null)` for a nullable reference, whose fields all read as `never`.
type Open<T> = T extends object ? (string extends keyof T ? true : false) : false;
type DeepPartial<T> = T extends (infer E)[]
  ? DeepPartial<E>[]
  : Open<T> extends true
    ? unknown
    : T extends object
      ? { [P in keyof T]?: DeepPartial<T[P]> }
      : T;
type Merge<T, R> = R extends (infer RE)[]
  ? T extends (infer TE)[]
    ? Merge<TE, RE>[]
    : R
  : Open<T> extends true
    ? R
    : [T, R] extends [object, object]
      ? Omit<T, keyof R> & { [P in keyof R]: P extends keyof T ? Merge<T[P], R[P]> : R[P] }
      : R;

/**
 * The body of `res` where the test knows more than the document says: the document leaves some fields open
 * (`contentPayload`, `metadata`: any object) or nullable, and `R` names what this answer holds there. `R` must
 * fit the document's type (a narrowing of it, checked), and the rest of the body keeps the document's type.
 */
export async function refinedBodyOf<K extends Operation, R extends DeepPartial<Body<K>>>(
  res: Response,
): Promise<Merge<Body<K>, R>> {
  return res.json<Merge<Body<K>, R>>();
}

/** A JSON Schema of the served document (3.1: JSON Schema 2020-12 plus `example`), read keyword by keyword. */
export interface DocSchema {
  type?: string | string[];
  properties?: Record<string, DocSchema>;
  items?: DocSchema;
  required?: string[];
  enum?: unknown[];
  oneOf?: DocSchema[];
  anyOf?: DocSchema[];
  allOf?: DocSchema[];
  $ref?: string;
  description?: string;
  [keyword: string]: unknown;
}

/** An operation of the served document, with the fields tests read. */
export interface DocOperation {
  tags?: string[];
  summary?: string;
  description?: string;
  /** `[]` for an operation that answers without a key. */
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema: DocSchema }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: DocSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: DocSchema }> }>;
}

/** The served OpenAPI document (`/api/v1/openapi.json`): operations by path and method, schemas by name. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, DocOperation>>;
  /** What the API sends: an outgoing webhook's body by its name (`message`, `conversation.updated`). */
  webhooks?: Record<string, Record<string, DocOperation>>;
  components: { schemas: Record<string, DocSchema>; securitySchemes?: Record<string, DocSchema> };
}

/** The body of an answer of `GET /openapi.json` (the test asserts the status). */
export const documentOf = (res: Response) => res.json<OpenApiDocument>();

/** The body of `GET /health` (outside the document): the settings and bound resources the deployment lacks. */
export interface Health {
  status: "ok" | "degraded";
  settings: SettingProblem[];
  resources: ResourceProblem[];
}

/** The body of an answer of `GET /health` (the test asserts the status). */
export const healthOf = (res: Response) => res.json<Health>();
