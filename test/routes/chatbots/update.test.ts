import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner, unique } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { LOCAL_EMBEDDING, LOCAL_LLM, WITH_AI_BINDING, createChatbot } from "../../fixtures/chatbots";
import { createKnowledgeBase } from "../../fixtures/knowledge";
import { createTool, functionToolBody } from "../../fixtures/tools";
import { createGroup } from "../groups/helpers";
import { linksOf, ok, storedChatbot, storedDatabaseUrl } from "./helpers";

const WORKERS_LLM = "00000000-0000-7000-8000-000000000011";

describe("PUT and PATCH /chatbots/{id}/", () => {
  it.each(PREFIXES)("PUT replaces the settings it is given; the rest keeps its value (%s)", async (prefix) => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner, {
      instructions: "old",
      embeddingModel: LOCAL_EMBEDDING,
      numberOfRetrievedChunks: 4,
    });
    // Where the AI binding exists, a Workers AI model may be chosen
    // (test/routes/models/availability.test.ts: not without it).
    const res = await owner.fetch(
      "PUT",
      `/chatbots/${bot.id}/`,
      { name: "Renamed", large_language_model: WORKERS_LLM, instructions: "new" },
      { prefix, settings: WITH_AI_BINDING },
    );
    const updated = await ok<"PUT /chatbots/{id}/">(res);
    expect(updated).toMatchObject({
      id: bot.id,
      name: "Renamed",
      largeLanguageModel: { id: WORKERS_LLM, name: "Workers AI Llama 3.1 8B" },
      instructions: "new",
      embeddingModel: { id: LOCAL_EMBEDDING },
      numberOfRetrievedChunks: 4,
      createdAt: bot.createdAt,
    });
    expect(Number(updated.updatedAt)).toBeGreaterThanOrEqual(Number(bot.updatedAt));
    expect(await ok<"GET /chatbots/{id}/">(await owner.fetch("GET", `/chatbots/${bot.id}/`))).toEqual(updated);
  });

  it("PATCH changes only what it is given; null clears optional references", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner, { embeddingModel: LOCAL_EMBEDDING, template: "Hi" });
    const patched = await ok<"PATCH /chatbots/{id}/">(
      await owner.fetch("PATCH", `/chatbots/${bot.id}/`, {
        replyMode: "template",
        embedding_model: null,
        enableInLineCitations: true,
      }),
    );
    expect(patched).toMatchObject({
      name: bot.name,
      replyMode: "template",
      template: "Hi",
      embeddingModel: null,
      enableInLineCitations: true,
    });
  });

  it("`groups` replaces the assistant's groups; links that stay keep their id", async () => {
    const owner = await seedOwner();
    const [a, b, c] = [await createGroup(owner), await createGroup(owner), await createGroup(owner)];
    const bot = await createChatbot(owner, { groups: [{ id: a.id }, { id: b.id }] });
    const kept = (await linksOf(bot.id)).find((l) => l.groupId === b.id)!.id;
    const patched = await ok<"PATCH /chatbots/{id}/">(
      await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { groups: [{ id: b.id }, { id: c.id }] }),
    );
    expect(patched.groups.map((g) => g.id).sort()).toEqual([b.id, c.id].sort());
    const links = await linksOf(bot.id);
    expect(links.map((l) => l.groupId).sort()).toEqual([b.id, c.id].sort());
    expect(links.find((l) => l.groupId === b.id)!.id).toBe(kept);
    expect(
      (await ok<"PATCH /chatbots/{id}/">(await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { groups: [] }))).groups,
    ).toEqual([]);
  });

  it("the masked databaseUrl sent back keeps the stored one; a new URL replaces it", async () => {
    const owner = await seedOwner();
    const url = "mysql://app:pa55@db.example.com/shop";
    const bot = await createChatbot(owner, { databaseUrl: url, databaseType: "MySQL" });
    expect(bot.databaseUrl).toBe("mysql://app:****@db.example.com/shop");
    await ok<"PUT /chatbots/{id}/">(
      await owner.fetch("PUT", `/chatbots/${bot.id}/`, {
        ...bot,
        largeLanguageModel: LOCAL_LLM,
        groups: undefined,
        organization: bot.organization,
      }),
    );
    expect(await storedDatabaseUrl(bot.id)).toBe(url);
    await ok<"PATCH /chatbots/{id}/">(
      await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { databaseUrl: "mysql://app:other@db.example.com/shop" }),
    );
    expect(await storedDatabaseUrl(bot.id)).toBe("mysql://app:other@db.example.com/shop");
    const cleared = await ok<"PATCH /chatbots/{id}/">(
      await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { databaseUrl: null }),
    );
    expect(cleared.databaseUrl).toBeNull();
    expect(await storedChatbot(bot.id)).toMatchObject({
      databaseUrl: null,
      databaseUrlSealed: null,
      databaseUrlMasked: null,
    });
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ["PUT", { instructions: "x" }, ["largeLanguageModel", "name"]],
    ["PATCH", { largeLanguageModel: LOCAL_EMBEDDING }, ["largeLanguageModel"]],
    ["PATCH", { replyMode: "template" }, ["template"]],
    ["PATCH", { outputMode: "json_schema" }, ["rawOutputFormat"]],
    ["PATCH", { organization: "" }, ["organization"]],
    ["PATCH", { tools: [{ id: "01900000-0000-7000-8000-000000000000" }] }, ["tools"]],
    ["PATCH", { numberOfRetrievedChunks: 0 }, ["numberOfRetrievedChunks"]],
  ])("%s %j is a 400 naming %j and changes nothing", async (method, body, fields) => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const err = await expectError(await owner.fetch(method, `/chatbots/${bot.id}/`, body), 400, "invalid");
    expect(Object.keys(err.errors!).sort()).toEqual(fields);
    expect(await ok<"GET /chatbots/{id}/">(await owner.fetch("GET", `/chatbots/${bot.id}/`))).toEqual(bot);
  });

  it("403 without chatbot.manage; 404 for a manager who cannot see it and for another organization; 401", async () => {
    const owner = await seedOwner();
    const viewer = await seedMember(owner, ["chatbot.view"]);
    const outsider = await seedMember(owner, ["chatbot.manage"]);
    const bot = await createChatbot(owner, { groups: [{ id: viewer.groupId }] });
    const path = `/chatbots/${bot.id}/`;
    await expectDenied(await viewer.fetch("PATCH", path, { name: "x" }));
    await expectNotFound(await outsider.fetch("PATCH", path, { name: "x" }));
    await expectNotFound(await (await seedOwner()).fetch("PATCH", path, { name: "x" }));
    await expectError(await call("PATCH", `/api/v1${path}`, { name: "x" }), 401, "not_authenticated");
    expect((await storedChatbot(bot.id)).name).toBe(bot.name);
  });

  it("a non-owner manager may add only their own groups, and may remove others", async () => {
    const owner = await seedOwner();
    const manager = await seedMember(owner, ["chatbot.manage"]);
    const foreign = await createGroup(owner);
    const bot = await createChatbot(owner, { groups: [{ id: manager.groupId }, { id: foreign.id }] });
    const other = await createGroup(owner);
    await expectDenied(
      await manager.fetch("PATCH", `/chatbots/${bot.id}/`, { groups: [{ id: manager.groupId }, { id: other.id }] }),
    );
    const kept = await ok<"PATCH /chatbots/{id}/">(
      await manager.fetch("PATCH", `/chatbots/${bot.id}/`, { groups: [{ id: manager.groupId }] }),
    );
    expect(kept.groups.map((g) => g.id)).toEqual([manager.groupId]);
  });
  it("a manager's knowledge bases, tools and skills show and replace the links they can see; others stay", async () => {
    const owner = await seedOwner();
    const manager = await seedMember(owner, ["chatbot.manage", "knowledge_base.view"]);
    const theirs = [{ id: manager.groupId! }];
    const bot = await createChatbot(owner, { groups: theirs });
    const [sharedBase, hiddenBase] = await Promise.all([
      createKnowledgeBase(owner, { groups: theirs }),
      createKnowledgeBase(owner),
    ]);
    const sharedTool = await createTool(owner, functionToolBody(unique("shared_tool"), theirs));
    const hiddenTool = await createTool(owner, functionToolBody(unique("hidden_tool")));
    const skill = async (groups: { id: string }[]) =>
      ok<"POST /skills/">(
        await owner.fetch("POST", "/skills/", { name: unique("skill"), description: "d", groups }),
        201,
      );
    const [sharedSkill, hiddenSkill] = [await skill(theirs), await skill([])];
    const all = {
      knowledgeBases: [{ id: sharedBase.id }, { id: hiddenBase.id }],
      tools: [{ id: sharedTool.id }, { id: hiddenTool.id }],
      skills: [{ id: sharedSkill.id }, { id: hiddenSkill.id }],
    };
    await ok(await owner.fetch("PATCH", `/chatbots/${bot.id}/`, all));
    const lists = (b: { knowledgeBases: { id: string }[]; tools: { id: string }[]; skills: { id: string }[] }) => [
      b.knowledgeBases.map((k) => k.id),
      b.tools.map((t) => t.id),
      b.skills.map((s) => s.id),
    ];
    // The manager's record lists what they can see: what their PUT may send back.
    const seen = await ok(await manager.fetch("GET", `/chatbots/${bot.id}/`));
    expect(lists(seen)).toEqual([[sharedBase.id], [sharedTool.id], [sharedSkill.id]]);
    const emptied = await ok<"PATCH /chatbots/{id}/">(
      await manager.fetch("PATCH", `/chatbots/${bot.id}/`, { knowledgeBases: [], tools: [], skills: [] }),
    );
    expect(lists(emptied)).toEqual([[], [], []]);
    // The links the manager could not see stay, for the owner and for the assistant's replies.
    expect(lists(await ok(await owner.fetch("GET", `/chatbots/${bot.id}/`)))).toEqual([
      [hiddenBase.id],
      [hiddenTool.id],
      [hiddenSkill.id],
    ]);
    // A PUT of the record as the manager sees it puts theirs back beside them.
    const put = await manager.fetch("PUT", `/chatbots/${bot.id}/`, {
      name: bot.name,
      largeLanguageModel: LOCAL_LLM,
      knowledgeBases: [{ id: sharedBase.id }],
      tools: [{ id: sharedTool.id }],
      skills: [{ id: sharedSkill.id }],
    });
    expect(lists(await ok<"PUT /chatbots/{id}/">(put))).toEqual([[sharedBase.id], [sharedTool.id], [sharedSkill.id]]);
    const both = lists(await ok(await owner.fetch("GET", `/chatbots/${bot.id}/`))).map((ids) => ids.length);
    expect(both).toEqual([2, 2, 2]);
    // Owners replace every link.
    await ok(await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { knowledgeBases: [], tools: [], skills: [] }));
    expect(lists(await ok(await owner.fetch("GET", `/chatbots/${bot.id}/`)))).toEqual([[], [], []]);
  });
});
