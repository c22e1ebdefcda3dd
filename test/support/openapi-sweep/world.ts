import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { and, eq } from "drizzle-orm";
import { groupMembers, organizations, uploads, webhookDeliveries } from "../../../src/db/schema";
import { uuidv7 } from "../../../src/lib/ids";
import { strToU8, zipSync } from "fflate";
import { objectPrefixOf } from "../../../src/services/knowledge/content";
import { call, data as dataPlane, db, seedMember, seedOwner, unique, type Actor } from "../../harness";
import { readEvents, storedReply, type StreamEvent } from "../sse";
import type { Schemas } from "../api";
import { channelInbox, messagesWhen, onlyConversation, post, standIn } from "../../channels/support";
import { LOCAL_LLM } from "../../fixtures/chatbots";
import { createFaq, createKnowledgeBase, createLabel, uploadFiles, waitForFile } from "../../fixtures/knowledge";

/** Kinds of resource an organization holds, as path parameters name them (see the resolver tables of the sweep). */
export type Resource =
  | "organization"
  | "member"
  | "group"
  | "groupMember"
  | "groupChatbot"
  | "apiKey"
  /** A console session of the owner (signed in with their key). */
  | "consoleSession"
  | "llm"
  | "embeddingModel"
  | "rerankerModel"
  | "chatbot"
  | "inbox"
  | "webChat"
  | "webhook"
  | "webhookRecord"
  | "contact"
  | "conversation"
  | "message"
  | "knowledgeBase"
  | "label"
  /** A conversation label of the organization (/labels/). */
  | "conversationLabel"
  /** A canned response of the organization (the reply box's `/`). */
  | "cannedResponse"
  | "faq"
  | "file"
  | "spareFile"
  | "reparseFile"
  | "textNode"
  | "publicFile"
  /** Key of an object uploaded for the organization (what JSON file references name). */
  | "upload"
  /** Key of a file uploaded through attachments-upload/ (what attachments name). */
  | "attachmentUpload"
  | "attachment"
  /** A visitor's conversation, reply and share token on the web chat's public API (the widget). */
  | "widgetConversation"
  | "widgetMessage"
  | "widgetShare"
  /** `Last-Event-ID` of the start of that reply (what a reconnecting widget sends). */
  | "widgetEventId"
  | "tool"
  | "toolExecutionRecord"
  /** A built-in workflow of the global catalogue. */
  | "builtInWorkflow"
  /** A batch QA run of the web chat, the key of its questions file, and the dates and granularity statistics queries
   * take. */
  | "batchQa"
  | "batchQaFile"
  | "startDate"
  | "endDate"
  | "timeGranularity"
  /** The in-test MCP server's URL, an mcp tool on it, a connector to it, the member holding a credential for that
   * connector, a registry entry. */
  | "mcpUrl"
  | "mcpTool"
  | "connector"
  | "connectorMember"
  | "mcpRegistryEntry"
  /** A skill, a managed SQL database and a table of it. */
  | "skill"
  | "sqlDatabase"
  | "sqlTable"
  /** A Telegram inbox connected to the stand-in, its bot token, and a reply the platform refused (a failed delivery).
   * */
  | "channelInbox"
  | "channelToken"
  | "failedDelivery";

/** The password every world's owner gets (login and password change need one). */
export const SWEEP_PASSWORD = "sweep password 1234";

export interface World {
  owner: Actor;
  /** Every user of the world (the owner and the member). */
  users: string[];
  ids: Record<Resource, string>;
  /** A registered user who is not a member (what adding a member needs). */
  outsiderEmail: string;
  /** R2 key prefixes of the world's objects. */
  objectPrefixes: string[];
  /** The visitor token of the web chat's public API (the widget's requests carry it instead of a key). */
  visitorToken: string;
}

/** A client address per request, so the widget's per-client limit never throttles the sweep. */
const anyOctet = () => Math.floor(Math.random() * 250);
export const anyClient = () => ({ "CF-Connecting-IP": `10.${anyOctet()}.${anyOctet()}.${anyOctet()}` });

/**
 * An object the owner uploaded, with its upload row as the signed upload leaves it: routes naming an upload by key
 * take only the caller's own (services/uploads/usable.ts).
 */
