// A plan's upload bytes are enforced (docs/decisions.md, "Plans"): an upload that would take the organization past
// them is 403 `permission_denied` naming the plan and the numbers, before anything is stored, at every way in.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type Actor, data, expectError, fetchWithSettings, seedOwner } from "../../harness";
import { messagesWhen, nthIs, onlyConversation } from "../../channels/support";
import { telegram, telegramInbox, textUpdate, updateThroughConsumer } from "../../channels/telegram-support";
import { bodyOf } from "../../support/api";
import { objectsUnder, SMALL, text, uploadRowsOf, used } from "../../support/upload-bytes";
import { createKnowledgeBase } from "../../fixtures/knowledge";
import { PNG, postForm, presign, requestsMultipart, uploadKey } from "./support";
import { createInbox } from "../inboxes/fixtures";
import { skillMd, uploadForm, zip } from "../skills/support";
import { uploads } from "../../../src/db/schema";
import { eq, sql } from "drizzle-orm";

const PLAN_DETAIL = /^The Small plan stores up to 1,000 bytes of uploads; [\d,]+ are stored and this /;

const presignText = (owner: Actor, fileSize: number, settings = SMALL) =>
  owner.fetch(
    "POST",
    "/upload-presigned-url/",
    { filename: "a.txt", modelName: "attachment", fieldName: "file", fileSize },
    { settings },
  );

/** A direct upload of `bytes` as a file, with its Content-Length, or streamed without one when `chunked`. */
function directUpload(owner: Actor, bytes: Uint8Array, chunked = false) {
  const { body, contentType } = requestsMultipart({}, { filename: "a.txt", bytes, contentType: "text/plain" });
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(body);
      c.close();
    },
  });
  const request = new Request("http://localhost/api/v1/attachments-upload/", {
    method: "POST",
    body: chunked ? stream : body,
    headers: {
      "Content-Type": contentType,
      Authorization: `Api-Key ${owner.key}`,
      // Called as the worker's own fetch, not through the runtime: the length is said as a client says it.
      ...(chunked ? {} : { "Content-Length": String(body.length) }),
    },
  });
  return fetchWithSettings(request, SMALL);
}

/**
 * A direct upload without Content-Length whose body stops after its first bytes of file until `release()`:
 * `writing` resolves once the service reads on past them (it has checked the room and is storing the file).
 */
