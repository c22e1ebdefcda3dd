import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { uploads, webChats } from "../../../src/db/schema";
import { organizationOfKey } from "../../../src/services/uploads/store";
import { PREFIXES, data, db, expectError, seedMember, seedOwner } from "../../harness";
import { expectDenied, expectNotFound, expectInvalid } from "../../support/refusals";
import { PNG, postForm, presign } from "../attachments/support";
import { createInbox, seedBareWebInbox } from "../inboxes/fixtures";
import { storedWebChat, uploadImage } from "./fixtures";
import { bodyOf } from "../../support/api";

/** An upload's row, in the data plane of the organization its key names. */
const uploadRow = async (key: string) =>
  (await (await data(organizationOfKey(key)!)).select().from(uploads).where(eq(uploads.key, key)))[0];

describe("web chat images through the upload flow", () => {
  it.each(PREFIXES)(
    "PATCH with an uploaded key stores the image publicly and the URL in the record (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      const inbox = await createInbox(owner);
      const id = inbox.channel!.id;
      const avatar = await uploadImage(owner, "avatar");
      const logo = await uploadImage(owner, "logo", "logo.png");
      const res = await owner.fetch("PATCH", `/web-chats/${id}/`, { avatar, logo }, { prefix });
      expect(res.status, await res.clone().text()).toBe(200);
      const chat = await bodyOf<"PATCH /web-chats/{id}/">(res);
      expect(chat.avatar).toMatch(
        new RegExp(`^http://localhost/api/v1/files/public/web-chats/${id}/[0-9a-f-]{36}-avatar\\.png$`),
      );
      expect(chat.logo).toMatch(/-logo\.png$/);
      // Served without a key (the widget's visitors are anonymous), with the image's type.
      const got = await SELF.fetch(chat.avatar!);
      expect(got.status).toBe(200);
      expect(got.headers.get("Content-Type")).toBe("image/png");
      expect(new Uint8Array(await got.arrayBuffer())).toEqual(PNG);
      // The upload was consumed: its row and private object are gone.
      expect(await uploadRow(avatar)).toBeUndefined();
      expect(await env.FILES.head(avatar)).toBeNull();
      // Saving the record again (as the designer does, whole) keeps the stored URLs.
      const again = await bodyOf<"PATCH /web-chats/{id}/">(
        await owner.fetch("PATCH", `/web-chats/${id}/`, { avatar: chat.avatar, logo: chat.logo }),
      );
      expect([again.avatar, again.logo]).toEqual([chat.avatar, chat.logo]);
    },
  );

  it("a replaced or cleared image's public file is removed; one another field still shows is kept", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const id = inbox.channel!.id;
    const published = async () =>
      (await env.FILES.list({ prefix: `public/web-chats/${id}/` })).objects.map((o) => o.key).sort();
    const objectOf = (url: string) => `public/${url.slice(url.indexOf("web-chats/"))}`;
    const first = await bodyOf<"PATCH /web-chats/{id}/">(
      await owner.fetch("PATCH", `/web-chats/${id}/`, { avatar: await uploadImage(owner, "avatar") }),
    );
    // The logo shows the avatar's file too: replacing the avatar keeps that file.
    await owner.fetch("PATCH", `/web-chats/${id}/`, { logo: first.avatar });
    const second = await bodyOf<"PATCH /web-chats/{id}/">(
      await owner.fetch("PATCH", `/web-chats/${id}/`, { avatar: await uploadImage(owner, "avatar", "new.png") }),
    );
    expect(second.logo).toBe(first.avatar);
    expect(await published()).toEqual([objectOf(first.avatar!), objectOf(second.avatar!)].sort());
    // Cleared, the logo's (the first avatar's) file goes; the new avatar stays.
    const res = await owner.fetch("PATCH", `/web-chats/${id}/`, { logo: null });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await published()).toEqual([objectOf(second.avatar!)]);
    // An image of another web chat, given by URL and then replaced, is not this one's to remove.
    const other = await createInbox(owner);
    const theirs = await bodyOf<"PATCH /web-chats/{id}/">(
      await owner.fetch("PATCH", `/web-chats/${other.channel!.id}/`, { avatar: await uploadImage(owner, "avatar") }),
    );
    await owner.fetch("PATCH", `/web-chats/${id}/`, { logo: theirs.avatar });
    await owner.fetch("PATCH", `/web-chats/${id}/`, { logo: null });
    expect((await SELF.fetch(theirs.avatar!)).status).toBe(200);
    // Deleting an inbox removes its web chat's files.
    expect((await owner.fetch("DELETE", `/inboxes/${inbox.id}/`)).status).toBe(204);
    expect(await published()).toEqual([]);
    expect((await SELF.fetch(theirs.avatar!)).status).toBe(200);
  });

  it("an upload an attachment was made of stays with the attachment once published as an image", async () => {
    // Attachments take any upload of the organization, web-chat ones included: publishing must not delete its object.
    const owner = await seedOwner();
    const id = (await createInbox(owner)).channel!.id;
    const avatar = await uploadImage(owner, "avatar");
    const att = await owner.fetch("POST", "/attachments/", { file: avatar, filename: "avatar.png" });
    expect(att.status, await att.clone().text()).toBe(201);
    const { id: attachmentId } = await bodyOf<"POST /attachments/">(att);
    const patch = await owner.fetch("PATCH", `/web-chats/${id}/`, { avatar });
    expect(patch.status, await patch.clone().text()).toBe(200);
    expect((await SELF.fetch((await bodyOf<"PATCH /web-chats/{id}/">(patch)).avatar!)).status).toBe(200);
    const record = await bodyOf<"GET /attachments/{id}/">(await owner.fetch("GET", `/attachments/${attachmentId}/`));
    const download = await SELF.fetch(record.file);
    expect(download.status, "the attachment's object was deleted by the web chat write").toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(PNG);
    expect(await uploadRow(avatar)).toBeDefined();
  });

  it("POST /web-chats/ takes an uploaded avatar too", async () => {
    const owner = await seedOwner();
    const inbox = await seedBareWebInbox(owner);
    const avatar = await uploadImage(owner, "avatar");
    const res = await owner.fetch("POST", "/web-chats/", { inbox: { id: inbox.id }, avatar });
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await bodyOf<"POST /web-chats/">(res)).avatar).toContain("/api/v1/files/public/web-chats/");
  });

  it("400 at the field for a key not a web-chat upload of this field or organization; nothing written", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const id = inbox.channel!.id;
    const logoKey = await uploadImage(owner, "logo", "logo.png");
    const theirs = await uploadImage(await seedOwner(), "avatar");
    const attachment = await presign(owner, {
      modelName: "attachment",
      fieldName: "file",
      filename: "a.png",
      fileSize: PNG.length,
    });
    await postForm(attachment.url, attachment.fields, { filename: "a.png", bytes: PNG });
    for (const [body, field] of [
      [{ avatar: logoKey }, "avatar"],
      [{ avatar: theirs }, "avatar"],
      [{ logo: attachment.fields.key }, "logo"],
      [{ logo: "uploads/nothing-here.png" }, "logo"],
      [{ avatar: "javascript:alert(1)" }, "avatar"],
      [{ logo: "https://cdn example.com/l.png" }, "logo"],
    ] as const) {
      await expectInvalid(await owner.fetch("PATCH", `/web-chats/${id}/`, body), field);
    }
    expect((await storedWebChat(id)).settings.avatar).toBeUndefined();
    expect(await uploadRow(logoKey)).toBeDefined();
    expect((await env.FILES.list({ prefix: `public/web-chats/${id}/` })).objects).toEqual([]);
  });

  it("409 for a custom domain another web chat serves: no published copy of its image is left behind", async () => {
    const owner = await seedOwner();
    const domain = `chat-${crypto.randomUUID().slice(0, 8)}.example.com`;
    // Another organization's web chat serves the domain (its claim verified).
    const other = await seedOwner();
    const theirs = (await createInbox(other)).channel!.id;
    await other.fetch("PATCH", `/web-chats/${theirs}/`, { customDomain: { domain } });
    await db()
      .update(webChats)
      .set({ settings: sql`json_set(${webChats.settings}, '$.customDomain.status', 'active')` })
      .where(eq(webChats.id, theirs));
    const id = (await createInbox(owner)).channel!.id;
    const avatar = await uploadImage(owner, "avatar");
    const res = await owner.fetch("PATCH", `/web-chats/${id}/`, { avatar, customDomain: { domain } });
    expect(res.status, await res.clone().text()).toBe(409);
    // The image was copied under public/web-chats/<id>/ before the domain was checked, and stayed there, served to
    // anyone, with no upload row counting its bytes (the web chat showing no avatar).
    expect((await env.FILES.list({ prefix: `public/web-chats/${id}/` })).objects).toEqual([]);
    expect((await storedWebChat(id)).settings.avatar).toBeUndefined();
    expect(await uploadRow(avatar)).toBeDefined();
  });

  it("403 for a member without inbox.manage: the upload is refused and the write too", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const avatar = await uploadImage(owner, "avatar");
    const viewer = await seedMember(owner, ["inbox.view"]);
    await expectError(
      await viewer.fetch("POST", "/upload-presigned-url/", {
        modelName: "web-chat",
        fieldName: "avatar",
        filename: "a.png",
        fileSize: PNG.length,
      }),
      403,
      "permission_denied",
    );
    await expectDenied(await viewer.fetch("PATCH", `/web-chats/${inbox.channel!.id}/`, { avatar }));
    expect(await uploadRow(avatar)).toBeDefined();
  });

  it("404 for another organization's web chat, even with the caller's own upload", async () => {
    const owner = await seedOwner();
    const theirs = await createInbox(await seedOwner());
    const avatar = await uploadImage(owner, "avatar");
    await expectNotFound(await owner.fetch("PATCH", `/web-chats/${theirs.channel!.id}/`, { avatar }));
    expect(await uploadRow(avatar)).toBeDefined();
  });
});
