import { describe, expect, it } from "vitest";
import { knowledgeBases } from "../../../src/db/schema";
import { PREFIXES, call, expectError, seedMember, seedOwner, type Actor } from "../../harness";
import { expectInvalid } from "../../support/refusals";
import { expectQueryFindsEitherUnicodeForm } from "../../support/unicode-names";
import { LOCAL_EMBEDDING, LOCAL_RERANKER } from "../../fixtures/chatbots";
import { createKnowledgeBase } from "../../fixtures/knowledge";
import { createGroup } from "../groups/helpers";
import { pageOf } from "../../support/api";

const WORKERS_EMBEDDING = "00000000-0000-7000-8000-000000000012";
const WORKERS_RERANKER = "00000000-0000-7000-8000-000000000013";

async function page(res: Response) {
  expect(res.status, await res.clone().text()).toBe(200);
  return pageOf<"GET /knowledge-bases/">(res);
}

const ids = async (actor: Actor, qs = "") =>
  (await page(await actor.fetch("GET", `/knowledge-bases/${qs}`))).results.map((k) => k.id);

describe("GET /knowledge-bases/", () => {
  it.each(PREFIXES)("lists the organization's knowledge bases newest first in page form under %s", async (prefix) => {
    const owner = await seedOwner();
    const a = await createKnowledgeBase(owner);
    const b = await createKnowledgeBase(owner);
    const c = await createKnowledgeBase(owner);
    await createKnowledgeBase(await seedOwner());
    const all = await page(await owner.fetch("GET", "/knowledge-bases/", undefined, { prefix }));
    expect(all).toMatchObject({ count: 3, next: null, previous: null });
    expect(all.results.map((k) => k.id)).toEqual([c.id, b.id, a.id]);
    expect(all.results[0]).toEqual(c);
    const first = await page(await owner.fetch("GET", "/knowledge-bases/?pageSize=2", undefined, { prefix }));
    expect(first.count).toBe(3);
    expect(first.results.map((k) => k.id)).toEqual([c.id, b.id]);
    expect(first.next).toContain("page=2");
    expect(first.previous).toBeNull();
    const second = await page(await owner.fetch("GET", "/knowledge-bases/?page=2&page_size=2", undefined, { prefix }));
    expect(second.results.map((k) => k.id)).toEqual([a.id]);
    expect(second.next).toBeNull();
    expect(second.previous).not.toBeNull();
  });

  it("filters by embeddingModel, rerankerModel and query (name contains, case-insensitive)", async () => {
    const owner = await seedOwner();
    const help = await createKnowledgeBase(owner, { name: "Help Centre" });
    const bge = await createKnowledgeBase(owner, { name: "Product manuals", embeddingModel: WORKERS_EMBEDDING });
    const reranked = await createKnowledgeBase(owner, { name: "Helpdesk macros", rerankerModel: WORKERS_RERANKER });
    expect(await ids(owner, `?embeddingModel=${WORKERS_EMBEDDING}`)).toEqual([bge.id]);
    expect(await ids(owner, `?embeddingModel=${LOCAL_EMBEDDING}`)).toEqual([reranked.id, help.id]);
    expect(await ids(owner, `?rerankerModel=${WORKERS_RERANKER}`)).toEqual([reranked.id]);
    expect(await ids(owner, `?rerankerModel=${LOCAL_RERANKER}`)).toEqual([bge.id, help.id]);
    expect(await ids(owner, "?query=HELP")).toEqual([reranked.id, help.id]);
    expect(await ids(owner, "?query=manual")).toEqual([bge.id]);
    expect(await ids(owner, "?query=nothing-like-this")).toEqual([]);
    expect(await ids(owner, `?query=help&rerankerModel=${LOCAL_RERANKER}`)).toEqual([help.id]);
    const counted = await page(await owner.fetch("GET", `/knowledge-bases/?embeddingModel=${LOCAL_EMBEDDING}`));
    expect(counted.count).toBe(2);
  });

  it("`query` finds a name in whichever Unicode form it was typed or stored (composed NFC or decomposed)", async () => {
    const owner = await seedOwner();
    await expectQueryFindsEitherUnicodeForm({
      create: (name) => createKnowledgeBase(owner, { name }),
      table: knowledgeBases,
      search: (query) => ids(owner, `?query=${encodeURIComponent(query)}`),
    });
  });

  it("owners see all; a viewer sees those of their groups and their own; another organization's never", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["knowledge_base.view", "knowledge_base.manage"]);
    const otherGroup = await createGroup(owner, ["knowledge_base.view"]);
    const shared = await createKnowledgeBase(owner, { groups: [{ id: member.groupId }] });
    const hidden = await createKnowledgeBase(owner);
    const elsewhere = await createKnowledgeBase(owner, { groups: [{ id: otherGroup.id }] });
    const own = await createKnowledgeBase(member);
    const stranger = await seedOwner();
    const foreign = await createKnowledgeBase(stranger);

    expect(await ids(owner)).toEqual([own.id, elsewhere.id, hidden.id, shared.id]);
    const seen = await page(await member.fetch("GET", "/knowledge-bases/"));
    expect(seen.count).toBe(2);
    expect(seen.results.map((k) => k.id)).toEqual([own.id, shared.id]);
    expect(await ids(stranger)).toEqual([foreign.id]);
  });

  it("without knowledge_base.view a member sees none of their groups' ones; manage implies view", async () => {
    const owner = await seedOwner();
    const other = await seedMember(owner, ["chatbot.view"]);
    const manager = await seedMember(owner, ["knowledge_base.manage"]);
    const given = await createKnowledgeBase(owner, { groups: [{ id: manager.groupId }, { id: other.groupId }] });
    const mine = await createKnowledgeBase(manager, { groups: [{ id: manager.groupId }] });
    expect(await ids(other)).toEqual([]);
    expect(await ids(manager)).toEqual([mine.id, given.id]);
  });

  it.each(["?pageSize=abc", "?page=0", "?page=x", "?embeddingModel=nope", "?rerankerModel=123"])(
    "%s is a 400",
    async (qs) => {
      const owner = await seedOwner();
      await createKnowledgeBase(owner);
      const field = qs.slice(1).split("=")[0];
      await expectInvalid(await owner.fetch("GET", `/knowledge-bases/${qs}`), field);
    },
  );

  it("401 without a key", async () => {
    await expectError(await call("GET", "/api/v1/knowledge-bases/"), 401, "not_authenticated");
    await expectError(await call("GET", "/api/knowledge-bases/", undefined, { Authorization: "Api-Key ak_nope" }), 401);
  });
});
