import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, call, expectError, seedMember, seedOwner } from "../../harness";
import { expectNotFound } from "../../support/refusals";
import { createKnowledgeBase, createLabel, ingest } from "../../fixtures/knowledge";
import { makePdf } from "../../fixtures/documents";
import { documentOf, pageOf, type DocSchema, type Schemas } from "../../support/api";

type Legacy = Schemas["TextNodeLegacy"];
type CursorPage = Schemas["TextNodeLegacyCursorPage"];
/** A page in the cursor form of the legacy prefix, one of the two forms the document allows. */
const cursorPageOf = (res: Response) => res.json<CursorPage>();

const LEGACY_KEYS = [
  "charactersCount",
  "chatbotFile",
  "filename",
  "hitsCount",
  "id",
  "pageNumber",
  "text",
  "updatedAt",
];
const FULL_KEYS = [
  ...LEGACY_KEYS,
  ...[
    "knowledgeBaseFile",
    "pageStart",
    "pageEnd",
    "startCharIdx",
    "endCharIdx",
    "citationTitle",
    "citationDescription",
    "citationQuote",
  ],
  ...[
    "hasImage",
    "imageUrl",
    "displayText",
    "displayTitle",
    "highlightedText",
    "labels",
    "rawUserDefineMetadata",
    "metadataEnabledForSearch",
  ],
].sort();

// ~3,600 characters of distinct sentences: several chunks of ~800 characters.
const LONG_TEXT = Array.from(
  { length: 60 },
  (_, i) => `Sentence number ${i} explains rule ${i * 7} of the returns handbook for branch ${i + 100}.`,
).join(" ");
const CHINESE = "退货政策：收到商品后三十天内可以申请退货。运费由买家承担。";

/** One owner, one knowledge base given to a viewer's group, and three processed files. */
async function world() {
  const owner = await seedOwner();
  const viewer = await seedMember(owner, ["knowledge_base.view"]);
  const kb = await createKnowledgeBase(owner, { groups: [{ id: viewer.groupId }] });
  const pdf = await makePdf([
    "The cover page says nothing useful.",
    "The warranty lasts three years from purchase. Batteries are covered for one year.",
  ]);
  const [long, manual, chinese] = await ingest(owner, kb.id, [
    { name: "handbook.txt", content: LONG_TEXT },
    { name: "manual.pdf", content: pdf, type: "application/pdf" },
    { name: "policy-zh.txt", content: CHINESE },
  ]);
  return { owner, viewer, kb, long, manual, chinese };
}
let shared: ReturnType<typeof world> | undefined;
const setup = () => (shared ??= world());

const legacy = (
  actor: { fetch: (m: string, p: string, b?: unknown, i?: { prefix?: string }) => Promise<Response> },
  path: string,
) => actor.fetch("GET", path, undefined, { prefix: "/api" });
/** Follows an absolute `next` URL with the actor's key. */
const follow = (key: string, url: string) =>
  call("GET", new URL(url).pathname + new URL(url).search, undefined, { Authorization: `Api-Key ${key}` });

describe("GET /api/chatbot-text-nodes/ (older form, cursor page)", () => {
  it("pages through a file's nodes in order with pageSize 2, no node twice", async () => {
    const { owner, long } = await setup();
    expect(long.chunksCount).toBeGreaterThanOrEqual(4);
    let res = await legacy(owner, `/chatbot-text-nodes/?chatbotFile=${long.id}&pageSize=2`);
    const seen: Legacy[] = [];
    const pages: CursorPage[] = [];
    for (;;) {
      expect(res.status, await res.clone().text()).toBe(200);
      const page = await cursorPageOf(res);
      pages.push(page);
      expect(page.results.length).toBeLessThanOrEqual(2);
      seen.push(...page.results);
      if (!page.next) break;
      expect(new URL(page.next).pathname).toBe("/api/chatbot-text-nodes/");
      res = await follow(owner.key, page.next);
    }
    expect(pages.length).toBe(Math.ceil(long.chunksCount / 2));
    expect(pages[0].previous).toBeNull();
    expect(new Set(seen.map((n) => n.id)).size).toBe(long.chunksCount);
    // Document order: the sentences come back in the order they were written.
    expect(seen.map((n) => n.text).join(" ")).toContain("Sentence number 0 ");
    const firstNumbers = seen.map((n) => Number(/Sentence number (\d+)/.exec(n.text)![1]));
    expect(firstNumbers).toEqual([...firstNumbers].sort((a, b) => a - b));
    const node = seen[0];
    expect(Object.keys(node).sort()).toEqual(LEGACY_KEYS);
    expect(node).toMatchObject({
      filename: "handbook.txt",
      chatbotFile: long.id,
      hitsCount: 0,
      charactersCount: node.text.length,
    });
    expect(node.updatedAt).toMatch(/^\d+$/);
    // `previous` of the second page leads back to the first.
    const back = await cursorPageOf(await follow(owner.key, pages[1].previous!));
    expect(back.results.map((n) => n.id)).toEqual(pages[0].results.map((n) => n.id));
  });

  it("`query` filters the nodes (case-insensitive)", async () => {
    const { owner, long } = await setup();
    const page = await cursorPageOf(
      await legacy(owner, `/chatbot-text-nodes/?chatbot_file=${long.id}&query=BRANCH%20159`),
    );
    expect(page.results).toHaveLength(1);
    expect(page.results[0].text).toContain("branch 159.");
    expect(page.next).toBeNull();
  });

  it("400 without chatbotFile or with a malformed one, or a bad cursor", async () => {
    const { owner, long } = await setup();
    const body = await expectError(await legacy(owner, "/chatbot-text-nodes/"), 400, "invalid");
    expect(body.errors?.chatbotFile).toBeTruthy();
    await expectError(await legacy(owner, "/chatbot-text-nodes/?chatbotFile=nope"), 400, "invalid");
    await expectError(
      await legacy(owner, `/chatbot-text-nodes/?chatbotFile=${long.id}&cursor=garbage`),
      400,
      "invalid",
    );
  });
});

