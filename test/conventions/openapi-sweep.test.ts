import { SELF, env } from "cloudflare:test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedOwner, unique, type Actor } from "../harness";
import { SchemaKit } from "../support/openapi-sweep/schema";
import { answerProblems } from "../support/openapi-sweep/responses";
import { bodyOf, documentOf } from "../support/api";
import {
  bodyProbes,
  fillPath,
  nameOf,
  operationsOf,
  pathProbes,
  queryProbes,
  queryString,
  type Operation,
  type Probe,
} from "../support/openapi-sweep/cases";
import { changes, settled, snapshot, type Scope } from "../support/openapi-sweep/rows";
import {
  SWEEP_PASSWORD,
  anyClient,
  skillZip,
  buildWorld,
  refreshLinks,
  type Resource,
  type World,
} from "../support/openapi-sweep/world";

/**
 * The OpenAPI sweep: every operation of the served document, under both prefixes (the "two-parts" project: under
 * `/api/v1`), gets
 *  1. malformed requests generated from its own schema (wrong media types, empty, broken and hostile
 *     JSON, a depth bomb, invalid UTF-8, an oversize body, duplicate keys, each required field
 *     missing, each field of a wrong type or out of bounds, wrong query parameters, path ids that are
 *     not ids, no key): each answer must be a 4xx with the contract's error body, and the
 *     organization's rows and objects must be exactly as before (rows/objects compared whole);
 *     odd text the schema allows (free-form filters, large free-form strings) must not be a 5xx;
 *  2. organization A's ids sent with organization B's key: a 404 for every path naming them (never a
 *     2xx, never a 403 that reveals the resource exists), and nothing of A in any answer B gets;
 *  3. a control: the same valid requests with the organization's own ids succeed, so the 404s of 2
 *     come from the organization check and not from a wrong id or body;
 *  4. every answer of 1-3 is what the document says of its operation and status: a documented status and media
 *     type, a JSON body its schema accepts (errors: the operation's error schema, else `Error`), and no field the
 *     schema does not name (test/support/openapi-sweep/responses.ts).
 * An operation the sweep cannot resolve fails the coverage test, so a new endpoint is swept the day it lands.
 */

// ---------------------------------------------------------------------------------------------
// Resolver tables. A new path or query parameter must be added here, else its operations are
// reported as not covered.

/** Path parameters named after what they hold. */
const PARAM_RESOURCES: Record<string, Resource> = {
  organizationPk: "organization",
  groupPk: "group",
  chatbotPk: "chatbot",
  chatbotId: "chatbot",
  inboxId: "inbox",
  webhookId: "webhook",
  recordId: "webhookRecord",
  knowledgeBaseId: "knowledgeBase",
  labelId: "label",
  faqId: "faq",
  fileId: "file",
  path: "publicFile",
  conversationPk: "conversation",
  key: "upload",
  conversationId: "widgetConversation",
  messageId: "widgetMessage",
  share: "widgetShare",
  toolPk: "tool",
  webchatPk: "webChat",
  memberId: "connectorMember",
  tableId: "sqlTable",
};

/** `{id}`: what it holds, by the collection segment before it. */
const ID_RESOURCES: Record<string, Resource> = {
  "api-keys": "apiKey",
  sessions: "consoleSession",
  organizations: "organization",
  members: "member",
  groups: "group",
  "group-members": "groupMember",
  "group-chatbots": "groupChatbot",
  "large-language-models": "llm",
  "embedding-models": "embeddingModel",
  "reranker-models": "rerankerModel",
  inboxes: "inbox",
  "web-chats": "webChat",
  chatbots: "chatbot",
  contacts: "contact",
  conversations: "conversation",
  messages: "message",
  "knowledge-bases": "knowledgeBase",
  "chatbot-text-nodes": "textNode",
  attachments: "attachment",
  tools: "tool",
  "tool-execution-records": "toolExecutionRecord",
  "built-in-workflows": "builtInWorkflow",
  "batch-qas": "batchQa",
  connectors: "connector",
  skills: "skill",
  "sql-databases": "sqlDatabase",
  registry: "mcpRegistryEntry",
  labels: "conversationLabel",
  "canned-responses": "cannedResponse",
};

