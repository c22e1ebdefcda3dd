import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { knowledgeBases } from "../../../src/db/schema";
import { ApiError } from "../../../src/lib/errors";
import { getLabel, renameLabel } from "../../../src/services/knowledge/labels";
import { countRows, db, NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { createFaq, createKnowledgeBase, createLabel, ingest } from "../../fixtures/knowledge";
import { bodyOf } from "../../support/api";

const labelsOf = (kbId: string) => `/knowledge-bases/${kbId}/labels/`;

async function setup() {
  const owner = await seedOwner();
  const member = await seedMember(owner, ["knowledge_base.view"]);
  const kb = await createKnowledgeBase(owner, { groups: [{ id: member.groupId }] });
  return { owner, member, kb };
}

async function countLabels(owner: Awaited<ReturnType<typeof seedOwner>>, kbId: string) {
  return (await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/labels/">(await owner.fetch("GET", labelsOf(kbId))))
    .count;
}

describe("knowledge base labels", () => {
  it.each(PREFIXES)("creates, reads, renames and deletes a label under %s", async (prefix) => {
    const { owner, kb } = await setup();
    const res = await owner.fetch("POST", labelsOf(kb.id), { name: "Billing" }, { prefix });
    expect(res.status).toBe(201);
    const label = await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/labels/">(res);
    expect(label).toMatchObject({
      name: "Billing",
      knowledgeBase: { id: kb.id, name: kb.name },
      filesCount: 0,
      faqsCount: 0,
    });
    expect(label.createdAt).toMatch(/^\d+$/);

    const got = await owner.fetch("GET", `${labelsOf(kb.id)}${label.id}/`, undefined, { prefix });
    expect(got.status).toBe(200);
    expect(await got.json()).toEqual(label);

    const put = await owner.fetch("PUT", `${labelsOf(kb.id)}${label.id}/`, { name: "Payments" }, { prefix });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ id: label.id, name: "Payments" });

    const del = await owner.fetch("DELETE", `${labelsOf(kb.id)}${label.id}/`, undefined, { prefix });
    expect(del.status).toBe(204);
    await expectNotFound(await owner.fetch("GET", `${labelsOf(kb.id)}${label.id}/`));
  });

  it("lists by name with a name filter, and counts the FAQs carrying each label", async () => {
    const { owner, member, kb } = await setup();
    const b = await createLabel(owner, kb.id, "beta");
    await createLabel(owner, kb.id, "alpha");
    await createLabel(owner, kb.id, "gamma");
    await createFaq(owner, kb.id, { question: "Q?", answer: "A.", labels: [{ id: b.id }] });
    const page = await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/labels/">(
      await member.fetch("GET", labelsOf(kb.id)),
    );
    expect(page.count).toBe(3);
    expect(page.results.map((l) => l.name)).toEqual(["alpha", "beta", "gamma"]);
    expect(page.results.find((l) => l.id === b.id)?.faqsCount).toBe(1);
    const filtered = await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/labels/">(
      await owner.fetch("GET", `${labelsOf(kb.id)}?query=AMM&page_size=1`),
    );
    expect(filtered.results.map((l) => l.name)).toEqual(["gamma"]);
  });

  it("deleting a label leaves its FAQs, without the label", async () => {
    const { owner, kb } = await setup();
    const label = await createLabel(owner, kb.id);
    const faq = await createFaq(owner, kb.id, { question: "Q?", answer: "A.", labels: [{ id: label.id }] });
    expect((await owner.fetch("DELETE", `${labelsOf(kb.id)}${label.id}/`)).status).toBe(204);
    const got = await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/faqs/{faqId}/">(
      await owner.fetch("GET", `/knowledge-bases/${kb.id}/faqs/${faq.id}/`),
    );
    expect(got.labels).toEqual([]);
    expect(await countRows(env.DB, "faq_labels WHERE label_id = ?", label.id)).toBe(0);
  });

  it(
    "a queryMetadata restriction naming a deleted label matches nothing; another knowledge base's label is left " +
      "out",
    async () => {
      const owner = await seedOwner();
      const kb = await createKnowledgeBase(owner, { sentenceWindowSize: 0 });
      const other = await createKnowledgeBase(owner);
      const [basicFile, premiumFile] = await ingest(owner, kb.id, [
        { name: "basic.txt", content: "The basic plan includes email support for the warranty." },
        { name: "premium.txt", content: "The premium plan includes a phone line for the warranty." },
      ]);
      const basic = (await createLabel(owner, kb.id, "basic")).id;
      const premium = (await createLabel(owner, kb.id, "premium")).id;
      const elsewhere = (await createLabel(owner, other.id)).id;
      const stranger = await seedOwner("stranger");
      const foreign = (await createLabel(stranger, (await createKnowledgeBase(stranger)).id)).id;
      for (const [file, label] of [
        [basicFile, basic],
        [premiumFile, premium],
      ] as const) {
        const tag = await owner.fetch("PATCH", `/knowledge-bases/${kb.id}/files/${file.id}/update-metadata/`, {
          labels: [{ id: label }],
        });
        expect(tag.status, await tag.clone().text()).toBe(200);
      }
      const found = async (labelRelations: unknown) => {
        const res = await owner.fetch("POST", `/knowledge-bases/${kb.id}/search/`, {
          query: "warranty plan support",
          enableRerank: false,
          queryMetadata: { knowledgeBases: [{ knowledgeBaseId: kb.id, hasUserSelectedAll: true }], labelRelations },
        });
        expect(res.status, await res.clone().text()).toBe(200);
        const page = await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/search/">(res);
        return page.results.map((r) => r.knowledgeBaseFile?.filename).sort();
      };
      const group = (operator: "AND" | "OR", ...conditions: (string | object)[]) => ({
        operator,
        conditions: conditions.map((c) => (typeof c === "string" ? { labelId: c } : c)),
      });

      expect(await found(group("AND", basic))).toEqual(["basic.txt"]);
      // Another base's label is left out for this one; with nothing left, labels do not filter it.
      expect(await found(group("AND", elsewhere))).toEqual(["basic.txt", "premium.txt"]);
      expect(await found(group("AND", basic, elsewhere))).toEqual(["basic.txt"]);
      expect(await found(group("OR", premium, elsewhere))).toEqual(["premium.txt"]);
      // Another organization's label is none of this one's: it matches nothing.
      expect(await found(group("AND", foreign))).toEqual([]);
      expect(await found(group("OR", premium, foreign))).toEqual(["premium.txt"]);

      expect((await owner.fetch("DELETE", `${labelsOf(kb.id)}${basic}/`)).status).toBe(204);
      // The restriction named only "basic" content: deleting the label must not open the base. The deleted
      // label matches nothing: an AND holding it matches nothing, an OR loses that branch only.
      expect(await found(group("AND", basic))).toEqual([]);
      expect(await found(group("AND", basic, elsewhere))).toEqual([]);
      expect(await found(group("OR", basic, premium))).toEqual(["premium.txt"]);
      expect(await found(group("OR", basic, group("AND", premium, elsewhere)))).toEqual(["premium.txt"]);
      expect(await found(group("OR", basic, elsewhere))).toEqual([]);
    },
  );

  it("rejects a missing or blank name and writes nothing", async () => {
    const { owner, kb } = await setup();
    const body = await expectError(await owner.fetch("POST", labelsOf(kb.id), { name: "  " }), 400, "invalid");
    expect(Object.keys(body.errors ?? {})).toContain("name");
    expect((await expectError(await owner.fetch("POST", labelsOf(kb.id), {}), 400, "invalid")).errors).toHaveProperty(
      "name",
    );
    expect(await countLabels(owner, kb.id)).toBe(0);
    const label = await createLabel(owner, kb.id, "kept");
    expect(
      (await expectError(await owner.fetch("PUT", `${labelsOf(kb.id)}${label.id}/`, { name: "" }), 400, "invalid"))
        .errors,
    ).toHaveProperty("name");
    expect(await (await owner.fetch("GET", `${labelsOf(kb.id)}${label.id}/`)).json()).toMatchObject({ name: "kept" });
  });

  it("answers 409 for a duplicate name in the same knowledge base, not in another one", async () => {
    const { owner, kb } = await setup();
    await createLabel(owner, kb.id, "Billing");
    await expectError(await owner.fetch("POST", labelsOf(kb.id), { name: "Billing" }), 409, "conflict");
    const other = await createLabel(owner, kb.id, "Other");
    await expectError(await owner.fetch("PUT", `${labelsOf(kb.id)}${other.id}/`, { name: "Billing" }), 409, "conflict");
    expect(await countLabels(owner, kb.id)).toBe(2);
    const kb2 = await createKnowledgeBase(owner);
    await createLabel(owner, kb2.id, "Billing");
  });

  it("answers 401 without a key", async () => {
    const { owner, kb } = await setup();
    const label = await createLabel(owner, kb.id);
    await expectError(await call("GET", `/api/v1${labelsOf(kb.id)}`), 401, "not_authenticated");
    await expectError(await call("POST", `/api/v1${labelsOf(kb.id)}`, { name: "x" }), 401, "not_authenticated");
    await expectError(await call("GET", `/api${labelsOf(kb.id)}${label.id}/`), 401, "not_authenticated");
    await expectError(
      await call("PUT", `/api/v1${labelsOf(kb.id)}${label.id}/`, { name: "x" }),
      401,
      "not_authenticated",
    );
    await expectError(await call("DELETE", `/api/v1${labelsOf(kb.id)}${label.id}/`), 401, "not_authenticated");
  });

  it("lets a viewer read but not write (403)", async () => {
    const { owner, member, kb } = await setup();
    const label = await createLabel(owner, kb.id, "seen");
    expect((await member.fetch("GET", labelsOf(kb.id))).status).toBe(200);
    expect((await member.fetch("GET", `${labelsOf(kb.id)}${label.id}/`)).status).toBe(200);
    await expectDenied(await member.fetch("POST", labelsOf(kb.id), { name: "new" }));
    await expectDenied(await member.fetch("PUT", `${labelsOf(kb.id)}${label.id}/`, { name: "new" }));
    await expectDenied(await member.fetch("DELETE", `${labelsOf(kb.id)}${label.id}/`));
    const page = await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/labels/">(
      await owner.fetch("GET", labelsOf(kb.id)),
    );
    expect(page.results.map((l) => l.name)).toEqual(["seen"]);
  });

  it("a rename racing the label's delete is a 404 and writes nothing, never a 500 or a 200", async () => {
    const { owner, kb } = await setup();
    const label = await createLabel(owner, kb.id, "Billing");
    const [row] = await db().select().from(knowledgeBases).where(eq(knowledgeBases.id, kb.id));
    // The rename has read the label (as its route does) when the delete goes through.
    const read = await getLabel(db(), row, label.id);
    expect((await owner.fetch("DELETE", `${labelsOf(kb.id)}${label.id}/`)).status).toBe(204);
    const renamed = await renameLabel(db(), row, read, "Payments").then(
      () => null,
      (err: unknown) => err,
    );
    expect(renamed).toBeInstanceOf(ApiError);
    expect(renamed).toMatchObject({ status: 404 });
    expect(await countRows(env.DB, "knowledge_base_labels WHERE knowledge_base_id = ?", kb.id)).toBe(0);
  });

  it("404 for another organization's knowledge base, another knowledge base's label and malformed ids", async () => {
    const { owner, kb } = await setup();
    const label = await createLabel(owner, kb.id);
    const stranger = await seedOwner("stranger");
    await expectNotFound(await stranger.fetch("GET", labelsOf(kb.id)));
    await expectNotFound(await stranger.fetch("POST", labelsOf(kb.id), { name: "x" }));
    await expectNotFound(await stranger.fetch("GET", `${labelsOf(kb.id)}${label.id}/`));
    await expectNotFound(await stranger.fetch("PUT", `${labelsOf(kb.id)}${label.id}/`, { name: "x" }));
    await expectNotFound(await stranger.fetch("DELETE", `${labelsOf(kb.id)}${label.id}/`));

    const kb2 = await createKnowledgeBase(owner);
    await expectNotFound(await owner.fetch("GET", `${labelsOf(kb2.id)}${label.id}/`));
    await expectNotFound(await owner.fetch("PUT", `${labelsOf(kb2.id)}${label.id}/`, { name: "x" }));
    await expectNotFound(await owner.fetch("DELETE", `${labelsOf(kb2.id)}${label.id}/`));
    expect(await countLabels(owner, kb.id)).toBe(1);

    await expectNotFound(await owner.fetch("GET", labelsOf("not-a-uuid")));
    await expectNotFound(await owner.fetch("GET", `${labelsOf(kb.id)}not-a-uuid/`));
    await expectNotFound(await owner.fetch("GET", `${labelsOf(kb.id)}${NO_SUCH_ID}/`));
  });
});
