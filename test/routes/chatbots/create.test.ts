import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { organizations } from "../../../src/db/schema";
import {
  CONFIGURED_PLANS,
  NO_SUCH_ID,
  PREFIXES,
  call,
  db,
  expectError,
  seedMember,
  seedOwner,
  setPlan,
  unique,
} from "../../harness";
import { expectDenied, expectNotFound, expectInvalid } from "../../support/refusals";
import { LOCAL_EMBEDDING, LOCAL_LLM, LOCAL_RERANKER, createChatbot } from "../../fixtures/chatbots";
import { createModel, KINDS } from "../models/fixtures";
import { createGroup } from "../groups/helpers";
import {
  inboxesOf,
  linksOf,
  ok,
  ownOrganizationOf,
  page,
  storedChatbot,
  storedChatbots,
  storedDatabaseUrl,
} from "./helpers";
import { bodyOf } from "../../support/api";

/** The body of a new assistant on the local model given to the group `groupId`. */
const givenTo = (groupId: string) => ({ name: "x", largeLanguageModel: LOCAL_LLM, groups: [{ id: groupId }] });

const EVERY_FIELD = {
  instructions: "Answer briefly.",
  embeddingModel: LOCAL_EMBEDDING,
  rerankerModel: LOCAL_RERANKER,
  rag: "01900000-0000-7000-8000-0000000000aa",
  builtInWorkflow: "01900000-0000-7000-8000-0000000000bb",
  knowledgeBases: [],
  toolkits: [],
  tools: [],
  replyMode: "hybrid",
  template: "Hello {name}",
  unanswerableTemplate: "Sorry, I do not know.",
  totalWordsCount: 999,
  outputMode: "json_schema",
  rawOutputFormat: { type: "object", properties: { first_name: { type: "string" } } },
  databaseUrl: "postgresql://bot:s3cret@db.example.com:5432/shop",
  databaseType: "PostgreSQL",
  includeTables: { tables: ["orders", "order_items"] },
  agentMode: "canvas",
  numberOfRetrievedChunks: 5,
  enableEvaluation: true,
  enableInLineCitations: true,
};