/** Path parameters of particular operations that name another kind of resource than the tables above say. */
const OPERATION_PARAMS: Record<string, Record<string, Resource>> = {
  "/tools/{id}/credentials/": { id: "mcpTool" },
  "/inboxes/{id}/channel/": { id: "channelInbox" },
  "/inboxes/{id}/channel/connect/": { id: "channelInbox" },
  "/messages/{id}/channel-delivery/retry/": { id: "failedDelivery" },
};

/** Query parameters given a valid value in every request (required ones, and the file of text node lists). */
const QUERY_RESOURCES: Record<string, Resource> = {
  conversation: "conversation",
  inbox: "inbox",
  knowledgeBaseFile: "file",
  chatbotFile: "file",
  lastEventId: "widgetEventId",
  startDate: "startDate",
  endDate: "endDate",
  timeGranularity: "timeGranularity",
  mcpUrl: "mcpUrl",
};

/**
 * Operations whose path parameters are not an organization's resource ids, so the
 * cross-organization check does not apply (built-in catalogue rows, such as seeded models,
 * permissions and parsers, are global by design too; the ids used here are all the organization's own).
 */
const NOT_ORGANIZATION_SCOPED: Record<string, string> = {
  "GET /files/public/{path}": "public files are served without a key, under an unguessable path",
  "GET /uploads/{key}": "downloads carry their own signature, not a key",
  "PUT /uploads/{key}": "the PUT upload target carries its own signature, not a key",
  "POST /uploads/": "the POST upload target carries its own signed policy, not a key",
  "GET /built-in-workflows/{id}/": "built-in workflows are a global catalogue, the same for every organization",
  "GET /mcp/registry/{id}/": "the MCP registry is a global catalogue, the same for every organization",
  ...Object.fromEntries(
    [
      "GET /web-chats/{id}/public/config/",
      "POST /web-chats/{id}/public/session/",
      "GET /web-chats/{id}/public/conversations/",
      "GET /web-chats/{id}/public/conversations/{conversationId}/messages/",
      "GET /web-chats/{id}/public/conversations/{conversationId}/stream/",
      "GET /web-chats/{id}/public/conversations/{conversationId}/events/",
      "POST /web-chats/{id}/public/conversations/{conversationId}/share/",
      "POST /web-chats/{id}/public/messages/",
      "POST /web-chats/{id}/public/messages/{messageId}/feedback/",
      "POST /web-chats/{id}/public/conversations/{conversationId}/typing/",
      "POST /web-chats/{id}/public/conversations/{conversationId}/csat/",
      "GET /web-chats/{id}/public/shared/{share}/",
      "POST /web-chats/{id}/public/uploads/",
    ].map((op) => [
      op,
      "the web chat's public API (the widget) is scoped by visitor token, not by organization: another " +
        "visitor's ids are 404 (test/routes/widget/)",
    ]),
  ),
};