function heldUpload(owner: Actor, bytes: Uint8Array) {
  const { body, contentType } = requestsMultipart({}, { filename: "a.txt", bytes, contentType: "text/plain" });
  const closing = `\r\n--${contentType.split("boundary=")[1]}--\r\n`.length;
  const cut = body.length - closing - bytes.length + 100;
  let reading: () => void = () => {};
  let release: () => void = () => {};
  const writing = new Promise<void>((resolve) => (reading = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(c) {
        if (sent === 0) c.enqueue(body.slice(0, cut));
        else {
          reading();
          await released;
          c.enqueue(body.slice(cut));
          c.close();
        }
        sent++;
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request("http://localhost/api/v1/attachments-upload/", {
    method: "POST",
    body: stream,
    headers: { "Content-Type": contentType, Authorization: `Api-Key ${owner.key}` },
  });
  return { answer: fetchWithSettings(request, SMALL), writing, release };
}

/** The plan of 1,000 bytes, with R2's credentials: presigned PUTs go to R2 itself. */
const R2_PUT = { ...SMALL, R2_ACCOUNT_ID: "acc123", R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: "secret" };

const uploadRow = async (owner: Actor, key: string) =>
  (await (await data(owner.organizationId)).select().from(uploads).where(eq(uploads.key, key)))[0];

describe("a plan's upload bytes", () => {
  it("presigning past them is 403 naming plan and numbers, no upload written; without plans, signed", async () => {
    const owner = await seedOwner();
    const err = await expectError(await presignText(owner, 1_001), 403, "permission_denied");
    expect(err.detail).toBe(
      "The Small plan stores up to 1,000 bytes of uploads; 0 are stored and this upload adds 1,001. " +
        "Delete files to make room, or move to another plan.",
    );
    expect(await uploadRowsOf(owner.organizationId)).toEqual([]);
    expect((await presignText(owner, 1_000)).status).toBe(200);
    // The same on a deployment without plans: nothing limits it.
    expect((await presignText(owner, 5_000, {})).status).toBe(200);
  });

  const POST_TARGET =
    "the POST target refuses bytes past them before storing any; a file that fits passes, and again once a delete " +
    "makes room";
  it(POST_TARGET, async () => {
    const owner = await seedOwner();
    // Both fit when signed; the second does not once the first is stored.
    const first = await presign(
      owner,
      { filename: "a.txt", modelName: "attachment", fieldName: "file", fileSize: 600 },
      { settings: SMALL },
    );
    const second = await presign(
      owner,
      { filename: "b.txt", modelName: "attachment", fieldName: "file", fileSize: 600 },
      { settings: SMALL },
    );
    const post = (p: typeof first) => postForm(p.url, p.fields, { filename: "a.txt", bytes: text(600) }, {}, SMALL);
    expect((await post(first)).status).toBe(204);
    const err = await expectError(await post(second), 403, "permission_denied");
    expect(err.detail).toMatch(PLAN_DETAIL);
    expect(err.detail).toContain("600 are stored and this file is larger than the 400 left");
    expect(await env.FILES.head(second.fields.key)).toBeNull();
    expect((await uploadRow(owner, second.fields.key)).uploadedAt).toBeNull();
    expect(await used(owner)).toBe(600);
    // The first attached, then deleted: its bytes are free, the second goes through.
    const attached = await owner.fetch("POST", "/attachments/", { file: first.fields.key, filename: "a.txt" });
    const { id } = await bodyOf<"POST /attachments/">(attached);
    expect((await owner.fetch("DELETE", `/attachments/${id}/`)).status).toBe(204);
    expect((await post(second)).status).toBe(204);
    expect(await used(owner)).toBe(600);
  });

  it("the PUT target refuses bytes past them before storing any", async () => {
    const owner = await seedOwner();
    const settings = { ...SMALL, PRESIGNED_UPLOAD_METHOD: "PUT" };
    const signed = await Promise.all(
      ["a.txt", "b.txt"].map((filename) =>
        presign(owner, { filename, modelName: "attachment", fieldName: "file", fileSize: 600 }, { settings }),
      ),
    );
    const put = (p: (typeof signed)[number]) =>
      fetchWithSettings(
        // Called as the worker's own fetch, not through the runtime: the length is said as a client says it.
        new Request(p.url, { method: "PUT", body: text(600), headers: { ...p.headers, "Content-Length": "600" } }),
        settings,
      );
    expect((await put(signed[0])).status).toBe(200);
    await expectError(await put(signed[1]), 403, "permission_denied");
    expect(await env.FILES.head(signed[1].fields.key)).toBeNull();
    expect(await used(owner)).toBe(600);
  });

  it("a direct upload past them is 403, nothing stored, streamed or not; one that fits exactly passes", async () => {
    const owner = await seedOwner();
    expect((await directUpload(owner, text(900))).status).toBe(200);
    for (const chunked of [false, true]) {
      const err = await expectError(await directUpload(owner, text(200), chunked), 403, "permission_denied");
      expect(err.detail).toMatch(PLAN_DETAIL);
    }
    expect(await objectsUnder(`uploads/${owner.organizationId}/`)).toHaveLength(1);
    expect(await uploadRowsOf(owner.organizationId)).toHaveLength(1);
    expect((await directUpload(owner, text(100), true)).status).toBe(200);
    expect(await used(owner)).toBe(1_000);
  });

  const TOGETHER =
    "two uploads that passed their checks at one moment cannot both take the last room: the one that arrives " +
    "second is 403, its object removed and no row left";
  it(TOGETHER, async () => {
    const owner = await seedOwner();
    const held = heldUpload(owner, text(600));
    await held.writing;
    // The first has been measured against the room (none used) and is writing; the second fits as well and lands.
    expect((await directUpload(owner, text(600))).status).toBe(200);
    held.release();
    const err = await expectError(await held.answer, 403, "permission_denied");
    expect(err.detail).toBe(
      "The Small plan stores up to 1,000 bytes of uploads; 600 are stored and this upload adds 600. " +
        "Delete files to make room, or move to another plan.",
    );
    expect(await objectsUnder(`uploads/${owner.organizationId}/`)).toHaveLength(1);
    expect(await uploadRowsOf(owner.organizationId)).toHaveLength(1);
    expect(await used(owner)).toBe(600);
  });

  const R2_DIRECT =
    "bytes put straight into R2 are counted when an attachment first names them: past the room 403, the object " +
    "removed; within it the attachment is made and its bytes count";
  it(R2_DIRECT, async () => {
    const owner = await seedOwner();
    const settings = { ...R2_PUT, PRESIGNED_UPLOAD_METHOD: "PUT" };
    const [small, large] = await Promise.all(
      ["a.txt", "b.txt"].map((filename) =>
        presign(owner, { filename, modelName: "attachment", fieldName: "file", fileSize: 500 }, { settings }),
      ),
    );
    expect(new URL(large.url).origin).toBe("https://acc123.r2.cloudflarestorage.com");
    // R2 checks the signature, not the length: what arrives there is only known once it is named.
    await env.FILES.put(small.fields.key, text(400));
    await env.FILES.put(large.fields.key, text(700));
    const attach = (key: string) =>
      owner.fetch("POST", "/attachments/", { file: key, filename: "a.txt" }, { settings });
    expect((await attach(small.fields.key)).status).toBe(201);
    const err = await expectError(await attach(large.fields.key), 403, "permission_denied");
    expect(err.detail).toBe(
      "The Small plan stores up to 1,000 bytes of uploads; 400 are stored and this upload adds 700. " +
        "Delete files to make room, or move to another plan.",
    );
    expect(await env.FILES.head(large.fields.key)).toBeNull();
    expect(await used(owner)).toBe(400);
  });

  it("a web chat image put straight into R2 past them is 403 when named, nothing published", async () => {
    const owner = await seedOwner();
    const id = (await createInbox(owner)).channel!.id;
    const signed = await presign(
      owner,
      { filename: "avatar.png", modelName: "web-chat", fieldName: "avatar", fileSize: PNG.length },
      { settings: { ...R2_PUT, PRESIGNED_UPLOAD_METHOD: "PUT" } },
    );
    // Signed while there was room; another file takes it before the image is named.
    expect((await directUpload(owner, text(1_000 - PNG.length + 1))).status).toBe(200);
    await env.FILES.put(signed.fields.key, PNG, { httpMetadata: { contentType: "image/png" } });
    const patch = await owner.fetch("PATCH", `/web-chats/${id}/`, { avatar: signed.fields.key }, { settings: R2_PUT });
    expect((await expectError(patch, 403, "permission_denied")).detail).toMatch(PLAN_DETAIL);
    expect(await env.FILES.head(signed.fields.key)).toBeNull();
    expect(await objectsUnder(`public/web-chats/${id}/`)).toEqual([]);
    expect(await used(owner)).toBe(1_000 - PNG.length + 1);
  });

  const OTHERS =
    "knowledge base files, logos and skill packages past them are 403 with nothing stored; a file made from an " +
    "upload takes its place";
  it(OTHERS, async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const files = `/knowledge-bases/${kb.id}/files/`;
    const form = new FormData();
    form.append("file", new File([text(1_001)], "big.txt", { type: "text/plain" }));
    const err = await expectError(
      await owner.fetch("POST", files, form, { settings: SMALL }),
      403,
      "permission_denied",
    );
    expect(err.detail).toMatch(PLAN_DETAIL);
    expect(await objectsUnder(`knowledge-bases/${kb.id}/`)).toEqual([]);
    expect((await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/files/">(await owner.fetch("GET", files))).count).toBe(
      0,
    );
    // 950 bytes uploaded, then made a file: the upload gives its place to the file.
    const key = await uploadKey(owner, "notes.txt", text(950), "text/plain", SMALL, {
      model_name: "knowledge-base-file",
      field_name: "file",
    });
    const made = await owner.fetch(
      "POST",
      files,
      { files: [{ file: key, filename: "notes.txt" }] },
      { settings: SMALL },
    );
    expect(made.status, await made.clone().text()).toBe(201);
    expect(await used(owner)).toBe(950);

    const logo = new FormData();
    logo.append("compactLogo", new File([text(60)], "logo.png", { type: "image/png" }));
    const path = `/organizations/${owner.organizationId}/`;
    await expectError(await owner.fetch("PATCH", path, logo, { settings: SMALL }), 403, "permission_denied");
    expect(await objectsUnder(`public/organizations/${owner.organizationId}/`)).toEqual([]);

    const skill = zip({ "SKILL.md": skillMd("name: expenses\ndescription: Files an expense report") });
    await expectError(
      await owner.fetch("POST", "/skills/upload/", uploadForm(skill), { settings: SMALL }),
      403,
      "permission_denied",
    );
    expect(await objectsUnder(`skills/${owner.organizationId}/`)).toEqual([]);
    // The organization's own (global skills other tests made are listed too).
    const listed = (await bodyOf<"GET /skills/">(await owner.fetch("GET", "/skills/"))).results;
    expect(listed.filter((skill) => skill.createdBy?.name !== "System")).toEqual([]);
    expect(await used(owner)).toBe(950);
  });

  const FILES_TOGETHER =
    "two knowledge base files sent at once cannot both take the last room: one is 403, its object removed and no " +
    "row left";
  it(FILES_TOGETHER, async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const files = `/knowledge-bases/${kb.id}/files/`;
    const form = (name: string) => {
      const f = new FormData();
      f.append("file", new File([text(600)], name, { type: "text/plain" }));
      return f;
    };
    // 600 bytes each: either fits the plan's 1,000 alone, not both.
    const answers = await Promise.all([
      owner.fetch("POST", files, form("a.txt"), { settings: SMALL }),
      owner.fetch("POST", files, form("b.txt"), { settings: SMALL }),
    ]);
    const refused = answers.find((r) => r.status === 403);
    if (refused) expect((await expectError(refused, 403, "permission_denied")).detail).toMatch(PLAN_DETAIL);
    const listed = await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/files/">(await owner.fetch("GET", files));
    expect({
      statuses: answers.map((r) => r.status).sort(),
      files: listed.count,
      objects: (await objectsUnder(`knowledge-bases/${kb.id}/`)).length,
      used: await used(owner),
    }).toEqual({ statuses: [201, 403], files: 1, objects: 1, used: 600 });
  });

  it("two skill packages sent at once cannot both take the last room: one is 403, nothing of it stored", async () => {
    const owner = await seedOwner();
    // Random bytes do not compress: each package is over 500 bytes, so either fits the plan's 1,000 alone, not both.
    const pkg = (name: string) =>
      zip({
        "SKILL.md": skillMd(`name: ${name}\ndescription: Files an expense report`),
        "reference/noise.bin": crypto.getRandomValues(new Uint8Array(480)),
      });
    const packages = [pkg("expenses"), pkg("invoices")];
    expect(packages.every((p) => p.length > 500 && p.length < 1_000)).toBe(true);
    const answers = await Promise.all(
      packages.map((p) => owner.fetch("POST", "/skills/upload/", uploadForm(p), { settings: SMALL })),
    );
    const refused = answers.find((r) => r.status === 403);
    if (refused) expect((await expectError(refused, 403, "permission_denied")).detail).toMatch(PLAN_DETAIL);
    const kept = answers.findIndex((r) => r.status === 201);
    const listed = (await bodyOf<"GET /skills/">(await owner.fetch("GET", "/skills/"))).results;
    const objects = await objectsUnder(`skills/${owner.organizationId}/`);
    expect({
      statuses: answers.map((r) => r.status).sort(),
      skills: listed.filter((skill) => skill.createdBy?.name !== "System").length,
      // The kept skill's package and its resource.
      objects: objects.length,
      used: await used(owner),
    }).toEqual({ statuses: [201, 403], skills: 1, objects: 2, used: packages[kept]?.length });
  });
});

describe("a plan's upload bytes and a channel's media", () => {
  /** A Telegram photo in through the webhook and the channel consumer, on the plan of 1,000 bytes. */
  async function photoIn(token: string, path: string, caption: string) {
    const base = textUpdate("", { id: 99887766, first_name: "Kenji", last_name: "", username: "kenji" });
    const { text: _text, ...message } = base.message;
    const update = {
      ...base,
      message: { ...message, caption, photo: [{ file_id: "large", width: 800, height: 800 }] },
    };
    await updateThroughConsumer(token, path, update, SMALL);
  }

  it("media past them are not kept, which the message says; media that fit are kept and counted", async () => {
    const { owner, token, inbox } = await telegramInbox();
    const filled = await directUpload(owner, text(950));
    expect(filled.status).toBe(200);
    await photoIn(token, inbox.path, "My receipt");
    const conversation = await onlyConversation(owner, inbox.inboxId);
    // The reply's delivery (a queue event of the runtime's own) ends before the test runs the consumer again: the
    // test pool's isolate then holds no two channel events at once (docs/decisions.md, "In the test pool").
    const [refused] = await messagesWhen(owner, conversation.id, nthIs(1, "sent"));
    expect(refused.content).toBe("My receipt\n[image not kept: the Small plan's upload bytes are used]");
    expect(refused.attachments ?? []).toEqual([]);
    expect(await used(owner)).toBe(950);
    // The filler attached and deleted: the next photo (the stand-in's PNG of 70 bytes) is kept and counted.
    const created = await owner.fetch("POST", "/attachments/", {
      file: filled.headers.get("Location"),
      filename: "a.txt",
    });
    const { id } = await bodyOf<"POST /attachments/">(created);
    expect((await owner.fetch("DELETE", `/attachments/${id}/`)).status).toBe(204);
    await photoIn(token, inbox.path, "Another one");
    const messages = await messagesWhen(owner, conversation.id, nthIs(3, "sent"));
    expect(messages.find((m) => m.content === "Another one")?.attachments).toHaveLength(1);
    expect(await used(owner)).toBe(70);
  });

  const MEANWHILE =
    "a file that fit the room when its message came in, but not once another upload took it during the download, " +
    "is not kept: the message says so and its object is removed";
  it(MEANWHILE, async () => {
    const { owner, token, inbox } = await telegramInbox();
    expect((await directUpload(owner, text(900))).status).toBe(200);
    const download = await telegram.hold(token, `/file/bot${token}/`);
    const arriving = photoIn(token, inbox.path, "My receipt");
    await download.held;
    // The photo (70 bytes) was measured against the room (100 left) and is downloading; 80 bytes land meanwhile.
    expect((await directUpload(owner, text(80))).status).toBe(200);
    await download.release();
    await arriving;
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const [refused] = await messagesWhen(owner, conversation.id, nthIs(1, "sent"));
    expect(refused.content).toBe("My receipt\n[image not kept: the Small plan's upload bytes are used]");
    expect(refused.attachments ?? []).toEqual([]);
    expect(await used(owner)).toBe(980);
    expect(await objectsUnder(`uploads/${owner.organizationId}/`)).toHaveLength(2);
    expect(await uploadRowsOf(owner.organizationId)).toHaveLength(2);
    // Its attachment, written in the batch that counted it, was taken out there.
    const stored = await (await data(owner.organizationId)).all(
      sql`select key from attachments where organization_id = ${owner.organizationId}`,
    );
    expect(stored).toEqual([]);
  });
});
