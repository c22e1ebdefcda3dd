import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { updateLabel } from "../../../src/services/labels";
import { NO_SUCH_ID, PREFIXES, call, db, expectError, seedMember, seedOwner, unique, type Actor } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { bodyOf } from "../../support/api";
import { updatingAfter } from "../../support/races";

const createLabel = async (actor: Actor, body: Record<string, unknown>) => {
  const res = await actor.fetch("POST", "/labels/", body);
  expect(res.status, await res.clone().text()).toBe(201);
  return await bodyOf<"POST /labels/">(res);
};
const labelsOf = async (organizationId: string) =>
  (
    await env.DB.prepare("SELECT name, color, description FROM labels WHERE organization_id = ? ORDER BY name")
      .bind(organizationId)
      .all()
  ).results;

describe("/labels/", () => {
  it.each(PREFIXES)("creates, lists by name with search, gets, changes and deletes labels (%s)", async (prefix) => {
    const owner = await seedOwner();
    const res = await owner.fetch(
      "POST",
      "/labels/",
      { name: "  Billing ", color: "#1F77B4", description: "Invoices" },
      { prefix },
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const billing = await bodyOf<"POST /labels/">(res);
    expect(billing).toMatchObject({ name: "Billing", color: "#1f77b4", description: "Invoices" });
    const vip = await createLabel(owner, { name: "VIP 貴賓", color: "#ff0000" });
    expect(vip.description).toBe("");
    await createLabel(owner, { name: "Bug", color: "#00ff00" });

    const page = await bodyOf<"GET /labels/">(await owner.fetch("GET", "/labels/", undefined, { prefix }));
    expect(page.count).toBe(3);
    expect(page.results.map((l) => l.name)).toEqual(["Billing", "Bug", "VIP 貴賓"]);
    const found = await bodyOf<"GET /labels/">(
      await owner.fetch("GET", `/labels/?search=${encodeURIComponent("貴賓")}`, undefined, { prefix }),
    );
    expect(found.results.map((l) => l.id)).toEqual([vip.id]);
    const paged = await bodyOf<"GET /labels/">(
      await owner.fetch("GET", "/labels/?pageSize=2&page=2", undefined, { prefix }),
    );
    expect(paged.results.map((l) => l.name)).toEqual(["VIP 貴賓"]);

    expect(await (await owner.fetch("GET", `/labels/${billing.id}/`, undefined, { prefix })).json()).toEqual(billing);
    const patched = await owner.fetch("PATCH", `/labels/${billing.id}/`, { color: "#000000" }, { prefix });
    expect(patched.status, await patched.clone().text()).toBe(200);
    expect(await patched.json()).toMatchObject({
      id: billing.id,
      name: "Billing",
      color: "#000000",
      description: "Invoices",
    });

    expect((await owner.fetch("DELETE", `/labels/${vip.id}/`, undefined, { prefix })).status).toBe(204);
    await expectNotFound(await owner.fetch("GET", `/labels/${vip.id}/`, undefined, { prefix }));
    expect(await labelsOf(owner.organizationId)).toEqual([
      { name: "Billing", color: "#000000", description: "Invoices" },
      { name: "Bug", color: "#00ff00", description: "" },
    ]);
  });

  it("400 with a clear detail for bad input and 409 for a name taken, nothing written", async () => {
    const owner = await seedOwner();
    const label = await createLabel(owner, { name: "Billing", color: "#123456" });
    const before = await labelsOf(owner.organizationId);
    const bad = [
      [{ name: "", color: "#123456" }, "name"],
      [{ name: "x".repeat(51), color: "#123456" }, "name"],
      [{ name: "Red" }, "color"],
      [{ name: "Red", color: "red" }, "color"],
      [{ name: "Red", color: "#12345" }, "color"],
      [{ name: "Red", color: "#123456", description: "x".repeat(501) }, "description"],
    ] as const;
    for (const [body, field] of bad) {
      const error = await expectError(await owner.fetch("POST", "/labels/", body), 400, "invalid");
      expect(error.errors, JSON.stringify(body)).toHaveProperty(field);
      expect(error.detail).toContain(field);
    }
    expect(
      (await expectError(await owner.fetch("PATCH", `/labels/${label.id}/`, { color: "#xyzxyz" }), 400, "invalid"))
        .errors,
    ).toHaveProperty("color");
    await expectError(await owner.fetch("GET", "/labels/?pageSize=x"), 400);
    expect(
      (await expectError(await owner.fetch("POST", "/labels/", { name: "Billing", color: "#000000" }), 409, "conflict"))
        .detail,
    ).toContain("already exists");
    const other = await createLabel(owner, { name: "Other", color: "#000000" });
    await expectError(await owner.fetch("PATCH", `/labels/${other.id}/`, { name: "Billing" }), 409, "conflict");
    await owner.fetch("DELETE", `/labels/${other.id}/`);
    expect(await labelsOf(owner.organizationId)).toEqual(before);
  });

  it("a name differing only by Unicode normalisation (NFC/NFD) is the same name: 409; kept as NFC", async () => {
    const owner = await seedOwner();
    const nfc = "Café".normalize("NFC");
    const nfd = "Café".normalize("NFD");
    expect(nfc).not.toBe(nfd);
    // A Mac's file names and some input give NFD: the same name, which the list could not tell apart.
    expect((await createLabel(owner, { name: nfd, color: "#000000" })).name).toBe(nfc);
    await expectError(await owner.fetch("POST", "/labels/", { name: nfc, color: "#ffffff" }), 409, "conflict");
    expect(await labelsOf(owner.organizationId)).toEqual([{ name: nfc, color: "#000000", description: "" }]);
  });

  it("a PATCH whose label is deleted meanwhile is a 404, not a 500", async () => {
    const owner = await seedOwner();
    const label = await createLabel(owner, { name: "Billing", color: "#000000" });
    const deleted = async () => expect((await owner.fetch("DELETE", `/labels/${label.id}/`)).status).toBe(204);
    const update = updateLabel(updatingAfter(db(), deleted), owner.organizationId, label.id, { color: "#ffffff" });
    await expect(update).rejects.toMatchObject({ status: 404 });
    expect(await labelsOf(owner.organizationId)).toEqual([]);
  });

  it("the same name in two organizations; another organization's label is a 404", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    const mine = await createLabel(owner, { name: "Billing", color: "#123456" });
    await createLabel(stranger, { name: "Billing", color: "#654321" });
    await expectNotFound(await stranger.fetch("GET", `/labels/${mine.id}/`));
    await expectNotFound(await stranger.fetch("PATCH", `/labels/${mine.id}/`, { name: "Mine now" }));
    await expectNotFound(await stranger.fetch("DELETE", `/labels/${mine.id}/`));
    await expectNotFound(await owner.fetch("GET", `/labels/${NO_SUCH_ID}/`));
    const theirs = await bodyOf<"GET /labels/">(await stranger.fetch("GET", "/labels/"));
    expect(theirs.results.map((l) => l.color)).toEqual(["#654321"]);
    expect(await labelsOf(owner.organizationId)).toEqual([{ name: "Billing", color: "#123456", description: "" }]);
  });

  it("401 without a key; reading needs conversation.view, writing label.manage (403, nothing written)", async () => {
    const owner = await seedOwner();
    const label = await createLabel(owner, { name: unique("l"), color: "#123456" });
    await expectError(await call("GET", "/api/v1/labels/"), 401, "not_authenticated");
    await expectError(await call("POST", "/api/v1/labels/", { name: "x", color: "#123456" }), 401, "not_authenticated");
    const plain = await seedMember(owner);
    await expectDenied(await plain.fetch("GET", "/labels/"));
    await expectDenied(await plain.fetch("GET", `/labels/${label.id}/`));
    const viewer = await seedMember(owner, ["conversation.manage"]);
    expect((await viewer.fetch("GET", "/labels/")).status).toBe(200);
    expect((await viewer.fetch("GET", `/labels/${label.id}/`)).status).toBe(200);
    expect(
      (await expectDenied(await viewer.fetch("POST", "/labels/", { name: "New", color: "#123456" }))).detail,
    ).toContain("label.manage");
    await expectDenied(await viewer.fetch("PATCH", `/labels/${label.id}/`, { name: "New" }));
    await expectDenied(await viewer.fetch("DELETE", `/labels/${label.id}/`));
    expect(await labelsOf(owner.organizationId)).toEqual([{ name: label.name, color: "#123456", description: "" }]);
    const manager = await seedMember(owner, ["label.manage"]);
    expect((await manager.fetch("POST", "/labels/", { name: "New", color: "#123456" })).status).toBe(201);
  });
});