/** Body fields a valid sample cannot guess from the schema (ids of the world, unique e-mails). */
/** Fields merged into an object body's sample; an array replaces an array body whole. */
const BODY_OVERRIDES: Record<string, (w: World, marker: string) => Record<string, unknown> | unknown[]> = {
  // The channel's own token again (any other field is not Telegram's: 400).
  "PUT /inboxes/{id}/channel/": (w) => ({ botToken: w.ids.channelToken }),
  "POST /auth/registration/": (_w, marker) => ({ email: `${unique(marker)}@example.com`.toLowerCase() }),
  "POST /auth/login/": (w) => ({ email: w.owner.email, password: SWEEP_PASSWORD }),
  "POST /auth/sessions/": (w) => ({ email: w.owner.email, password: SWEEP_PASSWORD }),
  "POST /auth/password/change/": () => ({
    oldPassword: SWEEP_PASSWORD,
    newPassword1: SWEEP_PASSWORD,
    newPassword2: SWEEP_PASSWORD,
  }),
  "PUT /users/current/": (w) => ({ email: w.owner.email }),
  "POST /organizations/{organizationPk}/members/": (w) => ({ email: w.outsiderEmail }),
  "POST /large-language-models/": () => ({ baseUrl: "https://models.example.com/v1" }),
  "POST /embedding-models/": () => ({ baseUrl: "https://models.example.com/v1", dimensions: 8 }),
  "POST /reranker-models/": () => ({ baseUrl: "https://models.example.com/v1" }),
  "POST /chatbots/{id}/search/": () => ({ query: "refunds" }),
  "POST /organizations/{organizationPk}/members/{id}/update-groups/": (w) => ({ groups: [w.ids.group] }),
  "POST /organizations/{organizationPk}/groups/": () => ({ name: unique("group") }),
  "PUT /organizations/{organizationPk}/groups/{id}/": () => ({ name: unique("group") }),
  "POST /knowledge-bases/{knowledgeBaseId}/labels/": () => ({ name: unique("label") }),
  "PUT /knowledge-bases/{knowledgeBaseId}/labels/{labelId}/": () => ({ name: unique("label") }),
  "POST /knowledge-bases/{knowledgeBaseId}/files/": (w) => ({ files: [{ file: w.ids.upload, filename: "sweep.txt" }] }),
  // Files of the knowledge base: ids of none are refused.
  "POST /knowledge-bases/{knowledgeBaseId}/files/batch-delete/": (w) => ({ ids: [w.ids.spareFile] }),
  "PATCH /knowledge-bases/{knowledgeBaseId}/files/batch-reparse/": (w) => [{ id: w.ids.reparseFile }],
  "POST /organizations/{organizationPk}/groups/{groupPk}/group-members/bulk-create/": (w) => ({
    members: [w.ids.member],
  }),
  "POST /organizations/{organizationPk}/groups/{groupPk}/group-chatbots/bulk-create/": (w) => ({
    chatbots: [w.ids.chatbot],
  }),
  "POST /web-chats/": (w) => ({ inbox: { id: w.ids.inbox } }),
  "PUT /web-chats/{id}/": (w) => ({ inbox: { id: w.ids.inbox } }),
  "POST /conversations/": (w) => ({ webChat: w.ids.webChat }),
  // Text, as a message needs text or attachments.
  "POST /messages/": (w) => ({ conversation: w.ids.conversation, content: "Sweep" }),
  "POST /messages/outgoing/": (w) => ({ conversation: w.ids.conversation, content: "Sweep" }),
  "POST /labels/": () => ({ name: unique("label"), color: "#1f77b4" }),
  "PATCH /labels/{id}/": () => ({ name: unique("label") }),
  "PUT /conversations/{id}/labels/": (w) => ({ labelIds: [w.ids.conversationLabel] }),
  "POST /conversations/{id}/assign/": (w) => ({ assigneeId: w.owner.userId }),
  "POST /web-chats/{webchatPk}/batch-qas/": (w) => ({ file: w.ids.batchQaFile }),
  "POST /tools/": () => ({ name: unique("tool").replace(/-/g, "_"), displayName: "Sweep", toolType: "desktop" }),
  "PUT /tools/{id}/": () => ({
    name: unique("tool").replace(/-/g, "_"),
    displayName: "Sweep",
    toolType: "function",
    functionCode: "function main() { return 1; }",
  }),
  "POST /skills/": () => ({ name: unique("skill"), description: "A skill of the sweep" }),
  "PUT /skills/{id}/": () => ({ name: unique("skill"), description: "A skill of the sweep" }),
  "POST /sql-databases/": () => ({ name: unique("db"), databaseType: "managed" }),
  "PUT /sql-databases/{id}/": () => ({ name: unique("db"), databaseType: "managed" }),
  "POST /connectors/": (w) => ({ mcpRegistryId: w.ids.mcpRegistryEntry, urlVariables: { serverUrl: w.ids.mcpUrl } }),
  "PUT /connectors/{id}/": (w) => ({
    mcpRegistryId: w.ids.mcpRegistryEntry,
    urlVariables: { serverUrl: w.ids.mcpUrl },
  }),
  "POST /connectors/{id}/credentials/": () => ({ headers: { Authorization: "Bearer sweep" } }),
  "POST /tools/{id}/credentials/": () => ({ headers: { Authorization: "Bearer sweep" } }),
  "POST /upload-presigned-url/": () => ({
    modelName: "attachment",
    fieldName: "file",
    filename: "sweep.txt",
    fileSize: 20,
  }),
  "POST /attachments/": (w) => ({ file: w.ids.attachmentUpload, filename: "sweep.txt" }),
  "POST /canned-responses/": () => ({
    shortCode: unique("sweep")
      .replace(/[^a-z0-9_-]/g, "")
      .slice(0, 50),
  }),
  "PATCH /canned-responses/{id}/": () => ({
    shortCode: unique("sweep")
      .replace(/[^a-z0-9_-]/g, "")
      .slice(0, 50),
  }),
  "POST /conversations/{conversationPk}/attachments/": (w) => ({ file: w.ids.attachmentUpload, filename: "sweep.txt" }),
  // Nothing that late: the record's own redeliver (swept after it) then finds no attempt of its event pending.
  "POST /inboxes/{inboxId}/webhooks/{webhookId}/redeliver-failed/": () => ({ since: "2100-01-01" }),
};