async function ownerUpload(owner: Actor, key: string, body: string, contentType: string, modelName: string) {
  await env.FILES.put(key, body, { httpMetadata: { contentType } });
  const size = new TextEncoder().encode(body).length;
  await (await dataPlane(owner.organizationId)).insert(uploads).values({
    key,
    organizationId: owner.organizationId,
    modelName,
    fieldName: "file",
    filename: key.split("/").pop()!,
    contentType,
    maxSize: size,
    size,
    createdBy: owner.userId,
    uploadedAt: Date.now(),
  });
}

/** A function tool and the record of a real call of it: an agent assistant asked with the tool forced (the local model
 * calls it). */
async function toolWithRecord(owner: Actor) {
  const tool = await owner
    .fetch("POST", "/tools/", {
      name: unique("sweep_tool").replace(/-/g, "_"),
      displayName: "Sweep tool",
      toolType: "function",
      functionCode: "function main(args) { return { echoed: args }; }",
    })
    .then((r) => created(r));
  const bot = await owner
    .fetch("POST", "/chatbots/", {
      name: unique("agent"),
      largeLanguageModel: LOCAL_LLM,
      replyMode: "agent",
      tools: [{ id: tool.id }],
    })
    .then((r) => created(r));
  await owner
    .fetch("POST", `/chatbots/${bot.id}/completions/`, {
      message: { content: "Run the sweep tool", toolIds: [tool.id] },
    })
    .then((r) => created(r, 200));
  const records = await owner
    .fetch("GET", `/tools/${tool.id}/tool-execution-records/`)
    .then((r) => created<{ results: { id: string }[] }>(r, 200));
  expect(records.results.length).toBeGreaterThan(0);
  const workflows = await owner
    .fetch("GET", "/built-in-workflows/")
    .then((r) => created<{ id: string }[] | { results: { id: string }[] }>(r, 200));
  const workflow = Array.isArray(workflows) ? workflows[0].id : workflows.results[0].id;
  return { tool: tool.id, record: records.results[0].id, workflow };
}

/** A skill package: SKILL.md with its front matter. */
export const skillZip = (name: string) =>
  zipSync({ "SKILL.md": strToU8(`---\nname: ${name}\ndescription: A skill of the sweep\n---\nSay hello.\n`) });

/** A skill, and a managed SQL database with one table made from a CSV file. */
async function skillAndDatabase(owner: Actor) {
  const form = new FormData();
  form.append("file", new File([skillZip(unique("skill"))], "skill.zip", { type: "application/zip" }));
  const [skill, sqlDatabase] = await Promise.all([
    owner.fetch("POST", "/skills/upload/", form).then((r) => created(r)),
    owner.fetch("POST", "/sql-databases/", { name: unique("db"), databaseType: "managed" }).then((r) => created(r)),
  ]);
  const csv = new FormData();
  csv.append("file", new File(["region,amount\nnorth,1\n"], "sales.csv", { type: "text/csv" }));
  csv.append("tableName", "sales");
  const table = await owner.fetch("POST", `/sql-databases/${sqlDatabase.id}/tables/`, csv).then((r) => created(r));
  return { skill: skill.id, sqlDatabase: sqlDatabase.id, sqlTable: table.id };
}

/** An mcp tool and a connector on the in-test MCP server, and the owner's credential for the connector. */
async function mcpResources(owner: Actor) {
  const mcpUrl = `${env.TEST_MCP_URL}/mcp`;
  const mcpRegistryEntry = "00000000-0000-7000-8100-000000000001"; // "Custom MCP server": any URL
  const [mcpTool, connector] = await Promise.all([
    owner.fetch("POST", "/tools/", { displayName: "Remote", toolType: "mcp", mcpUrl }).then((r) => created(r)),
    owner
      .fetch("POST", "/connectors/", { mcpRegistryId: mcpRegistryEntry, urlVariables: { serverUrl: mcpUrl } })
      .then((r) => created(r)),
  ]);
  await owner
    .fetch("POST", `/connectors/${connector.id}/credentials/`, { headers: { Authorization: "Bearer sweep" } })
    .then((r) => expect(r.status).toBeLessThan(300));
  const holders = await owner
    .fetch("GET", `/connectors/${connector.id}/authorized-members/`)
    .then((r) =>
      created<
        | { id?: string; memberId?: string; member?: { id: string } }[]
        | { results: { id?: string; memberId?: string; member?: { id: string } }[] }
      >(r, 200),
    );
  const [holder] = Array.isArray(holders) ? holders : holders.results;
  return {
    mcpUrl,
    mcpTool: mcpTool.id,
    connector: connector.id,
    connectorMember: holder.memberId ?? holder.member?.id ?? holder.id!,
    mcpRegistryEntry,
  };
}