describe("GET /api/v1/chatbot-text-nodes/ (newer form, page)", () => {
  it("full records, with pages of a PDF, the file's labels and metadata", async () => {
    const { owner, kb, manual } = await setup();
    const label = await createLabel(owner, kb.id, "warranty-docs");
    const meta = await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/files/${manual.id}/update-metadata/`, {
      labels: [{ id: label.id }],
      rawUserDefineMetadata: { department: "support" },
    });
    expect(meta.status, await meta.clone().text()).toBe(200);
    const res = await owner.fetch("GET", `/chatbot-text-nodes/?knowledgeBaseFile=${manual.id}`);
    expect(res.status, await res.clone().text()).toBe(200);
    const page = await pageOf<"GET /chatbot-text-nodes/">(res);
    expect(page).toMatchObject({ count: manual.chunksCount, next: null, previous: null });
    const node = page.results.find((n) => n.text.includes("warranty"))!;
    expect(Object.keys(node).sort()).toEqual(FULL_KEYS);
    expect(node).toMatchObject({
      chatbotFile: manual.id,
      knowledgeBaseFile: { id: manual.id, filename: "manual.pdf" },
      filename: "manual.pdf",
      pageNumber: 2,
      pageStart: 2,
      pageEnd: 2,
      citationTitle: "manual.pdf",
      citationDescription: "The warranty lasts three years from purchase.",
      citationQuote: node.text.trim(),
      hasImage: false,
      imageUrl: null,
      displayText: node.text,
      displayTitle: "manual.pdf",
      highlightedText: node.text,
      labels: [{ id: label.id, name: "warranty-docs" }],
      rawUserDefineMetadata: { department: "support" },
      metadataEnabledForSearch: {},
    });
    expect(node.endCharIdx as number).toBeGreaterThan(node.startCharIdx as number);
  });

  it("page form with pageSize, and the deprecated chatbotFile", async () => {
    const { owner, long } = await setup();
    const first = await pageOf<"GET /chatbot-text-nodes/">(
      await owner.fetch("GET", `/chatbot-text-nodes/?chatbotFile=${long.id}&pageSize=2`),
    );
    expect(first.count).toBe(long.chunksCount);
    expect(first.results).toHaveLength(2);
    expect(new URL(first.next!).searchParams.get("page")).toBe("2");
    const second = await pageOf<"GET /chatbot-text-nodes/">(await follow(owner.key, first.next!));
    expect(second.results[0].id).not.toBe(first.results[1].id);
    expect(second.previous).toBeTruthy();
    const quote = first.results[0].citationQuote as string;
    expect(quote.length).toBeLessThanOrEqual(201);
    expect(quote.endsWith("…")).toBe(true);
    await expectNotFound(await owner.fetch("GET", `/chatbot-text-nodes/?knowledgeBaseFile=${long.id}&page=99`));
  });

  it("highlightedText marks an English and a Chinese query", async () => {
    const { owner, manual, chinese } = await setup();
    const en = await pageOf<"GET /chatbot-text-nodes/">(
      await owner.fetch("GET", `/chatbot-text-nodes/?knowledgeBaseFile=${manual.id}&query=Warranty`),
    );
    expect(en.count).toBe(1);
    expect(en.results[0].highlightedText).toContain("The <mark>warranty</mark> lasts");
    const zh = await pageOf<"GET /chatbot-text-nodes/">(
      await owner.fetch(
        "GET",
        `/chatbot-text-nodes/?knowledgeBaseFile=${chinese.id}&query=${encodeURIComponent("退货")}`,
      ),
    );
    expect(zh.count).toBe(1);
    expect(zh.results[0].highlightedText).toContain("<mark>退货</mark>政策");
    expect(zh.results[0].citationDescription).toBe("退货政策：收到商品后三十天内可以申请退货。");
    const none = await pageOf<"GET /chatbot-text-nodes/">(
      await owner.fetch("GET", `/chatbot-text-nodes/?knowledgeBaseFile=${manual.id}&query=zeppelin`),
    );
    expect(none).toMatchObject({ count: 0, results: [] });
  });

  it("400 without a file", async () => {
    const { owner } = await setup();
    const body = await expectError(await owner.fetch("GET", "/chatbot-text-nodes/"), 400, "invalid");
    expect(body.errors?.knowledgeBaseFile).toBeTruthy();
  });
});

describe("GET {api}/chatbot-text-nodes/{id}/", () => {
  it("answers in the form of the prefix", async () => {
    const { owner, manual } = await setup();
    const page = await pageOf<"GET /chatbot-text-nodes/">(
      await owner.fetch("GET", `/chatbot-text-nodes/?knowledgeBaseFile=${manual.id}`),
    );
    const id = page.results.find((n) => n.text.includes("warranty"))!.id;
    const older = await legacy(owner, `/chatbot-text-nodes/${id}/`);
    expect(older.status, await older.clone().text()).toBe(200);
    const o = await older.json<Legacy>();
    expect(Object.keys(o).sort()).toEqual(LEGACY_KEYS);
    expect(o).toMatchObject({ id, pageNumber: 2, chatbotFile: manual.id });
    const newer = await owner.fetch("GET", `/chatbot-text-nodes/${id}`);
    expect(newer.status, await newer.clone().text()).toBe(200);
    const n = await pageOf<"GET /chatbot-text-nodes/">(newer);
    expect(Object.keys(n).sort()).toEqual(FULL_KEYS);
    expect(n).toMatchObject({ id, pageStart: 2, knowledgeBaseFile: { id: manual.id } });
  });

  it("404 for no such node or a malformed id", async () => {
    const { owner } = await setup();
    await expectNotFound(await owner.fetch("GET", `/chatbot-text-nodes/${NO_SUCH_ID}/`));
    await expectNotFound(await legacy(owner, "/chatbot-text-nodes/not-a-uuid/"));
  });
});

describe("text node access", () => {
  it("401 without a key", async () => {
    const { long } = await setup();
    await expectError(await call("GET", `/api/chatbot-text-nodes/?chatbotFile=${long.id}`), 401, "not_authenticated");
    await expectError(await call("GET", `/api/v1/chatbot-text-nodes/${NO_SUCH_ID}/`), 401, "not_authenticated");
  });

  it("404 for another organization's file and node", async () => {
    const { owner, long } = await setup();
    const stranger = await seedOwner("stranger");
    const page = await pageOf<"GET /chatbot-text-nodes/">(
      await owner.fetch("GET", `/chatbot-text-nodes/?knowledgeBaseFile=${long.id}&pageSize=1`),
    );
    await expectNotFound(await stranger.fetch("GET", `/chatbot-text-nodes/?knowledgeBaseFile=${long.id}`));
    await expectNotFound(await legacy(stranger, `/chatbot-text-nodes/?chatbotFile=${long.id}`));
    await expectNotFound(await stranger.fetch("GET", `/chatbot-text-nodes/${page.results[0].id}/`));
    await expectNotFound(await legacy(stranger, `/chatbot-text-nodes/${page.results[0].id}/`));
  });

  it("a member sees nodes only through the knowledge base's group", async () => {
    const { owner, viewer, long } = await setup();
    const outsider = await seedMember(owner);
    const node = (
      await pageOf<"GET /chatbot-text-nodes/">(
        await owner.fetch("GET", `/chatbot-text-nodes/?knowledgeBaseFile=${long.id}&pageSize=1`),
      )
    ).results[0];
    await expectNotFound(await outsider.fetch("GET", `/chatbot-text-nodes/?knowledgeBaseFile=${long.id}`));
    await expectNotFound(await outsider.fetch("GET", `/chatbot-text-nodes/${node.id}/`));
    const list = await viewer.fetch("GET", `/chatbot-text-nodes/?knowledgeBaseFile=${long.id}`);
    expect(list.status, await list.clone().text()).toBe(200);
    expect((await pageOf<"GET /chatbot-text-nodes/">(list)).count).toBe(long.chunksCount);
    const one = await legacy(viewer, `/chatbot-text-nodes/${node.id}/`);
    expect(one.status, await one.clone().text()).toBe(200);
  });
});

describe("text nodes in the OpenAPI document", () => {
  it("documents both forms under both prefixes", async () => {
    const doc = await documentOf(await call("GET", "/api/v1/openapi.json"));
    for (const prefix of ["/api/v1", "/api"]) {
      for (const path of ["/chatbot-text-nodes/", "/chatbot-text-nodes/{id}/"]) {
        const schema = doc.paths[`${prefix}${path}`]?.get?.responses["200"]?.content?.["application/json"]?.schema;
        const refs = (schema?.anyOf ?? schema?.oneOf ?? []).map((s: DocSchema) => s.$ref);
        expect(refs.length, `${prefix}${path}`).toBe(2);
      }
    }
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(["TextNode", "TextNodeLegacy", "TextNodePage", "TextNodeLegacyCursorPage"]),
    );
  });
});