/** Multipart bodies of operations that take only multipart/form-data. */
const FORM_OVERRIDES: Record<string, (w: World) => FormData> = {
  "POST /skills/upload/": () => {
    const form = new FormData();
    form.append("file", new File([skillZip(unique("skill"))], "skill.zip", { type: "application/zip" }));
    return form;
  },
  "POST /sql-databases/{id}/tables/": () => {
    const form = new FormData();
    form.append("file", new File(["region,amount\nnorth,1\n"], "t.csv", { type: "text/csv" }));
    form.append("tableName", unique("t").replace(/-/g, "_"));
    return form;
  },
  "POST /attachments-upload/": () => {
    const form = new FormData();
    form.append("file", new File(["Uploaded by the sweep."], "sweep.txt", { type: "text/plain" }));
    return form;
  },
};

/** The valid body of an operation (JSON from its schema, or a form), with its Content-Type. */
function validRequest(op: Operation, w: World): Pick<Probe, "headers" | "body"> {
  const form = FORM_OVERRIDES[opKey(op)];
  if (form) return { headers: {}, body: form(w) };
  const body = sampleBody(op, w);
  return body === undefined
    ? { headers: {} }
    : { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

/** Answers the control test expects instead of a 2xx, by design. */
const CONTROL_EXPECTED: Record<string, [number, string]> = {
  "POST /web-chats/": [409, "creating a web inbox creates its web chat, so no inbox lacks one"],
  "POST /web-chats/{id}/custom-domain/verify/": [
    400,
    "the sweep's web chat has no custom domain (verification is tested in test/routes/widget/pages.test.ts)",
  ],
  "POST /tool-execution-records/{id}/result/": [
    400,
    "only a pending desktop call takes a result (tested in test/scenarios/agent.test.ts)",
  ],
  "GET /auth/sessions/current/": [
    404,
    "the sweep sends API keys, which carry no console session (the cookie is tested in test/routes/sessions/)",
  ],
  "DELETE /auth/sessions/current/": [
    404,
    "the sweep sends API keys, which carry no console session (sign-out is tested in " +
      "test/routes/sessions/sign-out.test.ts)",
  ],
  "DELETE /auth/sessions/{id}/": [
    404,
    "the password change earlier in this phase ended the world's console session (revoking is tested in " +
      "test/routes/sessions/revoke.test.ts)",
  ],
  "POST /uploads/": [
    400,
    "a valid upload needs a fresh signed policy (the flow is tested in test/routes/attachments/presigned-flow.test.ts)",
  ],
  "GET /uploads/{key}": [403, "a download needs its signature (tested in test/routes/attachments/)"],
  "PUT /uploads/{key}": [
    403,
    "a PUT upload needs its signature (tested in test/routes/attachments/presigned-flow.test.ts)",
  ],
  "POST /web-chats/{id}/public/conversations/{conversationId}/csat/": [
    400,
    "the sweep's widget conversation is not resolved (rating is tested in test/routes/widget/csat.test.ts)",
  ],
};

/** Children whose path is shorter than their parent's, deleted as deep as this (a text node is its file's). */
const CHILD_DEPTH: Record<string, number> = { "/chatbot-text-nodes/{id}/": 9 };

// ---------------------------------------------------------------------------------------------

const opKey = (op: Operation) => `${op.method} ${op.template}`;

function resourceOf(template: string, param: string): Resource | undefined {
  const special = OPERATION_PARAMS[template]?.[param];
  if (special) return special;
  if (param !== "id") return PARAM_RESOURCES[param];
  const segments = template.split("/").filter(Boolean);
  return ID_RESOURCES[segments[segments.indexOf("{id}") - 1]];
}

/** Why an operation cannot be swept (empty when it can). */
function gaps(kit: SchemaKit, op: Operation, sampleBody: (op: Operation, w: World) => unknown, w: World): string[] {
  const out: string[] = [];
  for (const p of op.pathParams)
    if (!resourceOf(op.template, p)) out.push(`path parameter {${p}} has no entry in PARAM_RESOURCES / ID_RESOURCES`);
  for (const q of op.query)
    if (q.required && !QUERY_RESOURCES[q.name])
      out.push(`required query parameter ${q.name} has no entry in QUERY_RESOURCES`);
  if (op.body?.other.length) out.push(`request media type(s) ${op.body.other.join(", ")} are not generated`);
  if (op.body?.json && !kit.valid(op.body.json, sampleBody(op, w)))
    out.push("no valid sample body can be built from the schema: add its fields to BODY_OVERRIDES");
  return out;
}

interface Sent {
  status: number;
  text: string;
  contentType: string | null;
  requestId: string | null;
}

let requests = 0;
/** Answers by status, for the figures printed at the end. */
const statuses: Record<number, number> = {};
/** Visitor tokens by web chat id: the widget's public API takes these instead of a key. */
const visitorTokens = new Map<string, string>();

async function send(p: Probe, key?: string, extra: Record<string, string> = {}): Promise<Sent> {
  const widget = /\/web-chats\/([^/?]+)\/public\//.exec(p.url);
  const token = widget ? visitorTokens.get(widget[1]) : undefined;
  const auth: Record<string, string> =
    p.auth === false
      ? {}
      : token
        ? { Authorization: `Bearer ${token}` }
        : key
          ? { Authorization: `Api-Key ${key}` }
          : {};
  const headers: Record<string, string> = { ...auth, ...(widget ? anyClient() : {}), ...p.headers, ...extra };
  requests++;
  const res = await SELF.fetch(`http://localhost${p.url}`, { method: p.method, headers, body: p.body });
  statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  // Bytes, decoded leniently: some answers are files (spreadsheets, images). A live event stream
  // never ends: its first chunk is the answer.
  const text =
    LIVE_STREAM.test(p.url.split("?")[0]) && res.ok
      ? await firstChunk(res)
      : new TextDecoder().decode(await res.arrayBuffer());
  return {
    status: res.status,
    text,
    contentType: res.headers.get("Content-Type"),
    requestId: res.headers.get("X-Request-Id"),
  };
}

/** Paths of event streams that stay open (the live inbox, the widget's live messages). */
const LIVE_STREAM = /\/(conversation-events|conversations\/[^/]+\/events)\/$/;

async function firstChunk(res: Response): Promise<string> {
  const reader = res.body!.getReader();
  const { value } = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(value);
}

/** Runs `fn` over `items`, at most `limit` at a time. */
async function pool<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i], i);
      }
    }),
  );
  return out;
}

