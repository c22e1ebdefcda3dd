import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { KINDS, createModel, type ModelRecord } from "./fixtures";
import { bodyOf, pageOf } from "../../support/api";

type Page = { count: number; next: string | null; previous: string | null; results: ModelRecord[] };

describe("GET model lists", () => {
  it.each(KINDS.map((k, i) => [k.kind, k, PREFIXES[i % 2]] as const))(
    "%s: built-ins first, then the organization's own",
    async (_, k, prefix) => {
      const owner = await seedOwner();
      const stranger = await seedOwner();
      const mine = await createModel(owner, k);
      await createModel(stranger, k);
      const res = await owner.fetch("GET", k.path, undefined, { prefix });
      expect(res.status).toBe(200);
      const page = await res.json<Page>();
      expect(page.count).toBe(3);
      expect(page.results.map((m) => m.id)).toEqual([...k.builtIns, mine.id]);
      expect(page.results.every((m) => m.kind === k.kind)).toBe(true);
      expect(page.results[0]).toMatchObject({ isBuiltIn: true, organization: null, hasApiKey: false });
    },
  );

  it("pages with pageSize (and page_size), 404 past the end", async () => {
    const owner = await seedOwner();
    const first = await bodyOf<"GET /large-language-models/">(
      await owner.fetch("GET", "/large-language-models/?page_size=1"),
    );
    expect(first).toMatchObject({ count: 2, previous: null });
    expect(first.results).toHaveLength(1);
    expect(first.next).toContain("page=2");
    await expectError(await owner.fetch("GET", "/large-language-models/?page=3&pageSize=1"), 404, "not_found");
  });

  it("a member without any permission may list; API keys never appear", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner);
    const secret = `sk-${crypto.randomUUID()}`;
    const mine = await createModel(owner, KINDS[2], { apiKey: secret });
    const res = await member.fetch("GET", "/reranker-models/");
    expect(await res.clone().text()).not.toContain(secret);
    expect((await pageOf<"GET /reranker-models/">(res)).results.find((m) => m.id === mine.id)).toMatchObject({
      hasApiKey: true,
    });
  });

  it("400 for a bad page number", async () => {
    const owner = await seedOwner();
    const err = await expectError(await owner.fetch("GET", "/embedding-models/?page=0"), 400, "invalid");
    expect(err.errors).toHaveProperty("page");
  });

  it("401 without a key", async () => {
    await expectError(await call("GET", "/api/embedding-models/"), 401, "not_authenticated");
  });
});
