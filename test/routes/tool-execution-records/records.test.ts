import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { toolExecutionRecords } from "../../../src/db/schema";
import { uuidv7 } from "../../../src/lib/ids";
import { data, expectError, NO_SUCH_ID, PREFIXES, seedMember, seedOwner, unique, type Actor } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { createDesktopTool, createTool, functionToolBody } from "../../fixtures/tools";
import { bodyOf, refinedBodyOf } from "../../support/api";
import { type ToolCall, agentWith } from "../../support/tool-calls";

type Rec = {
  id: string;
  status: string;
  tool: { id: string | null; name: string };
  chatbot: { id: string | null; name: string };
};
type Page = { count: number; results: Rec[] };

const DAY = 86_400_000;
const day = (t: number) => new Date(t).toISOString().slice(0, 10);

/** An organization with two tools, an assistant and four records on different days and statuses. */
async function world() {
  const owner = await seedOwner();
  const mk = (name: string, groups: { id: string }[] = []) => createTool(owner, functionToolBody(name, groups));
  const member = await seedMember(owner, ["tool.view"]);
  const shared = await mk(unique("shared").replace(/-/g, "_"), [{ id: member.groupId! }]);
  const secret = await mk(unique("secret").replace(/-/g, "_"));
  const bot = await createChatbot(owner, { replyMode: "agent" });
  const now = Date.UTC(2026, 0, 15, 12);
  const row = (
    tool: typeof shared,
    status: "success" | "failure" | "timeout" | "pending",
    at: number,
    text: string,
  ) => ({
    id: uuidv7(),
    organizationId: owner.organizationId,
    chatbotId: bot.id,
    chatbotName: bot.name,
    toolId: tool.id,
    toolName: tool.name!,
    toolDisplayName: tool.displayName,
    toolType: "function",
    conversationId: null,
    messageId: null,
    messageText: text,
    status,
    input: { q: text },
    output: status === "success" ? { ok: true } : null,
    error: status === "failure" ? "boom" : null,
    durationMs: 5,
    createdAt: at,
    updatedAt: at,
  });
  const rows = [
    row(shared, "success", now - 2 * DAY, "where is my parcel"),
    row(shared, "failure", now - DAY, "refund please"),
    row(secret, "timeout", now, "slow question"),
    row(secret, "success", now, "another"),
  ];
  await (await data(owner.organizationId)).insert(toolExecutionRecords).values(rows);
  return { owner, member, shared, secret, bot, rows, now };
}

const list = async (actor: Actor, path: string, prefix?: string) => {
  const res = await actor.fetch("GET", path, undefined, { prefix });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json<Page>();
};