/** A visitor of the web chat: a session, one answered message and a share link, through the public API. */
async function visitor(owner: Actor, webChatId: string) {
  await owner
    .fetch("PATCH", `/web-chats/${webChatId}/`, {
      enableAnonymous: true,
      enableShareConversation: true,
      enableFileUpload: true,
    })
    .then((r) => created(r, 200));
  const pub = (rest: string) => `/api/v1/web-chats/${webChatId}/public/${rest}`;
  const session = await call("POST", pub("session/"), {}, anyClient()).then((r) => created<{ token: string }>(r, 200));
  const auth = () => ({ Authorization: `Bearer ${session.token}`, ...anyClient() });
  const reply = await call("POST", pub("messages/"), { content: "How long do refunds take?" }, auth());
  expect(reply.status).toBe(200);
  const done = storedReply(await readEvents<StreamEvent<Schemas["WidgetMessage"]>>(reply));
  const share = await call("POST", pub(`conversations/${done.conversationId}/share/`), {}, auth()).then((r) =>
    created<{ share: string }>(r, 200),
  );
  return { token: session.token, conversation: done.conversationId, message: done.message.id, share: share.share };
}

async function created<T = { id: string }>(res: Response, status = 201): Promise<T> {
  const text = await res.text();
  expect(res.status, `${res.url} ${text}`).toBe(status);
  return JSON.parse(text) as T;
}

/**
 * One of every resource in `owner`'s organization, made through the API (the delivery record and the
 * public file through storage, as the queue consumer and the logo upload would leave them).
 */
