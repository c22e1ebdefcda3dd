// usedUploadFileSizeTotal is what the organization's uploads store now (docs/decisions.md, "Plans"): up with each
// upload, down with each way a stored file goes.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { cleanupUploads } from "../../../src/services/uploads/cleanup";
import { seedOwner } from "../../harness";
import { bodyOf } from "../../support/api";
import { objectsUnder, SMALL, text, uploadRowsOf, uploadUsage, used } from "../../support/upload-bytes";
import { createKnowledgeBase, uploadFiles } from "../../fixtures/knowledge";
import { PNG, postForm, presign, uploadKey } from "../attachments/support";
import { createInbox } from "../inboxes/fixtures";
import { uploadSkill } from "../skills/support";

const DAY = 86_400_000;

describe("usedUploadFileSizeTotal: the bytes the organization's uploads store now", () => {
  it("an upload counts once arrived; deleting its attachment, or sweeping it unattached, frees it", async () => {
    const owner = await seedOwner();
    expect(await uploadUsage(owner)).toEqual({ used: 0, available: 1_000 });
    // Presigned: nothing stored until the bytes arrive.
    const p = await presign(owner, { filename: "a.txt", modelName: "attachment", fieldName: "file", fileSize: 300 });
    expect(await used(owner)).toBe(0);
    const up = await postForm(p.url, p.fields, { filename: "a.txt", bytes: text(300) });
    expect(up.status, await up.clone().text()).toBe(204);
    expect(await used(owner)).toBe(300);
    // Its attachment is the same bytes.
    const created = await owner.fetch("POST", "/attachments/", { file: p.fields.key, filename: "a.txt" });
    expect(created.status, await created.clone().text()).toBe(201);
    expect(await used(owner)).toBe(300);
    const { id } = await bodyOf<"POST /attachments/">(created);
    expect((await owner.fetch("DELETE", `/attachments/${id}/`)).status).toBe(204);
    expect(await used(owner)).toBe(0);
    expect(await env.FILES.head(p.fields.key)).toBeNull();
    // A direct upload never attached: the scheduled sweep removes it once expired.
    const form = new FormData();
    form.append("file", new File([PNG], "cat.png", { type: "image/png" }));
    expect((await owner.fetch("POST", "/attachments-upload/", form)).status).toBe(200);
    expect(await used(owner)).toBe(PNG.length);
    await cleanupUploads(env, Date.now() + 2 * DAY);
    expect(await used(owner)).toBe(0);
    expect(await objectsUnder(`uploads/${owner.organizationId}/`)).toEqual([]);
  });

  const KB_FILES =
    "a knowledge base file counts while stored: one made from an upload takes the upload's place; deleting the " +
    "file or its knowledge base frees it";
  it(KB_FILES, async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const [sent] = await uploadFiles(owner, kb.id, [{ name: "policy.txt", content: "Refunds within 14 days." }]);
    expect(await used(owner)).toBe(23);
    const key = await uploadKey(owner, "notes.txt", text(200), "text/plain", undefined, {
      model_name: "knowledge-base-file",
      field_name: "file",
    });
    expect(await used(owner)).toBe(223);
    const res = await owner.fetch("POST", `/knowledge-bases/${kb.id}/files/`, {
      files: [{ file: key, filename: "notes.txt" }],
    });
    expect(res.status, await res.clone().text()).toBe(201);
    // Counted once: the upload is gone, its bytes are the file's.
    expect(await used(owner)).toBe(223);
    expect(await env.FILES.head(key)).toBeNull();
    expect(await uploadRowsOf(owner.organizationId)).toEqual([]);
    expect((await owner.fetch("DELETE", `/knowledge-bases/${kb.id}/files/${sent.id}/`)).status).toBe(204);
    expect(await used(owner)).toBe(200);
    expect((await owner.fetch("DELETE", `/knowledge-bases/${kb.id}/`)).status).toBe(204);
    expect(await used(owner)).toBe(0);
  });

  it("a web chat image counts once published; replacing or clearing it, or deleting its inbox, frees it", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const id = inbox.channel!.id;
    const image = (field = "avatar") =>
      uploadKey(owner, `${field}.png`, PNG, "image/png", undefined, { model_name: "web-chat", field_name: field });
    const patch = async (body: Record<string, unknown>) => {
      const res = await owner.fetch("PATCH", `/web-chats/${id}/`, body);
      expect(res.status, await res.clone().text()).toBe(200);
    };
    await patch({ avatar: await image() });
    // The private upload gave way to the public copy: counted once.
    expect(await used(owner)).toBe(PNG.length);
    await patch({ avatar: await image() });
    expect(await used(owner)).toBe(PNG.length);
    expect(await objectsUnder(`public/web-chats/${id}/`)).toHaveLength(1);
    await patch({ avatar: "https://cdn.example.com/a.png" });
    expect(await used(owner)).toBe(0);
    await patch({ logo: await image("logo") });
    expect(await used(owner)).toBe(PNG.length);
    expect((await owner.fetch("DELETE", `/inboxes/${inbox.id}/`)).status).toBe(204);
    expect(await used(owner)).toBe(0);
    expect(await objectsUnder(`public/web-chats/${id}/`)).toEqual([]);
  });

  it("a logo counts while shown; replacing or clearing it frees it and removes its file", async () => {
    const owner = await seedOwner();
    const logo = (bytes: Uint8Array) => {
      const form = new FormData();
      form.append("compactLogo", new File([bytes], "logo.png", { type: "image/png" }));
      return form;
    };
    const path = `/organizations/${owner.organizationId}/`;
    expect((await owner.fetch("PATCH", path, logo(PNG), { settings: SMALL })).status).toBe(200);
    expect(await used(owner)).toBe(PNG.length);
    expect((await owner.fetch("PATCH", path, logo(PNG.slice(0, 50)), { settings: SMALL })).status).toBe(200);
    expect(await used(owner)).toBe(50);
    expect(await objectsUnder(`public/organizations/${owner.organizationId}/`)).toHaveLength(1);
    expect((await owner.fetch("PATCH", path, { compactLogo: null })).status).toBe(200);
    expect(await used(owner)).toBe(0);
    expect(await objectsUnder(`public/organizations/${owner.organizationId}/`)).toEqual([]);
  });

  const TWO_LOGOS =
    "two logo updates checked at one moment cannot both take the last room: one is 403, its file removed";
  it(TWO_LOGOS, async () => {
    const owner = await seedOwner();
    const path = `/organizations/${owner.organizationId}/`;
    const logo = (field: string) => {
      const form = new FormData();
      form.append(field, new File([PNG, new Uint8Array(600 - PNG.length)], "logo.png", { type: "image/png" }));
      return owner.fetch("PATCH", path, form, { settings: SMALL });
    };
    const answers = await Promise.all([logo("compactLogo"), logo("fullLogo")]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403]);
    expect(await used(owner)).toBe(600);
    expect(await objectsUnder(`public/organizations/${owner.organizationId}/`)).toHaveLength(1);
    const shown = await bodyOf<"GET /organizations/{id}/">(await owner.fetch("GET", path));
    const field = shown.compactLogo ? "compactLogo" : "fullLogo";
    expect(shown[field === "compactLogo" ? "fullLogo" : "compactLogo"]).toBeNull();
    // The logo a new one replaces leaves its room to it.
    expect((await logo(field)).status).toBe(200);
    expect(await used(owner)).toBe(600);
    expect(await objectsUnder(`public/organizations/${owner.organizationId}/`)).toHaveLength(1);
  });

  it("a skill's package counts until the skill is deleted; another organization's uploads are its own", async () => {
    const owner = await seedOwner();
    const skill = await uploadSkill(owner, "expenses");
    const [object] = await env.FILES.list({ prefix: `skills/${owner.organizationId}/${skill.id}/package/` }).then(
      (page) => page.objects,
    );
    expect(await used(owner)).toBe(object.size);
    expect(await used(await seedOwner())).toBe(0);
    expect((await owner.fetch("DELETE", `/skills/${skill.id}/`)).status).toBe(204);
    expect(await used(owner)).toBe(0);
  });
});