describe("tool execution records", () => {
  it("lists with every filter, under both prefixes", async () => {
    const { owner, shared, secret, bot, now } = await world();
    for (const prefix of PREFIXES) {
      expect((await list(owner, "/tool-execution-records/", prefix)).count).toBe(4);
      expect((await list(owner, `/tool-execution-records/?tool=${secret.id}`, prefix)).count).toBe(2);
      expect(
        (await list(owner, `/tool-execution-records/?chatbot=${bot.id}&status=failure`, prefix)).results.map(
          (r) => r.status,
        ),
      ).toEqual(["failure"]);
      expect((await list(owner, "/tool-execution-records/?query=parcel", prefix)).count).toBe(1);
      expect((await list(owner, `/tool-execution-records/?query=${bot.name}`, prefix)).count).toBe(4);
      expect((await list(owner, `/tool-execution-records/?query=${shared.name}`, prefix)).count).toBe(2);
      expect(
        (await list(owner, "/tool-execution-records/?toolType=function&page_size=1", prefix)).results,
      ).toHaveLength(1);
      // Both ends inclusive, by UTC day.
      expect(
        (await list(owner, `/tool-execution-records/?startDate=${day(now - DAY)}&endDate=${day(now - DAY)}`, prefix))
          .count,
      ).toBe(1);
      expect((await list(owner, `/tool-execution-records/?start_date=${day(now - DAY)}`, prefix)).count).toBe(3);
      expect((await list(owner, `/tools/${shared.id}/tool-execution-records/`, prefix)).count).toBe(2);
      expect((await list(owner, `/tools/${shared.id}/tool-execution-records/?status=success`, prefix)).count).toBe(1);
    }
  });

  it("gets one record, also through its tool; filter options list assistants and tools with records", async () => {
    const { owner, shared, secret, bot, rows } = await world();
    const got = await owner.fetch("GET", `/tool-execution-records/${rows[0].id}/`);
    expect(got.status).toBe(200);
    expect(await got.json()).toMatchObject({
      id: rows[0].id,
      chatbot: { id: bot.id, name: bot.name },
      tool: { id: shared.id, name: shared.name, displayName: shared.displayName, toolType: "function" },
      status: "success",
      input: { q: "where is my parcel" },
      output: { ok: true },
      durationMs: 5,
    });
    expect((await owner.fetch("GET", `/tools/${shared.id}/tool-execution-records/${rows[0].id}/`)).status).toBe(200);
    await expectError(await owner.fetch("GET", `/tools/${secret.id}/tool-execution-records/${rows[0].id}/`), 404);
    const bots = await bodyOf<"GET /tool-execution-records/chatbots/">(
      await owner.fetch("GET", "/tool-execution-records/chatbots/"),
    );
    expect(bots).toEqual([{ id: bot.id, name: bot.name }]);
    const toolOptions = await bodyOf<"GET /tool-execution-records/tools/">(
      await owner.fetch("GET", "/tool-execution-records/tools/"),
    );
    expect(toolOptions.map((t) => t.id).sort()).toEqual([shared.id, secret.id].sort());
    const scoped = await bodyOf<"GET /tools/{toolPk}/tool-execution-records/tools/">(
      await owner.fetch("GET", `/tools/${shared.id}/tool-execution-records/tools/`),
    );
    expect(scoped.map((t) => t.id)).toEqual([shared.id]);
    expect(
      (
        await bodyOf<"GET /tools/{toolPk}/tool-execution-records/chatbots/">(
          await owner.fetch("GET", `/tools/${shared.id}/tool-execution-records/chatbots/`),
        )
      ).length,
    ).toBe(1);
  });

  it("members see the records of tools of their groups only", async () => {
    const { member, shared, secret, rows } = await world();
    const page = await list(member, "/tool-execution-records/");
    expect(page.count).toBe(2);
    expect(page.results.every((r) => r.tool.id === shared.id)).toBe(true);
    await expectError(await member.fetch("GET", `/tool-execution-records/${rows[2].id}/`), 404);
    await expectError(await member.fetch("GET", `/tools/${secret.id}/tool-execution-records/`), 404);
    const tools = await bodyOf<"GET /tool-execution-records/tools/">(
      await member.fetch("GET", "/tool-execution-records/tools/"),
    );
    expect(tools.map((t) => t.id)).toEqual([shared.id]);
  });

  it("400 for bad filters", async () => {
    const { owner } = await world();
    for (const q of [
      "status=done",
      "toolType=x",
      "startDate=2026-13-45",
      "startDate=2026-02-30",
      "endDate=yesterday",
      "chatbot=nope",
      "page=0",
    ]) {
      await expectError(await owner.fetch("GET", `/tool-execution-records/?${q}`), 400);
    }
  });

  it("401 without a key, 403 without tool.view, 404 across organizations", async () => {
    const { owner, shared, rows } = await world();
    for (const prefix of PREFIXES)
      await expectError(
        await SELF.fetch(`http://localhost${prefix}/tool-execution-records/`),
        401,
        "not_authenticated",
      );
    const plain = await seedMember(owner, ["chatbot.view"]);
    for (const path of [
      "/tool-execution-records/",
      `/tool-execution-records/${rows[0].id}/`,
      "/tool-execution-records/chatbots/",
      "/tool-execution-records/tools/",
      `/tools/${shared.id}/tool-execution-records/`,
    ]) {
      await expectError(await plain.fetch("GET", path), 403, "permission_denied");
    }
    const other = await seedOwner();
    expect((await list(other, "/tool-execution-records/")).count).toBe(0);
    await expectError(await other.fetch("GET", `/tool-execution-records/${rows[0].id}/`), 404);
    await expectError(await other.fetch("GET", `/tools/${shared.id}/tool-execution-records/`), 404);
    await expectError(await other.fetch("GET", `/tools/${shared.id}/tool-execution-records/${rows[0].id}/`), 404);
    await expectError(await other.fetch("GET", `/tool-execution-records/${NO_SUCH_ID}/`), 404);
    expect(await (await other.fetch("GET", "/tool-execution-records/chatbots/")).json()).toEqual([]);
  });
});

describe("POST /tool-execution-records/{id}/result/", () => {
  it("stores a desktop tool's output as the client sent it (keys not renamed, none dropped)", async () => {
    const owner = await seedOwner();
    const bot = await agentWith(owner, [await createDesktopTool(owner)]);
    const asked = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      message: { content: "open file path: /tmp/a.txt", metadata: { clientPlatform: "desktop" } },
    });
    expect(asked.status, await asked.clone().text()).toBe(200);
    const reply = await refinedBodyOf<
      "POST /chatbots/{chatbotId}/completions/",
      { message: { contentPayload: { toolCalls: ToolCall[] } } }
    >(asked);
    const [call] = reply.message.contentPayload.toolCalls;
    expect(call).toMatchObject({ name: "open_file", status: "pending" });
    // The tool's own JSON: snake_case keys, and one whose camelCase twin is there too.
    const output = { file_count: 3, fileCount: 99, mime_type: "text/plain", nested: { last_modified: 1 } };
    const posted = await owner.fetch("POST", `/tool-execution-records/${call.id}/result/`, { output });
    expect(posted.status, await posted.clone().text()).toBe(200);
    expect(await posted.json()).toMatchObject({ output });
    const record = await bodyOf<"GET /tool-execution-records/{id}/">(
      await owner.fetch("GET", `/tool-execution-records/${call.id}/`),
    );
    expect(record.output).toEqual(output);
  });
});