export async function buildWorld(owner: Actor): Promise<World> {
  const org = owner.organizationId;
  const [member, outsider] = await Promise.all([
    seedMember(owner),
    seedOwner("outsider"),
    // Seeded owners have no password yet, so none is asked for the first one.
    owner
      .fetch("POST", "/auth/password/change/", {
        oldPassword: "-",
        newPassword1: SWEEP_PASSWORD,
        newPassword2: SWEEP_PASSWORD,
      })
      .then((r) => created(r, 200)),
  ]);
  const model = (kind: string) =>
    owner
      .fetch("POST", `/${kind}/`, {
        name: unique(kind),
        provider: "openai_compatible",
        modelName: "sweep-model",
        baseUrl: "https://models.example.com/v1",
        ...(kind === "embedding-models" ? { dimensions: 8 } : {}),
      })
      .then((r) => created(r));
  const [group, chatbot, llm, embeddingModel, rerankerModel, kb, contact, apiKey, signedIn] = await Promise.all([
    owner
      .fetch("POST", `/organizations/${org}/groups/`, { name: unique("group"), permissions: [] })
      .then((r) => created(r)),
    owner.fetch("POST", "/chatbots/", { name: unique("bot"), largeLanguageModel: LOCAL_LLM }).then((r) => created(r)),
    model("large-language-models"),
    model("embedding-models"),
    model("reranker-models"),
    createKnowledgeBase(owner),
    owner.fetch("POST", "/contacts/", { name: unique("contact") }).then((r) => created(r)),
    owner.fetch("POST", "/api-keys/", { name: unique("key") }).then((r) => created(r)),
    call("POST", "/api/v1/auth/sessions/", { apiKey: owner.key }).then((r) => created<{ session: { id: string } }>(r)),
  ]);
  const [[groupMember], [groupChatbot], inbox, label, files, completion, conversationLabel] = await Promise.all([
    owner
      .fetch("POST", `/organizations/${org}/groups/${group.id}/group-members/bulk-create/`, {
        members: [member.memberId],
      })
      .then((r) => created<{ id: string }[]>(r)),
    owner
      .fetch("POST", `/organizations/${org}/groups/${group.id}/group-chatbots/bulk-create/`, { chatbots: [chatbot.id] })
      .then((r) => created<{ id: string }[]>(r)),
    owner
      .fetch("POST", "/inboxes/", { name: unique("inbox"), channelType: "web", chatbot: { id: chatbot.id } })
      .then((r) => created<{ id: string; channel: { id: string } }>(r)),
    createLabel(owner, kb.id),
    uploadFiles(owner, kb.id, [
      { name: "sweep.txt", content: "The sweep checks every operation. Refunds take five days." },
      // The batch requests' own: a batch names files of its knowledge base, and the others' requests need the first
      // as it is (a re-parse replaces a file's text nodes).
      { name: "spare.txt", content: "A file the sweep's batch-delete removes." },
      { name: "reparse.txt", content: "A file the sweep's batch-reparse parses again." },
    ]),
    owner
      .fetch("POST", `/chatbots/${chatbot.id}/completions/`, { message: { content: "How long do refunds take?" } })
      .then((r) => created<{ conversationId: string; message: { id: string } }>(r, 200)),
    owner.fetch("POST", "/labels/", { name: unique("label"), color: "#1f77b4" }).then((r) => created(r)),
  ]);
  const [faq, webhook, file, cannedResponse] = await Promise.all([
    createFaq(owner, kb.id, {
      question: "How long do refunds take?",
      answer: "Five days.",
      labels: [{ id: label.id }],
    }),
    owner
      .fetch("POST", `/inboxes/${inbox.id}/webhooks/`, {
        name: unique("hook"),
        direction: "outgoing",
        url: `${env.TEST_RECEIVER_URL}/sweep`,
      })
      .then((r) => created(r)),
    waitForFile(owner, kb.id, files[0].id),
    owner
      .fetch("POST", "/canned-responses/", { shortCode: "sweep", content: "Hi {{contact.name}}" })
      .then((r) => created(r)),
  ]);
  expect(file.status).toBe("done");
  const nodes = await owner
    .fetch("GET", `/chatbot-text-nodes/?knowledgeBaseFile=${file.id}`)
    .then((r) => created<{ results: { id: string }[] }>(r, 200));
  const form = new FormData();
  form.append("file", new File(["Attached by the sweep."], "sweep.txt", { type: "text/plain" }));
  const direct = await owner.fetch("POST", "/attachments-upload/", form);
  expect(direct.status, await direct.clone().text()).toBe(200);
  const attachmentUpload = direct.headers.get("Location")!;
  const attachment = await owner
    .fetch("POST", "/attachments/", { file: attachmentUpload, filename: "sweep.txt" })
    .then((r) => created(r));
  const widget = await visitor(owner, inbox.channel.id);
  const tools = await toolWithRecord(owner);
  const batchQaFile = `uploads/${org}/batch-qa/${uuidv7()}/questions.csv`;
  await ownerUpload(owner, batchQaFile, "Question\nHow long do refunds take?\n", "text/csv", "batch-qa");
  const batchQa = await owner
    .fetch("POST", `/web-chats/${inbox.channel.id}/batch-qas/`, { file: batchQaFile })
    .then((r) => created(r, r.status === 202 ? 202 : 201));
  const mcp = await mcpResources(owner);
  const data = await skillAndDatabase(owner);
  const channel = await channelWithFailedDelivery(owner);
  // A delivery record of the webhook, as the outbox and the consumer leave one (a settled failure, so nothing retries
  // it).
  const webhookRecord = uuidv7();
  await (await dataPlane(org)).insert(webhookDeliveries).values({
    id: webhookRecord,
    organizationId: org,
    webhookId: webhook.id,
    inboxId: inbox.id,
    chatbotId: chatbot.id,
    messageId: completion.message.id,
    event: "outgoing",
    status: "failure",
    attempts: 1,
    url: "https://hooks.example.com/sweep",
    requestBody: "{}",
    responseStatus: 500,
    error: "The receiver answered 500.",
    deliveredAt: Date.now(),
  });
  const publicFile = `organizations/${org}/${uuidv7()}-sweep.png`;
  await env.FILES.put(`public/${publicFile}`, "PNG", { httpMetadata: { contentType: "image/png" } });
  const upload = `uploads/${org}/${uuidv7()}/sweep.txt`;
  await ownerUpload(owner, upload, "Uploaded for the sweep.", "text/plain", "knowledge-base-file");
  // The AI gateway is a feature of the organization (403 without it): on, so its handler is reached.
  await db().update(organizations).set({ canUseAiGateway: true }).where(eq(organizations.id, org));
  return {
    owner,
    users: [owner.userId, member.userId, outsider.userId],
    outsiderEmail: outsider.email,
    objectPrefixes: [`public/organizations/${org}/`, `uploads/${org}/`, objectPrefixOf(kb.id)],
    ids: {
      organization: org,
      member: member.memberId,
      group: group.id,
      groupMember: groupMember.id,
      groupChatbot: groupChatbot.id,
      apiKey: apiKey.id,
      consoleSession: signedIn.session.id,
      llm: llm.id,
      embeddingModel: embeddingModel.id,
      rerankerModel: rerankerModel.id,
      chatbot: chatbot.id,
      inbox: inbox.id,
      webChat: inbox.channel.id,
      webhook: webhook.id,
      webhookRecord,
      contact: contact.id,
      conversation: completion.conversationId,
      message: completion.message.id,
      knowledgeBase: kb.id,
      label: label.id,
      conversationLabel: conversationLabel.id,
      cannedResponse: cannedResponse.id,
      faq: faq.id,
      file: file.id,
      spareFile: files[1].id,
      reparseFile: files[2].id,
      textNode: nodes.results[0].id,
      publicFile,
      upload,
      attachmentUpload,
      attachment: attachment.id,
      widgetConversation: widget.conversation,
      widgetMessage: widget.message,
      widgetShare: widget.share,
      widgetEventId: `${widget.message}:0`,
      tool: tools.tool,
      toolExecutionRecord: tools.record,
      builtInWorkflow: tools.workflow,
      batchQa: batchQa.id,
      batchQaFile,
      startDate: "2026-01-01",
      endDate: "2026-12-31",
      timeGranularity: "day",
      ...mcp,
      ...data,
      ...channel,
    },
    visitorToken: widget.token,
  };
}

