import { eq } from "drizzle-orm";
import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { organizations } from "../../../src/db/schema";
import {
  type Actor,
  CONFIGURED_PLANS,
  PREFIXES,
  db,
  expectError,
  seedMember,
  seedOwner,
  setPlan,
  type Settings,
} from "../../harness";
import { expectDenied, expectNotFound, expectInvalid } from "../../support/refusals";
import { bodyOf } from "../../support/api";

const path = (id: string) => `/organizations/${id}/`;
const row = async (id: string) => (await db().select().from(organizations).where(eq(organizations.id, id)))[0];
const stored = async (orgId: string) => (await env.FILES.list({ prefix: `public/organizations/${orgId}/` })).objects;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

function form(parts: Record<string, string | File>) {
  const f = new FormData();
  for (const [k, v] of Object.entries(parts)) f.append(k, v);
  return f;
}

/** The PNG as a file part: `filename`, of `type`. */
const png = (filename = "a.png", type = "image/png") => new File([PNG], filename, { type });

/** A multipart PATCH by `owner` of their own organization. */
const patchOwn = (owner: Actor, parts: Record<string, string | File>, settings?: Settings) =>
  owner.fetch("PATCH", path(owner.organizationId), form(parts), { settings });

async function enterpriseOwner() {
  const owner = await seedOwner();
  await setPlan(owner.organizationId, "enterprise");
  return owner;
}

describe("PUT and PATCH /organizations/{id}/ (multipart logos)", () => {
  it.each(PREFIXES)("stores uploaded logos in R2 and serves them publicly, under %s", async (prefix) => {
    const owner = await enterpriseOwner();
    const body = form({
      name: "With logos",
      compactLogo: new File([PNG], "My Logo!.PNG", { type: "image/png" }),
      full_logo: new File([new Uint8Array([0xff, 0xd8, 0xff, 9])], "../../full.jpeg", { type: "image/jpeg" }),
    });
    const res = await owner.fetch("PUT", path(owner.organizationId), body, { prefix });
    expect(res.status, await res.clone().text()).toBe(200);
    const org = await bodyOf<"PUT /organizations/{id}/">(res);
    expect(org.name).toBe("With logos");
    const base = `http://localhost/api/v1/files/public/organizations/${owner.organizationId}/`;
    expect(org.compactLogo).toMatch(new RegExp(`^${base}[0-9a-f-]{36}-My_Logo_\\.png$`));
    expect(org.fullLogo).toMatch(new RegExp(`^${base}[0-9a-f-]{36}-full\\.jpg$`));
    expect(await stored(owner.organizationId)).toHaveLength(2);
    const file = await SELF.fetch(org.compactLogo!);
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toBe("image/png");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
  });

  it("a text part may carry an http(s) URL, nothing else", async () => {
    const owner = await enterpriseOwner();
    const res = await patchOwn(owner, { fullLogo: "javascript:alert(1)" });
    await expectInvalid(res, "fullLogo");
    const ok = await patchOwn(owner, { fullLogo: "https://cdn.example.com/f.png" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ fullLogo: "https://cdn.example.com/f.png" });
  });

  it("an empty part clears a logo; text parts update the other fields", async () => {
    const owner = await enterpriseOwner();
    await owner.fetch("PATCH", path(owner.organizationId), { compactLogo: "https://cdn.example.com/c.png" });
    const res = await patchOwn(owner, { compactLogo: "", themePrimaryColor: "#112233" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ compactLogo: null, themePrimaryColor: "#112233" });
  });

  it("without configured plans any organization may upload logos", async () => {
    const owner = await seedOwner();
    const res = await patchOwn(owner, { compactLogo: png() });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await stored(owner.organizationId)).toHaveLength(1);
  });

  it("with configured plans, 403 on a plan without logo uploads, a detail saying so; nothing is stored", async () => {
    const owner = await seedOwner();
    await setPlan(owner.organizationId, "free");
    const before = await row(owner.organizationId);
    const body = await expectDenied(await patchOwn(owner, { compactLogo: png() }, CONFIGURED_PLANS));
    expect(body.detail).toMatch(/Free plan/);
    expect(await row(owner.organizationId)).toEqual(before);
    expect(await stored(owner.organizationId)).toHaveLength(0);
    await setPlan(owner.organizationId, "enterprise");
    expect((await patchOwn(owner, { compactLogo: png() }, CONFIGURED_PLANS)).status).toBe(200);
  });

  it("400 naming the field for a file that is not PNG, JPEG or GIF, and nothing is stored", async () => {
    const owner = await enterpriseOwner();
    const before = await row(owner.organizationId);
    const res = await patchOwn(owner, {
      compactLogo: png(),
      fullLogo: new File(["<svg/>"], "a.svg", { type: "image/svg+xml" }),
    });
    await expectInvalid(res, "fullLogo");
    expect(await row(owner.organizationId)).toEqual(before);
    expect(await stored(owner.organizationId)).toHaveLength(0);
    await expectInvalid(
      await owner.fetch("PUT", path(owner.organizationId), form({ themePrimaryColor: "#000" })),
      "name",
    );
  });

  it("the deployment's allowed-file-specs bound logos too (ALLOWED_FILE_SPECS)", async () => {
    const owner = await enterpriseOwner();
    const settings = {
      ALLOWED_FILE_SPECS: JSON.stringify({
        organization: { compact_logo: { max_size: 8, content_types: ["image/png"] } },
      }),
    };
    await expectError(await patchOwn(owner, { compactLogo: png() }, settings), 413, "payload_too_large");
    const gif = await expectError(
      await patchOwn(owner, { compactLogo: png("a.gif", "image/gif") }, settings),
      400,
      "invalid",
    );
    expect(gif.errors!.compactLogo[0]).toContain("image/png");
    expect(await stored(owner.organizationId)).toHaveLength(0);
  });

  it("413 for a logo over 5 MiB, and nothing is stored", async () => {
    const owner = await enterpriseOwner();
    const big = new File([new Uint8Array(5_242_881)], "big.gif", { type: "image/gif" });
    await expectError(await patchOwn(owner, { fullLogo: big }), 413, "payload_too_large");
    expect(await stored(owner.organizationId)).toHaveLength(0);
    const exact = new File([new Uint8Array(5_242_880)], "max.gif", { type: "image/gif" });
    expect((await patchOwn(owner, { fullLogo: exact })).status).toBe(200);
  });

  it("403 without organization.manage, 404 for another organization", async () => {
    const owner = await enterpriseOwner();
    const member = await seedMember(owner, []);
    const logo = () => form({ compactLogo: png() });
    await expectDenied(await member.fetch("PATCH", path(owner.organizationId), logo()));
    const stranger = await enterpriseOwner();
    await expectNotFound(await stranger.fetch("PATCH", path(owner.organizationId), logo()));
    expect(await stored(owner.organizationId)).toHaveLength(0);
  });
});