/** The contract's error body (CONTRACT section 2); null when the answer is one. */
function errorBodyProblem(r: Sent): string | null {
  let body: { detail?: unknown; code?: unknown; requestId?: unknown };
  try {
    body = JSON.parse(r.text);
  } catch {
    return "no JSON error body";
  }
  if (typeof body?.detail !== "string" || typeof body?.code !== "string") return "error body without detail and code";
  if (!r.requestId) return "no X-Request-Id";
  if (body.requestId !== r.requestId) return "error body without the X-Request-Id's requestId";
  return null;
}

/** `invalid UTF-8 in a string: 12, ...`: how many findings of each kind of request. */
function byKind(lines: string[]) {
  const counts = new Map<string, number>();
  for (const line of lines) {
    const kind = /\[([^\]]*)\]/.exec(line)?.[1].replace(/^[\w.]+: (?=1e999)/, "") ?? "?";
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${kind}: ${n}`)
    .join(", ");
}

/** Answers that differ from what the document says of their operation and status, each difference once. */
const drift = new Set<string>();
let answersRead = 0;

/** Reads an answer against the document (test/support/openapi-sweep/responses.ts); `drift` keeps what differs. */
function readAnswer(op: Operation, r: Sent) {
  answersRead++;
  for (const problem of answerProblems(kit, op, r)) drift.add(`${nameOf(op)} -> ${r.status}: ${problem}`);
}

const snippet = (text: string) => (text.length > 160 ? `${text.slice(0, 160)}...` : text).replace(/\s+/g, " ");

// ---------------------------------------------------------------------------------------------

let kit: SchemaKit;
let ops: Operation[];
/** The prefixes swept: both, or `/api/v1` alone in the "two-parts" project (`inTwoParts`). */
let prefixes: string[];
const marker = unique("sweep").toLowerCase();
let M: World; // the malformed phase's organization
let A: World; // owns the resources of the cross-organization phase
let B: Actor; // the stranger
let keys: string[] = [];
const findings: string[] = [];
const started = Date.now();
const swept = new Set<string>();
let crossChecked = 0;
/** Tables nothing links to an organization or user: compared whole, whoever wrote them. */
let unscoped: string[] = [];

function sampleBody(op: Operation, w: World): unknown {
  if (!op.body?.json) return undefined;
  const sample = kit.sample(op.body.json);
  const extra = BODY_OVERRIDES[opKey(op)]?.(w, marker);
  if (Array.isArray(extra)) return extra;
  return extra && sample && typeof sample === "object" && !Array.isArray(sample) ? { ...sample, ...extra } : sample;
}

function valuesOf(op: Operation, w: World) {
  const path: Record<string, string> = {};
  for (const p of op.pathParams) path[p] = w.ids[resourceOf(op.template, p)!];
  const query: Record<string, string> = {};
  for (const q of op.query) if (QUERY_RESOURCES[q.name]) query[q.name] = w.ids[QUERY_RESOURCES[q.name]];
  return { path, query };
}

/** Whether this run gives every organization a second part (test/support/two-parts-setup.ts's trigger). */
const inTwoParts = async () =>
  Boolean(
    await env.DB.prepare("SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = 'test_second_part'").first(),
  );

const scopeOf = (...worlds: (World | Actor)[]): Scope => ({
  organizations: worlds.map((w) => ("ids" in w ? w.ids.organization : w.organizationId)),
  users: worlds.flatMap((w) => ("users" in w ? w.users : [w.userId])),
  emailMarker: marker,
  objectPrefixes: worlds.flatMap((w) =>
    "objectPrefixes" in w ? w.objectPrefixes : [`public/organizations/${w.organizationId}/`],
  ),
});

beforeAll(async () => {
  const doc = await documentOf(await SELF.fetch("http://localhost/api/v1/openapi.json"));
  kit = new SchemaKit(doc.components);
  // Both prefixes are one router: which one a request names changes nothing of where its rows are. The "two-parts"
  // project sweeps again for the parts (every write found and refused in the organization's both parts), under one.
  prefixes = (await inTwoParts()) ? ["/api/v1"] : ["/api/v1", "/api"];
  ops = operationsOf(doc).filter((op) => prefixes.includes(op.prefix));
  const [m, a, b] = await Promise.all([seedOwner("sweep-m"), seedOwner("sweep-a"), seedOwner("sweep-b")]);
  [M, A] = await Promise.all([buildWorld(m), buildWorld(a)]);
  for (const w of [M, A]) visitorTokens.set(w.ids.webChat, w.visitorToken);
  B = b;
  // The per-key limit is 1,200 requests a minute: the malformed phase spreads its requests over ten keys.
  const extra = await Promise.all(
    Array.from({ length: 9 }, () =>
      m
        .fetch("POST", "/api-keys/", { name: unique("sweep-key") })
        .then(async (r) => (await bodyOf<"POST /api-keys/">(r)).key),
    ),
  );
  keys = [m.key, ...extra];
}, 240_000);

afterAll(() => {
  console.log(
    `OpenAPI sweep: ${swept.size} of ${ops?.length ?? 0} operations swept with malformed requests (` +
      `${prefixes?.join(" and ")}), ${crossChecked} checked across organizations, ${requests} requests, ` +
      `${findings.length} findings, ${answersRead} answers read against the document's response schemas ` +
      `(${drift.size} differences), ${((Date.now() - started) / 1000).toFixed(1)} s; answers by status ` +
      `${JSON.stringify(statuses)}` +
      (unscoped.length ? `; tables not scoped to an organization: ${unscoped.join(", ")}` : ""),
  );
});

