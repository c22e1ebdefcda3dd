import { beforeAll, describe, expect, it } from "vitest";
import { seedOwner, type Actor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { createFaq, createKnowledgeBase, createLabel, ingest, type KnowledgeBaseRecord } from "../fixtures/knowledge";
import { bodyOf } from "../support/api";

/**
 * The contact queryMetadata rules (spec, Contact, rules 1-4). Every document mentions "zebra", so an
 * unrestricted search finds all of them; each test checks which ones a restriction leaves.
 */
let owner: Actor;
let kb: KnowledgeBaseRecord;
let other: KnowledgeBaseRecord;
const file: Record<string, string> = {};
let faq: string;
let label: { red: string; blue: string; green: string };

beforeAll(async () => {
  owner = await seedOwner();
  kb = await createKnowledgeBase(owner, { numberOfRetrievedChunks: 50, enableRerank: false });
  other = await createKnowledgeBase(owner, { numberOfRetrievedChunks: 50, enableRerank: false });
  const files = await ingest(owner, kb.id, [
    { name: "a.txt", content: "The zebra alpha document." },
    { name: "b.txt", content: "The zebra beta document." },
    { name: "c.txt", content: "The zebra gamma document." },
  ]);
  for (const f of files) file[f.filename[0]] = f.id;
  faq = (
    await createFaq(owner, kb.id, { question: "Where does the zebra live?", answer: "The zebra lives in the savanna." })
  ).id;
  label = {
    red: (await createLabel(owner, kb.id, "red")).id,
    blue: (await createLabel(owner, kb.id, "blue")).id,
    green: (await createLabel(owner, kb.id, "green")).id,
  };
  const tag = (id: string, labels: string[]) =>
    owner.fetch("PATCH", `/knowledge-bases/${kb.id}/files/${id}/update-metadata/`, {
      labels: labels.map((l) => ({ id: l })),
    });
  await tag(file.a, [label.red, label.blue]);
  await tag(file.b, [label.red]);
  await tag(file.c, [label.green]);
  await ingest(owner, other.id, [{ name: "z.txt", content: "The zebra zeta document." }]);
});

/** Names of what a search finds: file initials and "faq". */
async function found(queryMetadata?: unknown, base = kb): Promise<string[]> {
  const res = await owner.fetch("POST", `/knowledge-bases/${base.id}/search/`, {
    query: "zebra",
    ...(queryMetadata === undefined ? {} : { queryMetadata }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const page = await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/search/">(res);
  return page.results.map((r) => (r.type === "faq" ? "faq" : r.knowledgeBaseFile!.filename[0])).sort();
}

const only = (ids: Record<string, unknown>) => ({
  knowledgeBases: [{ knowledgeBaseId: kb.id, hasUserSelectedAll: false, ...ids }],
});
const allBut = (ids: Record<string, unknown>) => ({
  knowledgeBases: [{ knowledgeBaseId: kb.id, hasUserSelectedAll: true, ...ids }],
});

describe("queryMetadata restricts retrieval", () => {
  it("absent: no restriction", async () => {
    expect(await found()).toEqual(["a", "b", "c", "faq"]);
  });

  it("rule 3: an empty list or null means nothing is queryable", async () => {
    expect(await found({ knowledgeBases: [] })).toEqual([]);
    expect(await found({ knowledgeBases: null })).toEqual([]);
  });

  it("rule 2: hasUserSelectedAll false selects only the listed files and FAQs; none listed selects none", async () => {
    expect(await found(only({ knowledgeBaseFileIds: [file.b], faqIds: [faq] }))).toEqual(["b", "faq"]);
    expect(await found(only({}))).toEqual([]);
  });

  it("rule 2: hasUserSelectedAll true selects everything except the listed ids", async () => {
    expect(await found(allBut({ knowledgeBaseFileIds: [file.a], faqIds: [faq] }))).toEqual(["b", "c"]);
    expect(await found(allBut({}))).toEqual(["a", "b", "c", "faq"]);
  });

  it("rule 1: chatbotFileIds is the old name of knowledgeBaseFileIds, which wins when both are given", async () => {
    expect(await found(only({ chatbotFileIds: [file.c] }))).toEqual(["c"]);
    expect(await found(only({ chatbotFileIds: [file.c], knowledgeBaseFileIds: [file.a] }))).toEqual(["a"]);
  });

  it("a knowledge base that the restriction does not list gives nothing", async () => {
    expect(await found(only({ knowledgeBaseFileIds: [file.a] }), other)).toEqual([]);
  });

  it("rule 4: label relations with AND, OR and nesting keep the sources whose labels satisfy them", async () => {
    const rel = (labelRelations: unknown) => ({ ...allBut({}), labelRelations });
    expect(
      await found(rel({ operator: "AND", conditions: [{ labelId: label.red }, { labelId: label.blue }] })),
    ).toEqual(["a"]);
    expect(
      await found(rel({ operator: "OR", conditions: [{ labelId: label.blue }, { labelId: label.green }] })),
    ).toEqual(["a", "c"]);
    expect(
      await found(
        rel({
          operator: "OR",
          conditions: [
            { labelId: label.green },
            { operator: "AND", conditions: [{ labelId: label.red }, { labelId: label.blue }] },
          ],
        }),
      ),
    ).toEqual(["a", "c"]);
    // Labels combine with the id selection.
    expect(
      await found({
        ...only({ knowledgeBaseFileIds: [file.a, file.c] }),
        labelRelations: { operator: "OR", conditions: [{ labelId: label.red }] },
      }),
    ).toEqual(["a"]);
  });

  it("rule 4: empty conditions mean no label filter; label relations without knowledgeBases do nothing", async () => {
    expect(await found({ ...allBut({}), labelRelations: { operator: "AND", conditions: [] } })).toEqual([
      "a",
      "b",
      "c",
      "faq",
    ]);
    expect(await found({ labelRelations: { operator: "AND", conditions: [{ labelId: label.green }] } })).toEqual([
      "a",
      "b",
      "c",
      "faq",
    ]);
  });

  it("a restricted search finds an allowed passage however far down the unrestricted ranking it is", async () => {
    const crowded = await createKnowledgeBase(owner, { numberOfRetrievedChunks: 1, enableRerank: false });
    const strong = Array.from({ length: 40 }, (_, i) => ({
      name: `strong-${i}.txt`,
      content: `Okapi okapi okapi ${i}.`,
    }));
    const files = await ingest(owner, crowded.id, [...strong.slice(0, 20)]);
    files.push(...(await ingest(owner, crowded.id, strong.slice(20))));
    const [weak] = await ingest(owner, crowded.id, [
      {
        name: "weak.txt",
        content: `An okapi appears once in this much longer text about ${"other things and ".repeat(30)}more.`,
      },
    ]);
    const search = async (queryMetadata?: unknown) => {
      const res = await owner.fetch("POST", `/knowledge-bases/${crowded.id}/search/`, {
        query: "okapi",
        searchMethod: "keyword",
        ...(queryMetadata ? { queryMetadata } : {}),
      });
      return (await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/search/">(res)).results.map(
        (r) => r.knowledgeBaseFile!.filename,
      );
    };
    expect(await search()).not.toContain("weak.txt");
    expect(
      await search({
        knowledgeBases: [{ knowledgeBaseId: crowded.id, knowledgeBaseFileIds: [weak.id], hasUserSelectedAll: false }],
      }),
    ).toEqual(["weak.txt"]);
    const denyStrong = {
      knowledgeBases: [
        { knowledgeBaseId: crowded.id, knowledgeBaseFileIds: files.map((f) => f.id), hasUserSelectedAll: true },
      ],
    };
    expect(await search(denyStrong)).toEqual(["weak.txt"]);
  });

  it("a contact's queryMetadata restricts what the assistant answers from", async () => {
    const bot = await createChatbot(owner, { knowledgeBases: [{ id: kb.id }] });
    const contactRes = await owner.fetch("POST", "/contacts/", {
      name: "Restricted",
      queryMetadata: only({ knowledgeBaseFileIds: [file.c] }),
    });
    expect(contactRes.status, await contactRes.clone().text()).toBe(201);
    const contact = await bodyOf<"POST /contacts/">(contactRes);
    const reply = async (sender?: string) => {
      const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        // A question the documents answer: a reply that says it does not know lists no sources.
        message: { content: "Which zebra documents are there?", ...(sender ? { sender } : {}) },
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res))
        .message!.citations.map((c) => c.filename)
        .sort();
    };
    expect(await reply()).toEqual(["a.txt", "b.txt", "c.txt"]);
    expect(await reply(contact.id)).toEqual(["c.txt"]);
  });
});