describe("POST /chatbots/", () => {
  it.each(PREFIXES)("creates an assistant with every field of the spec under %s", async (prefix) => {
    const owner = await seedOwner();
    const group = await createGroup(owner, ["chatbot.view"]);
    const name = unique("Support");
    const res = await owner.fetch(
      "POST",
      "/chatbots/",
      { name, largeLanguageModel: LOCAL_LLM, groups: [{ id: group.id }], ...EVERY_FIELD },
      { prefix },
    );
    const bot = await ok<"POST /chatbots/">(res, 201);
    const { totalWordsCount: _ignored, databaseUrl: _url, ...echoed } = EVERY_FIELD;
    expect(bot).toMatchObject({
      ...echoed,
      name,
      organization: owner.organizationId,
      createdBy: { id: owner.userId, name: "owner" },
      largeLanguageModel: { id: LOCAL_LLM, name: "Local LLM" },
      embeddingModel: { id: LOCAL_EMBEDDING, name: "Local Embedding" },
      rerankerModel: { id: LOCAL_RERANKER, name: "Local Reranker" },
      totalWordsCount: 0,
      databaseUrl: "postgresql://bot:****@db.example.com:5432/shop",
      groups: [{ id: group.id, name: group.name }],
      defaultInbox: { name: `${name} API` },
      canUpdate: true,
      canDelete: true,
    });
    expect(bot.createdAt).toMatch(/^\d+$/);
    expect(bot.updatedAt).toMatch(/^\d+$/);
    const row = await storedChatbot(bot.id);
    // Sealed at rest, as a SQL database's; the record's masked form is kept beside it.
    expect(row.databaseUrlSealed).toMatch(/^v1:/);
    expect(row.databaseUrlMasked).toBe("postgresql://bot:****@db.example.com:5432/shop");
    expect(await storedDatabaseUrl(bot.id)).toBe(EVERY_FIELD.databaseUrl);
    expect(row.totalWordsCount).toBe(0);
    expect(await linksOf(bot.id)).toHaveLength(1);
  });

  it("fills the defaults and creates the default inbox, listed by GET /inboxes/?chatbot=", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner, { name: "Helper" });
    expect(bot).toMatchObject({
      name: "Helper",
      organization: owner.organizationId,
      embeddingModel: null,
      rerankerModel: null,
      rag: null,
      builtInWorkflow: null,
      instructions: "",
      replyMode: "normal",
      template: null,
      outputMode: "text",
      rawOutputFormat: null,
      databaseUrl: null,
      databaseType: null,
      agentMode: "normal",
      numberOfRetrievedChunks: 12,
      enableEvaluation: false,
      enableInLineCitations: false,
      knowledgeBases: [],
      toolkits: [],
      tools: [],
      groups: [],
    });
    const inboxes = await page<"GET /inboxes/">(await owner.fetch("GET", `/inboxes/?chatbot=${bot.id}`));
    expect(inboxes.results).toEqual([
      expect.objectContaining({
        id: bot.defaultInbox!.id,
        name: "Helper API",
        channelType: "api",
        isDefault: true,
        chatbot: { id: bot.id, name: "Helper" },
        channel: null,
      }),
    ]);
  });

  it("accepts snake_case keys and keeps the keys of rawOutputFormat as sent", async () => {
    const owner = await seedOwner();
    const schema = { type: "object", properties: { first_name: { type: "string" } } };
    const bot = await ok<"POST /chatbots/">(
      await owner.fetch("POST", "/chatbots/", {
        name: "snake",
        large_language_model: LOCAL_LLM,
        number_of_retrieved_chunks: 3,
        output_mode: "json_schema",
        raw_output_format: schema,
        enable_in_line_citations: true,
      }),
      201,
    );
    expect(bot).toMatchObject({
      numberOfRetrievedChunks: 3,
      outputMode: "json_schema",
      rawOutputFormat: schema,
      enableInLineCitations: true,
    });
  });

  it("accepts the organization's own models and refuses another organization's", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const [llm, embedding] = KINDS;
    const mine = await createModel(owner, llm);
    const theirs = await createModel(other, llm);
    const myEmbedding = await createModel(owner, embedding);
    expect(
      (await createChatbot(owner, { largeLanguageModel: mine.id, embeddingModel: myEmbedding.id })).largeLanguageModel,
    ).toEqual({ id: mine.id, name: mine.name });
    await expectInvalid(
      await owner.fetch("POST", "/chatbots/", { name: "x", largeLanguageModel: theirs.id }),
      "largeLanguageModel",
    );
  });

  it.each<[Record<string, unknown>, string[]]>([
    [{ largeLanguageModel: undefined, name: undefined }, ["largeLanguageModel", "name"]],
    [{ name: "  " }, ["name"]],
    [{ largeLanguageModel: "nope" }, ["largeLanguageModel"]],
    [{ largeLanguageModel: NO_SUCH_ID }, ["largeLanguageModel"]],
    [{ largeLanguageModel: LOCAL_EMBEDDING }, ["largeLanguageModel"]],
    [{ embeddingModel: LOCAL_LLM }, ["embeddingModel"]],
    [{ rerankerModel: LOCAL_EMBEDDING }, ["rerankerModel"]],
    [{ rag: "nope" }, ["rag"]],
    [{ knowledgeBases: [{ id: NO_SUCH_ID }] }, ["knowledgeBases"]],
    [{ toolkits: [{ id: NO_SUCH_ID }] }, ["toolkits"]],
    [{ tools: [{ id: NO_SUCH_ID }] }, ["tools"]],
    [{ groups: [{ id: NO_SUCH_ID }] }, ["groups"]],
    [{ groups: [{ id: "nope" }] }, ["groups.0.id"]],
    [{ replyMode: "chatty" }, ["replyMode"]],
    [{ replyMode: "template" }, ["template"]],
    [{ replyMode: "template", template: " " }, ["template"]],
    [{ outputMode: "json_schema" }, ["rawOutputFormat"]],
    [{ outputMode: "json_schema", rawOutputFormat: { properties: {} } }, ["rawOutputFormat"]],
    [{ outputMode: "json_schema", rawOutputFormat: { type: "thing" } }, ["rawOutputFormat"]],
    // Schemas the answer's check could not use: a $ref to nothing, a pattern that is no regular expression.
    [
      { outputMode: "json_schema", rawOutputFormat: { type: "object", properties: { a: { $ref: "#/$defs/A" } } } },
      ["rawOutputFormat"],
    ],
    [{ outputMode: "json_schema", rawOutputFormat: { type: "string", pattern: "(" } }, ["rawOutputFormat"]],
    [{ rawOutputFormat: [1] }, ["rawOutputFormat"]],
    [{ databaseType: "SQLite" }, ["databaseType"]],
    [{ agentMode: "solo" }, ["agentMode"]],
    [{ numberOfRetrievedChunks: 0 }, ["numberOfRetrievedChunks"]],
    [{ numberOfRetrievedChunks: 1.5 }, ["numberOfRetrievedChunks"]],
    [{ enableEvaluation: "yes" }, ["enableEvaluation"]],
    [{ organization: "nope" }, ["organization"]],
  ])("bad input %j is a 400 naming %j; no assistant and no inbox are written", async (patch, fields) => {
    const owner = await seedOwner();
    const err = await expectError(
      await owner.fetch("POST", "/chatbots/", { name: "bad", largeLanguageModel: LOCAL_LLM, ...patch }),
      400,
      "invalid",
    );
    expect(Object.keys(err.errors!).sort()).toEqual(fields);
    expect(await storedChatbots(owner.userId)).toHaveLength(0);
    expect(await inboxesOf(owner.organizationId)).toHaveLength(0);
  });

  it("a group of another organization is a 400 naming groups", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const theirs = await createGroup(other, []);
    await expectInvalid(await owner.fetch("POST", "/chatbots/", givenTo(theirs.id)), "groups");
    expect(await storedChatbots(owner.userId)).toHaveLength(0);
  });

  it("403 without chatbot.manage; 401 without a key; nothing written", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["chatbot.view"]);
    const body = { name: "x", largeLanguageModel: LOCAL_LLM };
    await expectDenied(await viewer.fetch("POST", "/chatbots/", body));
    await expectError(await call("POST", "/api/v1/chatbots/", body), 401, "not_authenticated");
    expect(await storedChatbots(viewer.userId)).toHaveLength(0);
    expect(await inboxesOf(owner.organizationId)).toHaveLength(0);
  });

  it("a non-owner manager may only give the assistant to groups they belong to", async () => {
    const owner = await seedOwner();
    const manager = await seedMember(owner, ["chatbot.manage"]);
    const foreign = await createGroup(owner, []);
    await expectDenied(await manager.fetch("POST", "/chatbots/", givenTo(foreign.id)));
    expect(await storedChatbots(manager.userId)).toHaveLength(0);
    const bot = await createChatbot(manager, { groups: [{ id: manager.groupId }] });
    expect(bot).toMatchObject({
      organization: owner.organizationId,
      createdBy: { id: manager.userId },
      groups: [{ id: manager.groupId }],
      canUpdate: true,
    });
  });

  it("`organization` names another organization of the caller (404 if not in it); its permissions apply", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner);
    const manager = await seedMember(owner, ["chatbot.manage"]);
    const asIn = async (m: typeof viewer) => ({ "X-Organization-Id": await ownOrganizationOf(m.userId) });
    const body = { name: "elsewhere", largeLanguageModel: LOCAL_LLM, organization: owner.organizationId };
    await expectDenied(await viewer.fetch("POST", "/chatbots/", body, { headers: await asIn(viewer) }));
    const bot = await ok<"POST /chatbots/">(
      await manager.fetch("POST", "/chatbots/", body, { headers: await asIn(manager) }),
      201,
    );
    expect(bot.organization).toBe(owner.organizationId);
    expect((await inboxesOf(owner.organizationId)).map((i) => i.chatbotId)).toEqual([bot.id]);
    const stranger = await seedOwner();
    await expectNotFound(await stranger.fetch("POST", "/chatbots/", body));
    expect(await storedChatbots(stranger.userId)).toHaveLength(0);
  });

  it("without configured plans nothing is capped: a new organization creates 10 assistants", async () => {
    const owner = await seedOwner();
    for (let i = 0; i < 10; i++) await createChatbot(owner);
    expect(await storedChatbots(owner.userId)).toHaveLength(10);
    const org = await bodyOf<"GET /organizations/{id}/">(
      await owner.fetch("GET", `/organizations/${owner.organizationId}/`),
    );
    expect(org.usageStatistics).toMatchObject({ chatbotsCount: 10, canCreateChatbot: true, createChatbotLimit: null });
    expect(org.organizationPlan.planName).toBe("Self-hosted");
  });

  it(
    "with plans configured by the operator: 403 once the plan's limit is reached (personal assistants count), " +
      "and when the plan has lapsed",
    async () => {
      const settings = CONFIGURED_PLANS;
      const post = (owner: Awaited<ReturnType<typeof seedOwner>>, body: Record<string, unknown>) =>
        owner.fetch("POST", "/chatbots/", body, { settings });
      const owner = await seedOwner();
      await setPlan(owner.organizationId, "free");
      for (const extra of [{}, {}, { organization: "" }])
        expect((await post(owner, { name: unique("bot"), largeLanguageModel: LOCAL_LLM, ...extra })).status).toBe(201);
      const err = await expectDenied(await post(owner, { name: "fourth", largeLanguageModel: LOCAL_LLM }));
      expect(err.detail).toContain("Free plan allows 3");
      expect(await storedChatbots(owner.userId)).toHaveLength(3);
      expect(await inboxesOf(owner.organizationId)).toHaveLength(3);
      const org = await bodyOf<"GET /organizations/{id}/">(
        await owner.fetch("GET", `/organizations/${owner.organizationId}/`, undefined, { settings }),
      );
      expect(org.usageStatistics).toMatchObject({ canCreateChatbot: false, createChatbotLimit: 3 });
      await setPlan(owner.organizationId, "pro");
      expect((await post(owner, { name: unique("bot"), largeLanguageModel: LOCAL_LLM })).status).toBe(201);
      await db()
        .update(organizations)
        .set({ planExpiredAt: Date.now() - 1000 })
        .where(eq(organizations.id, owner.organizationId));
      await expectDenied(await post(owner, { name: "late", largeLanguageModel: LOCAL_LLM }));
    },
  );

  it("the plan's limit holds for assistants created at once: those past it are 403 and leave nothing", async () => {
    const owner = await seedOwner();
    await setPlan(owner.organizationId, "free");
    const post = (extra: Record<string, unknown> = {}) =>
      owner.fetch(
        "POST",
        "/chatbots/",
        { name: unique("bot"), largeLanguageModel: LOCAL_LLM, ...extra },
        { settings: CONFIGURED_PLANS },
      );
    expect((await post()).status).toBe(201);
    expect((await post()).status).toBe(201);
    // One place left (Free plan: 3), six requests at once, personal assistants among them (they count too).
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => post(i % 2 ? { organization: "" } : {})));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 403)).toHaveLength(5);
    const refused = await expectDenied(answers.find((r) => r.status === 403)!);
    expect(refused.detail).toContain("Free plan allows 3");
    expect(await storedChatbots(owner.userId)).toHaveLength(3);
    expect(await inboxesOf(owner.organizationId)).toHaveLength(3);
  });

  it("a new organization gets the operator's default plan; a malformed PLANS is 503 naming the setting", async () => {
    const res = await call(
      "POST",
      "/api/v1/auth/registration/",
      {
        email: `${unique("p")}@example.com`,
        password1: "correct horse battery",
        password2: "correct horse battery",
        name: "P",
        company: "P Co",
      },
      {},
      CONFIGURED_PLANS,
    );
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await bodyOf<"POST /auth/registration/">(res)).organization.organizationPlan.id).toBe("free");
    const owner = await seedOwner();
    const broken = await expectError(
      await owner.fetch(
        "POST",
        "/chatbots/",
        { name: "x", largeLanguageModel: LOCAL_LLM },
        { settings: { PLANS: "{not json" } },
      ),
      503,
      "not_configured",
    );
    expect(broken.detail).toContain("PLANS");
    expect(await storedChatbots(owner.userId)).toHaveLength(0);
  });
});