/** A Telegram inbox on the stand-in whose first reply the platform refused with a 400 (failed, so nothing retries it).
 * */
async function channelWithFailedDelivery(owner: Actor) {
  const telegram = standIn("telegram");
  const token = `42:${uuidv7().replace(/-/g, "")}`;
  const inbox = await channelInbox(owner, "telegram", { botToken: token });
  await telegram.script(token, [
    { status: 200, body: { ok: true, result: true } },
    { status: 400, body: { ok: false, error_code: 400, description: "Bad Request: chat not found" } },
  ]);
  const update = {
    update_id: 1,
    message: {
      message_id: 1,
      date: 1,
      text: "Sweep",
      chat: { id: 42, type: "private" },
      from: { id: 42, is_bot: false, first_name: "Sweep" },
    },
  };
  expect((await post(inbox.path, await telegram.sign({ token, update }))).status).toBe(200);
  const conversation = await onlyConversation(owner, inbox.inboxId);
  const messages = await messagesWhen(owner, conversation.id, (m) =>
    m.some((x) => x.metadata?.channelDelivery?.status === "failed"),
  );
  return {
    channelInbox: inbox.inboxId,
    channelToken: token,
    failedDelivery: messages.find((m) => m.metadata?.channelDelivery)!.id,
  };
}

/** Re-reads ids of links that a replacing write re-creates (update-groups replaces a member's group links). */
export async function refreshLinks(world: World) {
  const [link] = await db()
    .select({ id: groupMembers.id })
    .from(groupMembers)
    .where(and(eq(groupMembers.groupId, world.ids.group), eq(groupMembers.memberId, world.ids.member)));
  if (link) world.ids.groupMember = link.id;
}
