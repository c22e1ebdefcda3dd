import type { Operation } from "./cases";
import type { Schema, SchemaKit } from "./schema";

/** What an answer is made of, as the document describes answers. */
export interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

/** The contract's error body (CONTRACT section 2), which every 4xx carries whatever the operation documents. */
const ERROR: Schema = { $ref: "#/components/schemas/Error" };
/** Problems listed per answer; the rest are counted. */
const SHOWN = 6;

/** Whether a documented media type (or range: `*\/*`, `image/*`) covers an answer's. */
const covers = (documented: string, media: string) =>
  documented === media ||
  documented === "*/*" ||
  (documented.endsWith("/*") && media.startsWith(documented.slice(0, -1)));

/**
 * How an answer differs from what the document says the operation answers with that status (empty when it does
 * not): a status the document does not list (2xx, 3xx), a media type it does not list, a JSON body its schema
 * refuses (instance path, keyword, the validator's words), and fields the schema does not name, which a client
 * generated from the document never sees. A 4xx is read against the operation's schema for it, else against its
 * schema for another 4xx (an operation has one error body), else `Error`.
 * Bodies of other media types (event streams, files) are not read.
 */
export function answerProblems(kit: SchemaKit, op: Pick<Operation, "responses">, answer: Answer): string[] {
  const status = String(answer.status);
  const documented = op.responses[status] ?? op.responses[`${status[0]}XX`] ?? op.responses.default;
  const media = answer.contentType?.split(";")[0].trim().toLowerCase() || "";
  let schema: Schema | undefined;
  if (answer.status >= 400) {
    if (media !== "application/json") return [`an error answer of Content-Type ${media || "(none)"}, not JSON`];
    // A status the operation does not list (413, 415: any JSON route) answers with its error body all the same.
    const errorSchema = (s: string) => op.responses[s]?.content?.["application/json"]?.schema;
    schema =
      errorSchema(status) ??
      Object.keys(op.responses)
        .filter((s) => s >= "400" && s < "500")
        .map(errorSchema)
        .find(Boolean) ??
      ERROR;
  } else {
    const listed = Object.keys(op.responses).filter((s) => s < "400");
    if (!documented) return [`status ${status} is not documented (documented: ${listed.join(", ")})`];
    const types = Object.keys(documented.content ?? {});
    if (!types.length)
      return answer.text ? [`a body (${media || "no Content-Type"}) where the document says none`] : [];
    if (!types.some((t) => covers(t, media)))
      return [`Content-Type ${media || "(none)"} is not documented (${types.join(", ")})`];
    if (media !== "application/json") return [];
    schema = documented.content?.[media]?.schema;
    if (!schema) return [];
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return ["the body is not JSON"];
  }
  const problems = [
    ...kit.problems(schema, body).map((p) => `${p.path} ${p.keyword}: ${p.message}`),
    ...kit.undocumented(schema, body).map((path) => `${path}: a field the schema does not name`),
  ];
  return problems.length > SHOWN ? [...problems.slice(0, SHOWN), `(${problems.length - SHOWN} more)`] : problems;
}
