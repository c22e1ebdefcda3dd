import { describe, expect, it } from "vitest";
import { NO_SUCH_ID, PREFIXES, call, expectError, seedMember, seedOwner } from "../../harness";
import { KINDS, createModel } from "./fixtures";

describe("GET a model", () => {
  it.each(PREFIXES)("built-in and own models under %s", async (prefix) => {
    const owner = await seedOwner();
    const builtIn = await owner.fetch("GET", `/embedding-models/${KINDS[1].builtIns[0]}/`, undefined, { prefix });
    expect(builtIn.status).toBe(200);
    expect(await builtIn.json()).toMatchObject({
      name: "Local Embedding",
      provider: "local",
      dimensions: 256,
      isBuiltIn: true,
    });
    const mine = await createModel(owner, KINDS[0]);
    const res = await owner.fetch("GET", `/large-language-models/${mine.id}/`, undefined, { prefix });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(mine);
  });

  it("a member without any permission may read", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner);
    const mine = await createModel(owner, KINDS[2]);
    expect((await member.fetch("GET", `/reranker-models/${mine.id}/`)).status).toBe(200);
  });

  it("404 for another organization's model, a model of another kind, an unknown or malformed id", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    const theirs = await createModel(stranger, KINDS[0]);
    const mine = await createModel(owner, KINDS[0]);
    await expectError(await owner.fetch("GET", `/large-language-models/${theirs.id}/`), 404, "not_found");
    await expectError(await owner.fetch("GET", `/embedding-models/${mine.id}/`), 404, "not_found");
    await expectError(await owner.fetch("GET", `/reranker-models/${KINDS[0].builtIns[0]}/`), 404, "not_found");
    await expectError(await owner.fetch("GET", `/reranker-models/${NO_SUCH_ID}/`), 404, "not_found");
    await expectError(await owner.fetch("GET", "/reranker-models/not-a-uuid/"), 404, "not_found");
  });

  it("401 without a key", async () => {
    await expectError(
      await call("GET", `/api/v1/large-language-models/${KINDS[0].builtIns[0]}/`),
      401,
      "not_authenticated",
    );
  });
});
