import { matchExpression } from "../../../src/services/knowledge/retrieval/terms";
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner, type Actor } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { createFaq, createKnowledgeBase, createLabel } from "../../fixtures/knowledge";
import { bodyOf, documentOf } from "../../support/api";

const faqsOf = (kbId: string) => `/knowledge-bases/${kbId}/faqs/`;
const REFUND = { question: "How do I get a refund?", answer: "Write to billing within 30 days." };

async function setup() {
  const owner = await seedOwner();
  const member = await seedMember(owner, ["knowledge_base.view"]);
  const kb = await createKnowledgeBase(owner, { groups: [{ id: member.groupId }] });
  return { owner, member, kb };
}

const listFaqs = async (actor: Actor, kbId: string, query = "") =>
  await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/faqs/">(await actor.fetch("GET", `${faqsOf(kbId)}${query}`));

/** FAQ rows of a knowledge base that the keyword index finds for a term. */
async function keywordHits(kbId: string, term: string): Promise<number[]> {
  const { results } = await env.DB.prepare(`SELECT rowid FROM faqs_fts WHERE faqs_fts MATCH ?`)
    .bind(matchExpression(term, kbId))
    .all<{ rowid: number }>();
  return results.map((r) => r.rowid);
}
const rowidOf = async (faqId: string) =>
  (await env.DB.prepare("SELECT rowid FROM faqs WHERE id = ?").bind(faqId).first<{ rowid: number }>())?.rowid;