describe("OpenAPI sweep", () => {
  it("covers every operation of the served document, under both prefixes (one in two-parts)", () => {
    expect(ops.filter((o) => o.prefix === "/api/v1").length).toBeGreaterThan(100);
    expect(new Set(ops.map((o) => `${o.method} ${o.template}`)).size * prefixes.length).toBe(ops.length);
    const uncovered = ops.flatMap((op) =>
      gaps(kit, op, sampleBody, M).map((g) => `${nameOf(op)} -> not covered: ${g}`),
    );
    expect(uncovered, `Operations the sweep cannot resolve:\n${uncovered.join("\n")}`).toEqual([]);
  });

  it("malformed requests are refused with a 4xx error body and write nothing", async () => {
    const scope = scopeOf(M);
    let before = await settled(scope);
    unscoped = before.unscoped;
    const mine: string[] = [];
    let k = 0;
    for (const op of ops) {
      if (gaps(kit, op, sampleBody, M).length) continue;
      const { path, query } = valuesOf(op, M);
      const url = `${op.prefix}${fillPath(op.template, path)}`;
      const base = sampleBody(op, M);
      const validBody: Pick<Probe, "headers" | "body"> =
        op.body?.json && op.method !== "GET" && op.method !== "DELETE"
          ? { headers: { "Content-Type": "application/json" }, body: JSON.stringify(base) }
          : { headers: {} };
      const probes: Probe[] = [
        ...pathProbes(op, path, queryString(query), validBody),
        ...queryProbes(kit, op, url, query, validBody),
        ...(op.body ? bodyProbes(kit, op, `${url}${queryString(query)}`, base) : []),
      ];
      if (!op.public) {
        const at = `${url}${queryString(query)}`;
        probes.push({ label: "no API key", method: op.method, url: at, auth: false, ...validBody });
        probes.push({
          label: "unknown API key",
          method: op.method,
          url: at,
          ...validBody,
          headers: { ...validBody.headers, Authorization: "Api-Key ak_NoSuchKey000000000000000000000000000000" },
        });
      }
      // Strict probes first, then the write check, then the lenient ones (which may write).
      probes.sort((x, y) => Number(!!x.lenient) - Number(!!y.lenient));
      const strict = probes.filter((p) => !p.lenient).length;
      const results = await pool(probes.slice(0, strict), 8, (p) => send(p, keys[k++ % keys.length]));
      const after = await snapshot(scope);
      results.push(...(await pool(probes.slice(strict), 8, (p) => send(p, keys[k++ % keys.length]))));
      probes.forEach((p, i) => {
        const r = results[i];
        readAnswer(op, r);
        const problem =
          r.status >= 500 || r.status === 429
            ? "not a 4xx"
            : r.status < 400
              ? p.lenient
                ? null
                : "not a 4xx"
              : errorBodyProblem(r);
        if (problem) mine.push(`${nameOf(op)} [${p.label}] -> ${r.status} (${problem}) ${snippet(r.text)}`);
      });
      const wrote = changes(before, after);
      // A request answered 2xx is a finding already, and writes legitimately: only refused requests must leave no
      // trace.
      if (wrote.length && results.slice(0, strict).every((r) => r.status >= 400))
        mine.push(`${nameOf(op)} [refused requests] -> wrote: ${wrote.join("; ")}`);
      // After accepted requests, background work (usage counters, queues) may still be writing: wait for it.
      before = results.some((r) => r.status < 300) ? await settled(scope) : after;
      swept.add(nameOf(op));
    }
    findings.push(...mine);
    expect(
      mine,
      `Malformed requests not refused cleanly (${mine.length}; by kind: ${byKind(mine)}):\n${mine.join("\n")}`,
    ).toEqual([]);
  }, 360_000);

  it("organization B gets a 404 for every path naming organization A's resources, and never sees A's ids", async () => {
    const scope = scopeOf(A, B);
    const before = await settled(scope);
    const mine: string[] = [];
    // Not secrets of A: public file paths, storage keys, and rows of the global catalogues.
    const secrets = Object.entries(A.ids).filter(
      ([kind]) =>
        ![
          "publicFile",
          "upload",
          "builtInWorkflow",
          "startDate",
          "endDate",
          "timeGranularity",
          "mcpUrl",
          "mcpRegistryEntry",
        ].includes(kind),
    );
    const leaked = (text: string) => secrets.filter(([, id]) => text.includes(id)).map(([kind]) => kind);
    const targets = ops
      .filter((op) => !NOT_ORGANIZATION_SCOPED[opKey(op)] && !gaps(kit, op, sampleBody, A).length)
      // Paths naming A's resources, filters naming them (`?conversation=`), and every list and read of B's own.
      .filter((op) => op.pathParams.length || op.query.some((q) => QUERY_RESOURCES[q.name]) || op.method === "GET")
      // Deletes last: should one wrongly succeed, the checks before it still see A's resources.
      .sort((x, y) => Number(x.method === "DELETE") - Number(y.method === "DELETE"));
    for (const op of targets) {
      const { path, query } = valuesOf(op, A);
      const probe: Probe = {
        label: "",
        method: op.method,
        url: `${op.prefix}${fillPath(op.template, path)}${queryString(query)}`,
        ...validRequest(op, A),
      };
      for (const [label, extra] of [
        ["B's key", {}],
        ["B's key, X-Organization-Id of A", { "X-Organization-Id": A.ids.organization }],
      ] as const) {
        const r = await send(probe, B.key, extra);
        readAnswer(op, r);
        // A path naming A's resource is a 404; elsewhere (filters, B's own lists) any clean answer that shows nothing
        // of A.
        const problem =
          op.pathParams.length && r.status !== 404
            ? "not a 404"
            : r.status >= 500 || r.status === 429
              ? "not a 4xx"
              : r.status >= 400
                ? errorBodyProblem(r)
                : leaked(r.text).length
                  ? `shows A's ${leaked(r.text).join(", ")}`
                  : null;
        if (problem) mine.push(`${nameOf(op)} [${label}] -> ${r.status} (${problem}) ${snippet(r.text)}`);
      }
    }
    crossChecked = targets.length;
    const wrote = changes(before, await snapshot(scope));
    if (wrote.length) mine.push(`cross-organization requests wrote: ${wrote.join("; ")}`);
    findings.push(...mine);
    expect(mine, `Cross-organization requests not answered 404 (${mine.length}):\n${mine.join("\n")}`).toEqual([]);
  }, 240_000);

  it("control: the same requests with the organization's own ids succeed (so the 404s above count)", async () => {
    // In M, whose resources the malformed phase has finished with: deletes last, children before
    // parents, the organization itself at the very end.
    const depth = (op: Operation) => CHILD_DEPTH[op.template] ?? op.template.split("/").length;
    const targets = ops
      .filter((op) => op.prefix === "/api/v1" && !gaps(kit, op, sampleBody, M).length)
      .sort((x, y) => {
        const rank = (op: Operation) => (op.method !== "DELETE" ? 0 : op.template === "/organizations/{id}/" ? 2 : 1);
        return rank(x) - rank(y) || (x.method === "DELETE" ? depth(y) - depth(x) : 0);
      });
    const mine: string[] = [];
    for (const op of targets) {
      await refreshLinks(M);
      const { path, query } = valuesOf(op, M);
      const r = await send(
        {
          label: "",
          method: op.method,
          url: `${op.prefix}${fillPath(op.template, path)}${queryString(query)}`,
          ...validRequest(op, M),
        },
        M.owner.key,
      );
      readAnswer(op, r);
      const expected = CONTROL_EXPECTED[opKey(op)]?.[0];
      if (expected ? r.status !== expected : r.status >= 300)
        mine.push(`${nameOf(op)} -> ${r.status} ${snippet(r.text)}`);
    }
    expect(
      mine,
      `Valid requests of the sweep refused (${mine.length}): fix the resolver tables or ` +
        `BODY_OVERRIDES\n${mine.join("\n")}`,
    ).toEqual([]);
  }, 240_000);

  it("every answer above is what the document says for its operation and status", () => {
    // The three phases read every answer (readAnswer): successes against the operation's response schema, errors
    // against its error schema (`Error`, the gateway's `GatewayError`). A client generated from the document
    // (console/src/api/schema.d.ts, openapi-typescript, openapi-generator) is typed by those schemas, so a
    // difference is a bug of the answer or of the schema: fix whichever is wrong, not this test.
    expect(answersRead).toBeGreaterThan(1000);
    const lines = [...drift].sort();
    expect(lines, `Answers that differ from the document (${lines.length}):\n${lines.join("\n")}`).toEqual([]);
  });
});