describe("knowledge base FAQs", () => {
  it.each(PREFIXES)("creates and reads an FAQ with labels and metadata under %s", async (prefix) => {
    const { owner, kb } = await setup();
    const label = await createLabel(owner, kb.id, "Billing");
    const res = await owner.fetch(
      "POST",
      faqsOf(kb.id),
      {
        ...REFUND,
        answer_media_urls: { images: ["https://example.com/a.png"] },
        labels: [{ id: label.id }],
        raw_user_define_metadata: { source_key: 1 },
      },
      { prefix },
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const faq = await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/faqs/">(res);
    expect(faq).toMatchObject({
      ...REFUND,
      answerMediaUrls: { images: ["https://example.com/a.png"] },
      hitsCount: 0,
      labels: [{ id: label.id, name: "Billing" }],
      rawUserDefineMetadata: { source_key: 1 },
      knowledgeBase: { id: kb.id, name: kb.name },
    });
    expect(faq.embeddingTokensCount).toBeGreaterThan(0);
    expect(faq.createdAt).toMatch(/^\d+$/);
    const got = await owner.fetch("GET", `${faqsOf(kb.id)}${faq.id}/`, undefined, { prefix });
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual(faq);
  });

  it("indexes a created FAQ for keyword search and drops it on delete", async () => {
    const { owner, kb } = await setup();
    const faq = await createFaq(owner, kb.id, REFUND);
    const rowid = await rowidOf(faq.id);
    expect(await keywordHits(kb.id, "refund")).toContain(rowid);
    expect((await owner.fetch("DELETE", `${faqsOf(kb.id)}${faq.id}/`)).status).toBe(204);
    expect(await keywordHits(kb.id, "refund")).not.toContain(rowid);
    await expectNotFound(await owner.fetch("GET", `${faqsOf(kb.id)}${faq.id}/`));
  });

  it.each(PREFIXES)("lists newest first with query and label filters under %s", async (prefix) => {
    const { owner, member, kb } = await setup();
    const [a, b] = [await createLabel(owner, kb.id, "a"), await createLabel(owner, kb.id, "b")];
    const first = await createFaq(owner, kb.id, {
      question: "Opening hours?",
      answer: "Nine to five.",
      labels: [{ id: a.id }],
    });
    const second = await createFaq(owner, kb.id, REFUND);
    const third = await createFaq(owner, kb.id, {
      question: "Shipping?",
      answer: "Refund shipping costs are ours.",
      labels: [{ id: b.id }],
    });
    const all = await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/faqs/">(
      await member.fetch("GET", faqsOf(kb.id), undefined, { prefix }),
    );
    expect(all.results.map((f) => f.id)).toEqual([third.id, second.id, first.id]);
    expect((await listFaqs(owner, kb.id, "?query=REFUND")).results.map((f) => f.id)).toEqual([third.id, second.id]);
    expect((await listFaqs(owner, kb.id, `?labels=${a.id},${b.id}`)).results.map((f) => f.id)).toEqual([
      third.id,
      first.id,
    ]);
    expect((await listFaqs(owner, kb.id, `?labels=${a.id}&query=nine`)).results.map((f) => f.id)).toEqual([first.id]);
    expect((await listFaqs(owner, kb.id, `?labels=${NO_SUCH_ID}`)).count).toBe(0);
  });

  it("replaces (PUT) and patches an FAQ, re-indexing a changed answer", async () => {
    const { owner, kb } = await setup();
    const label = await createLabel(owner, kb.id, "l");
    const faq = await createFaq(owner, kb.id, { ...REFUND, labels: [{ id: label.id }] });
    const put = await owner.fetch("PUT", `${faqsOf(kb.id)}${faq.id}/`, {
      question: "Returns?",
      answer: "Send the parcel back.",
    });
    expect(put.status, await put.clone().text()).toBe(200);
    expect(await put.json()).toMatchObject({
      question: "Returns?",
      answer: "Send the parcel back.",
      labels: [{ id: label.id }],
    });
    const rowid = await rowidOf(faq.id);
    expect(await keywordHits(kb.id, "refund")).not.toContain(rowid);
    expect(await keywordHits(kb.id, "parcel")).toContain(rowid);

    const patch = await owner.fetch("PATCH", `${faqsOf(kb.id)}${faq.id}/`, {
      labels: [],
      rawUserDefineMetadata: { a: 1 },
    });
    expect(patch.status).toBe(200);
    expect(await patch.json()).toMatchObject({ question: "Returns?", labels: [], rawUserDefineMetadata: { a: 1 } });
  });

  it.each(PREFIXES)("PUT with only `answer` keeps the other fields, as real clients send it (%s)", async (prefix) => {
    const { owner, kb } = await setup();
    const label = await createLabel(owner, kb.id, "Billing");
    const faq = await createFaq(owner, kb.id, {
      ...REFUND,
      labels: [{ id: label.id }],
      answerMediaUrls: { images: ["https://example.com/a.png"] },
      rawUserDefineMetadata: { source: "help" },
    });
    const res = await owner.fetch(
      "PUT",
      `${faqsOf(kb.id)}${faq.id}/`,
      { answer: "Send the parcel back within 30 days." },
      { prefix },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const expected = {
      question: REFUND.question,
      answer: "Send the parcel back within 30 days.",
      labels: [{ id: label.id, name: "Billing" }],
      answerMediaUrls: { images: ["https://example.com/a.png"] },
      rawUserDefineMetadata: { source: "help" },
    };
    expect(await res.json()).toMatchObject(expected);
    expect(await (await owner.fetch("GET", `${faqsOf(kb.id)}${faq.id}/`)).json()).toMatchObject(expected);
    // The changed answer is re-indexed; the kept question still finds it.
    const rowid = await rowidOf(faq.id);
    expect(await keywordHits(kb.id, "parcel")).toContain(rowid);
    expect(await keywordHits(kb.id, "refund")).toContain(rowid);
  });

  it("updates labels and metadata through update-metadata", async () => {
    const { owner, kb } = await setup();
    const [x, y] = [await createLabel(owner, kb.id, "x"), await createLabel(owner, kb.id, "y")];
    const faq = await createFaq(owner, kb.id, { ...REFUND, labels: [{ id: x.id }] });
    const res = await owner.fetch("PATCH", `${faqsOf(kb.id)}${faq.id}/update-metadata/`, {
      labels: [{ id: y.id }],
      raw_user_define_metadata: { Team: "ops" },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({
      ...REFUND,
      labels: [{ id: y.id, name: "y" }],
      rawUserDefineMetadata: { Team: "ops" },
    });
    const bad = await owner.fetch("PATCH", `${faqsOf(kb.id)}${faq.id}/update-metadata/`, {
      rawUserDefineMetadata: "nope",
    });
    expect((await expectError(bad, 400, "invalid")).errors).toHaveProperty("rawUserDefineMetadata");
  });

  it("batch-deletes only the given knowledge base's FAQs", async () => {
    const { owner, kb } = await setup();
    const kb2 = await createKnowledgeBase(owner);
    const mine = [await createFaq(owner, kb.id, REFUND), await createFaq(owner, kb.id, REFUND)];
    const kept = await createFaq(owner, kb.id, REFUND);
    const elsewhere = await createFaq(owner, kb2.id, REFUND);
    const res = await owner.fetch("POST", `${faqsOf(kb.id)}batch-delete/`, {
      ids: [...mine.map((f) => f.id), elsewhere.id, NO_SUCH_ID],
    });
    expect(res.status).toBe(204);
    expect((await listFaqs(owner, kb.id)).results.map((f) => f.id)).toEqual([kept.id]);
    expect((await listFaqs(owner, kb2.id)).results.map((f) => f.id)).toEqual([elsewhere.id]);
    expect(await keywordHits(kb2.id, "refund")).toContain(await rowidOf(elsewhere.id));
  });

  it("rejects bad input with 400 naming the field, and writes nothing", async () => {
    const { owner, kb } = await setup();
    const foreign = await createLabel(owner, (await createKnowledgeBase(owner)).id);
    const cases: [unknown, string][] = [
      [{ answer: "A." }, "question"],
      [{ question: "", answer: "A." }, "question"],
      [{ question: "x".repeat(10_001), answer: "A." }, "question"],
      [{ question: "Refund\u0000?", answer: "A." }, "question"],
      [{ question: "\t\n", answer: "A." }, "question"],
      [{ question: "Q?", answer: "Write to us\u0000" }, "answer"],
      [{ question: "Q?" }, "answer"],
      [{ ...REFUND, labels: [{ id: foreign.id }] }, "labels"],
      [{ ...REFUND, labels: [{ id: "nope" }] }, "labels.0.id"],
      [{ ...REFUND, answerMediaUrls: [1] }, "answerMediaUrls"],
    ];
    for (const [body, field] of cases) {
      const err = await expectError(await owner.fetch("POST", faqsOf(kb.id), body), 400, "invalid");
      expect(Object.keys(err.errors ?? {}), JSON.stringify(body)).toContain(field);
    }
    expect((await listFaqs(owner, kb.id)).count).toBe(0);
    // A pasted cell: its tabs and line breaks are spaces in the question, kept in the answer.
    const pasted = await createFaq(owner, kb.id, {
      question: " Refund\tpolicy\r\nfor EU? ",
      answer: "Yes:\n\t30 days.",
    });
    expect(pasted).toMatchObject({ question: "Refund policy for EU?", answer: "Yes:\n\t30 days." });
    await owner.fetch("DELETE", `${faqsOf(kb.id)}${pasted.id}/`);

    const faq = await createFaq(owner, kb.id, REFUND);
    for (const [body, field] of [
      [{ answer: "" }, "answer"],
      [{ question: "", answer: "New." }, "question"],
      [{ answer: "New.", labels: [{ id: foreign.id }] }, "labels"],
      [{ answer: "New.", answerMediaUrls: [1] }, "answerMediaUrls"],
    ] as const) {
      const err = await expectError(await owner.fetch("PUT", `${faqsOf(kb.id)}${faq.id}/`, body), 400, "invalid");
      expect(Object.keys(err.errors ?? {}), JSON.stringify(body)).toContain(field);
    }
    const patch = await owner.fetch("PATCH", `${faqsOf(kb.id)}${faq.id}/`, {
      question: "New?",
      labels: [{ id: foreign.id }],
    });
    expect((await expectError(patch, 400)).errors).toHaveProperty("labels");
    expect(await (await owner.fetch("GET", `${faqsOf(kb.id)}${faq.id}/`)).json()).toMatchObject({
      ...REFUND,
      labels: [],
    });

    for (const body of [{ ids: [] }, { ids: ["nope"] }, {}]) {
      const err = await expectError(await owner.fetch("POST", `${faqsOf(kb.id)}batch-delete/`, body), 400, "invalid");
      expect(Object.keys(err.errors ?? {}).some((k) => k.startsWith("ids"))).toBe(true);
    }
    expect((await listFaqs(owner, kb.id)).count).toBe(1);
  });

  it("answers 401 without a key", async () => {
    const { owner, kb } = await setup();
    const faq = await createFaq(owner, kb.id, REFUND);
    const one = `${faqsOf(kb.id)}${faq.id}/`;
    const requests: [string, string, unknown?][] = [
      ["GET", faqsOf(kb.id)],
      ["POST", faqsOf(kb.id), REFUND],
      ["GET", one],
      ["PUT", one, REFUND],
      ["PATCH", one, { answer: "x" }],
      ["DELETE", one],
      ["POST", `${faqsOf(kb.id)}batch-delete/`, { ids: [faq.id] }],
      ["PATCH", `${one}update-metadata/`, { labels: [] }],
    ];
    for (const [method, path, body] of requests)
      await expectError(await call(method, `/api/v1${path}`, body), 401, "not_authenticated");
    expect((await listFaqs(owner, kb.id)).count).toBe(1);
  });

  it("lets a viewer read but not write (403)", async () => {
    const { owner, member, kb } = await setup();
    const faq = await createFaq(owner, kb.id, REFUND);
    const one = `${faqsOf(kb.id)}${faq.id}/`;
    expect((await member.fetch("GET", faqsOf(kb.id))).status).toBe(200);
    expect((await member.fetch("GET", one)).status).toBe(200);
    const writes: [string, string, unknown?][] = [
      ["POST", faqsOf(kb.id), REFUND],
      ["PUT", one, { question: "Changed?", answer: "Changed." }],
      ["PATCH", one, { answer: "Changed." }],
      ["DELETE", one],
      ["POST", `${faqsOf(kb.id)}batch-delete/`, { ids: [faq.id] }],
      ["PATCH", `${one}update-metadata/`, { rawUserDefineMetadata: { a: 1 } }],
    ];
    for (const [method, path, body] of writes) await expectDenied(await member.fetch(method, path, body));
    expect(await (await owner.fetch("GET", one)).json()).toMatchObject({ ...REFUND, rawUserDefineMetadata: {} });
    expect((await listFaqs(owner, kb.id)).count).toBe(1);
  });

  it("answers 404 for another organization's knowledge base and another knowledge base's FAQ", async () => {
    const { owner, kb } = await setup();
    const faq = await createFaq(owner, kb.id, REFUND);
    const stranger = await seedOwner("stranger");
    const kb2 = await createKnowledgeBase(owner);
    await expectNotFound(await stranger.fetch("GET", faqsOf(kb.id)));
    await expectNotFound(await stranger.fetch("POST", faqsOf(kb.id), REFUND));
    await expectNotFound(await stranger.fetch("POST", `${faqsOf(kb.id)}batch-delete/`, { ids: [faq.id] }));
    // The FAQ's own id, under a knowledge base the caller cannot see or one it does not belong to.
    for (const [actor, one] of [
      [stranger, `${faqsOf(kb.id)}${faq.id}/`],
      [owner, `${faqsOf(kb2.id)}${faq.id}/`],
    ] as const) {
      await expectNotFound(await actor.fetch("GET", one));
      await expectNotFound(await actor.fetch("PUT", one, REFUND));
      await expectNotFound(await actor.fetch("PATCH", one, { answer: "x" }));
      await expectNotFound(await actor.fetch("DELETE", one));
      await expectNotFound(await actor.fetch("PATCH", `${one}update-metadata/`, { labels: [] }));
    }
    await expectNotFound(await owner.fetch("GET", `${faqsOf("not-a-uuid")}`));
    await expectNotFound(await owner.fetch("GET", `${faqsOf(kb.id)}not-a-uuid/`));
    expect(await (await owner.fetch("GET", `${faqsOf(kb.id)}${faq.id}/`)).json()).toMatchObject(REFUND);
  });

  it("documents every FAQ and label endpoint under both prefixes", async () => {
    const doc = await documentOf(await call("GET", "/api/v1/openapi.json"));
    const base = "/knowledge-bases/{knowledgeBaseId}";
    const expected: [string, string[]][] = [
      [`${base}/labels/`, ["get", "post"]],
      [`${base}/labels/{labelId}/`, ["delete", "get", "put"]],
      [`${base}/faqs/`, ["get", "post"]],
      [`${base}/faqs/{faqId}/`, ["delete", "get", "patch", "put"]],
      [`${base}/faqs/batch-delete/`, ["post"]],
      [`${base}/faqs/{faqId}/update-metadata/`, ["patch"]],
    ];
    for (const prefix of PREFIXES) {
      for (const [path, methods] of expected) {
        const item = doc.paths[`${prefix}${path}`] ?? {};
        for (const m of methods) expect(item[m]?.tags, `${m} ${prefix}${path}`).toEqual(["Knowledge bases"]);
      }
    }
  });
});
