import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { countRows, NO_SUCH_ID, call, data, expectError, seedOwner, type Actor } from "../../harness";
import { expectNotFound } from "../../support/refusals";
import { lastChunk, readEvents, storedReply, type StreamEvent } from "../../support/sse";
import { postForm, uploadKey } from "../attachments/support";
import { client, pub, seedWebChat, startSession } from "./fixtures";
import { client as d1Of } from "../../../src/db/prepared";
import { bodyOf, type Schemas } from "../../support/api";
import { objectMessages } from "../../support/object-messages";

const NOTES = new TextEncoder().encode("Order 42 ships on Monday.\n");
const ON = { enableAnonymous: true, enableFileUpload: true };

/** A visitor's send streams back like a completion, with the public record of the reply. */
type Reply = StreamEvent<Schemas["WidgetMessage"]>;

/** The rows of `from` ("table WHERE ...") in the organization's data plane. */
const count = async (organizationId: string, from: string, ...binds: unknown[]) =>
  countRows(d1Of(await data(organizationId)), from, ...binds);
/** The organization's attachments or uploads. */
const rowsOf = (organizationId: string, table: "attachments" | "uploads") =>
  count(organizationId, `${table} WHERE organization_id = ?`, organizationId);

async function presignFor(
  webChatId: string,
  token: string,
  body: Record<string, unknown> = { filename: "notes.txt", fileSize: NOTES.length },
  prefix = "/api/v1",
) {
  const res = await client().post(pub(webChatId, "uploads/").replace("/api/v1", prefix), body, token);
  expect(res.status, await res.clone().text()).toBe(200);
  return bodyOf<"POST /web-chats/{id}/public/uploads/">(res);
}

/** Presign as the visitor and upload through the returned POST policy (fields, then the file); the key. */
async function visitorUpload(webChatId: string, token: string, filename = "notes.txt", bytes = NOTES) {
  const p = await presignFor(webChatId, token, { filename, file_size: bytes.length });
  const res = await postForm(
    p.url,
    p.fields,
    { filename, bytes, contentType: "text/plain" },
    { Origin: "https://shop.example.com" },
  );
  expect(res.status, await res.clone().text()).toBe(204);
  expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
  return p.fields.key;
}

/** A visitor's message (as `token`) with `files` attached, each a key or URL of an upload and the file's name. */
const sendFiles = (
  webChatId: string,
  token: string,
  message: { conversation?: string; content: string },
  files: [file: string, filename: string][],
) =>
  client().post(
    pub(webChatId, "messages/"),
    { ...message, attachments: files.map(([file, filename]) => ({ file, filename })) },
    token,
  );

/** What a refused send must leave behind: no conversation, message or attachment of the visitor, and the uploads
 * unclaimed. */
async function expectNothingWritten(owner: Actor, contactId: string, keys: string[] = []) {
  expect(await count(owner.organizationId, "conversations WHERE contact_id = ?", contactId)).toBe(0);
  expect(await rowsOf(owner.organizationId, "attachments")).toBe(0);
  for (const key of keys) {
    expect(await count(owner.organizationId, "uploads WHERE key = ? AND claimed_at IS NULL", key)).toBe(1);
    expect(await env.FILES.head(key)).not.toBeNull();
  }
}

describe("POST /web-chats/{id}/public/uploads/ and attachments on messages", () => {
  it("presigns a visitor's file, takes it with a message, and the assistant reads it", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner, ON);
    const config = await bodyOf<"GET /web-chats/{id}/public/config/">(await client().get(pub(chat.id, "config/")));
    expect(config.enableFileUpload).toBe(true);
    const session = await startSession(chat.id);

    // Both prefixes; the key is scoped to the web chat's organization and the attachment spec.
    const viaApi = await presignFor(chat.id, session.token, { filename: "notes.txt", fileSize: NOTES.length }, "/api");
    expect(viaApi).toMatchObject({ method: "POST", url: "http://localhost/api/v1/uploads/" });
    expect(viaApi.fields.key).toMatch(
      new RegExp(`^uploads/${owner.organizationId}/attachment/[0-9a-f-]{36}/notes\\.txt$`),
    );
    expect(Object.keys(viaApi.fields)).toEqual(
      expect.arrayContaining(["key", "policy", "x-amz-algorithm", "x-amz-credential", "x-amz-date", "x-amz-signature"]),
    );
    // The browser's preflight to the upload target is answered (a PUT upload needs one).
    const pre = await call("OPTIONS", "/api/v1/uploads/", undefined, {
      Origin: "https://shop.example.com",
      "Access-Control-Request-Method": "POST",
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("Access-Control-Allow-Methods")).toContain("POST");

    const key = await visitorUpload(chat.id, session.token);
    const res = await sendFiles(chat.id, session.token, { content: "Please read my notes" }, [[key, "notes.txt"]]);
    expect(res.status, await res.clone().text()).toBe(200);
    const done = storedReply(await readEvents<Reply>(res));
    expect(done.done).toBe(true);
    expect(done.message.content).toContain("I received your attachments: notes.txt (document).");

    const rows = await d1Of(await data(owner.organizationId))
      .prepare("SELECT conversation_id, created_by, filename, extraction_status FROM attachments WHERE key = ?")
      .bind(key)
      .all();
    expect(rows.results).toEqual([
      {
        conversation_id: done.conversationId,
        created_by: `contact:${session.contact.id}`,
        filename: "notes.txt",
        extraction_status: "done",
      },
    ]);
    expect(await count(owner.organizationId, "uploads WHERE key = ? AND claimed_at IS NOT NULL", key)).toBe(1);
    // The history shows the file's name on the visitor's message (no URL, no id).
    const history = await bodyOf<"GET /web-chats/{id}/public/conversations/{conversationId}/messages/">(
      await client().get(pub(chat.id, `conversations/${done.conversationId}/messages/`), session.token),
    );
    expect(history.results.map((m) => [m.role, m.attachments])).toEqual([
      ["visitor", [{ filename: "notes.txt", type: "other" }]],
      ["assistant", []],
    ]);
    // The business sees it as the conversation's attachment through the API.
    const stored = await bodyOf<"GET /messages/">(
      await owner.fetch("GET", `/messages/?conversation=${done.conversationId}`),
    );
    expect(stored.results.find((m) => m.type === "incoming")!.attachments).toEqual([
      expect.objectContaining({ filename: "notes.txt", file: expect.stringContaining("X-Amz-Signature") }),
    ]);

    // Our own URL of the object is accepted too; a file alone (no text) is a message; sent again in
    // the same conversation it is the same attachment.
    const second = await visitorUpload(chat.id, session.token, "second.txt");
    const again = await sendFiles(chat.id, session.token, { conversation: done.conversationId, content: "" }, [
      [`http://localhost/api/v1/uploads/${second}`, "second.txt"],
      [key, "notes.txt"],
    ]);
    expect(again.status, await again.clone().text()).toBe(200);
    const next = storedReply(await readEvents<Reply>(again));
    expect(next.message.content).toContain("I received your attachments:");
    expect(next.message.content).toContain("second.txt (document)");
    expect(await rowsOf(owner.organizationId, "attachments")).toBe(2);
  });

  it("is 403 file_upload_disabled when the web chat has no enableFileUpload, and writes nothing", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    expect(
      (await bodyOf<"GET /web-chats/{id}/public/config/">(await client().get(pub(chat.id, "config/"))))
        .enableFileUpload,
    ).toBe(false);
    const session = await startSession(chat.id);
    await expectError(
      await client().post(pub(chat.id, "uploads/"), { filename: "notes.txt", fileSize: 10 }, session.token),
      403,
      "file_upload_disabled",
    );
    expect(await rowsOf(owner.organizationId, "uploads")).toBe(0);
    const staffKey = await uploadKey(owner, "notes.txt", NOTES, "text/plain");
    await expectError(
      await sendFiles(chat.id, session.token, { content: "hi" }, [[staffKey, "notes.txt"]]),
      403,
      "file_upload_disabled",
    );
    await expectNothingWritten(owner, session.contact.id, [staffKey]);
    // Without files, the web chat still answers; an empty list is no files.
    const plain = await sendFiles(chat.id, session.token, { content: "hi" }, []);
    expect(plain.status).toBe(200);
    expect(lastChunk(await readEvents<Reply>(plain)).done).toBe(true);
  });

  it("refuses files the spec does not allow before signing anything (400)", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner, ON);
    const session = await startSession(chat.id);
    const refuse = async (body: unknown, field: string) => {
      const res = await client().post(pub(chat.id, "uploads/"), body, session.token);
      const error = await expectError(res, 400);
      expect(Object.keys(error.errors ?? {})).toContain(field);
    };
    await refuse({ filename: "setup.exe", fileSize: 10 }, "filename");
    await refuse({ filename: "notes.txt", fileSize: 21 * 1024 * 1024 }, "fileSize");
    await refuse({ filename: "notes.txt", fileSize: 0 }, "fileSize"); // an empty file, as attachments-upload/ refuses
    await refuse({ filename: "notes.txt" }, "fileSize");
    await refuse({ filename: "", fileSize: 1 }, "filename");
    expect(await rowsOf(owner.organizationId, "uploads")).toBe(0);
  });

  it("refuses a filename with control characters, as every JSON filename is, before signing (400)", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner, ON);
    const session = await startSession(chat.id);
    for (const filename of ["invoice\nPAID.txt", "notes\u0000.txt", "notes\t.txt"]) {
      const res = await client().post(pub(chat.id, "uploads/"), { filename, fileSize: NOTES.length }, session.token);
      expect(Object.keys((await expectError(res, 400)).errors ?? {})).toContain("filename");
    }
    expect(await rowsOf(owner.organizationId, "uploads")).toBe(0);
  });

  it("refuses a send whose attachment filename has control characters (NUL, tab), as attachments/ does", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner, ON);
    const session = await startSession(chat.id);
    const key = await visitorUpload(chat.id, session.token);
    const res = await sendFiles(chat.id, session.token, { content: "see file" }, [[key, "notes\u0000\t.txt"]]);
    expect(Object.keys((await expectError(res, 400)).errors ?? {})).toContain("attachments.0.filename");
    await expectNothingWritten(owner, session.contact.id, [key]);
  });

  it(
    "takes only the visitor's own uploads: foreign URLs, other organizations', other visitors' and staff keys " +
      "are 400 with nothing written",
    async () => {
      const owner = await seedOwner();
      const chat = await seedWebChat(owner, ON);
      const alice = await startSession(chat.id);
      const bob = await startSession(chat.id);
      const mine = await visitorUpload(chat.id, alice.token);
      const bobs = await visitorUpload(chat.id, bob.token);
      const staff = await uploadKey(owner, "staff.txt", NOTES, "text/plain");
      const stranger = await seedOwner("stranger");
      const strangerChat = await seedWebChat(stranger, ON);
      const strangerVisitor = await startSession(strangerChat.id);
      const foreignOrg = await visitorUpload(strangerChat.id, strangerVisitor.token);
      const presignedOnly = (await presignFor(chat.id, alice.token, { filename: "never.txt", fileSize: 5 })).fields.key;

      const bad: [string, string][] = [
        ["https://files.example.com/notes.txt", "a foreign URL (never fetched)"],
        ["http://169.254.169.254/latest/meta-data/", "a private address"],
        [`https://evil.example.com/api/v1/uploads/${mine}`, "our path on another host"],
        [foreignOrg, "another organization's key"],
        [bobs, "another visitor's key"],
        [staff, "a staff member's upload"],
        [presignedOnly, "a key presigned but never uploaded"],
        [`uploads/${owner.organizationId}/attachment/${NO_SUCH_ID}/notes.txt`, "an unknown key"],
        ["../../etc/passwd", "not a key"],
      ];
      for (const [file, why] of bad) {
        // The good file first: it must not be written either.
        const res = await sendFiles(chat.id, alice.token, { content: "see attached" }, [
          [mine, "notes.txt"],
          [file, "x.txt"],
        ]);
        const error = await expectError(res, 400, "invalid");
        expect(Object.keys(error.errors ?? {}), why).toEqual(["attachments.1.file"]);
      }
      const twice = await sendFiles(chat.id, alice.token, { content: "twice" }, [
        [mine, "a.txt"],
        [mine, "b.txt"],
      ]);
      await expectError(twice, 400, "invalid");
      await expectError(await client().post(pub(chat.id, "messages/"), { content: "" }, alice.token), 400, "invalid");
      await expectNothingWritten(owner, alice.contact.id, [mine, bobs, staff]);
      expect(await count(stranger.organizationId, "uploads WHERE key = ? AND claimed_at IS NULL", foreignOrg)).toBe(1);
    },
  );

  it("404 for another visitor's conversation or an unknown web chat, 401 for a token of another web chat", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner, ON);
    const alice = await startSession(chat.id);
    const bob = await startSession(chat.id);
    const first = storedReply(
      await readEvents<Reply>(await client().post(pub(chat.id, "messages/"), { content: "my order" }, alice.token)),
    );
    const bobs = await visitorUpload(chat.id, bob.token);
    const taken = { conversation: first.conversationId, content: "mine now" };
    await expectError(await sendFiles(chat.id, bob.token, taken, [[bobs, "notes.txt"]]), 404, "not_found");
    expect(await rowsOf(owner.organizationId, "attachments")).toBe(0);
    expect(await objectMessages(first.conversationId)).toHaveLength(2);
    // A file sent in one conversation is not sent again in another.
    const mine = await visitorUpload(chat.id, alice.token);
    const here = await sendFiles(chat.id, alice.token, { conversation: first.conversationId, content: "here" }, [
      [mine, "notes.txt"],
    ]);
    expect(here.status).toBe(200);
    expect(lastChunk(await readEvents<Reply>(here)).done).toBe(true);
    await expectError(
      await sendFiles(chat.id, alice.token, { content: "elsewhere" }, [[mine, "notes.txt"]]),
      400,
      "invalid",
    );

    await expectNotFound(
      await client().post(pub(NO_SUCH_ID, "uploads/"), { filename: "notes.txt", fileSize: 5 }, alice.token),
    );
    const other = await seedWebChat(owner, ON);
    await expectError(
      await client().post(pub(other.id, "uploads/"), { filename: "notes.txt", fileSize: 5 }, alice.token),
      401,
      "not_authenticated",
    );
    await expectError(
      await sendFiles(other.id, alice.token, { content: "x" }, [[mine, "notes.txt"]]),
      401,
      "not_authenticated",
    );
  });

  it("needs the visitor token (401)", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner, ON);
    await expectError(
      await client().post(pub(chat.id, "uploads/"), { filename: "notes.txt", fileSize: 5 }),
      401,
      "not_authenticated",
    );
    await expectError(
      await client().post(pub(chat.id, "uploads/"), { filename: "notes.txt", fileSize: 5 }, "v1.forged.token"),
      401,
      "not_authenticated",
    );
    await expectError(
      await client().post(pub(chat.id, "uploads/"), { filename: "notes.txt", fileSize: 5 }, undefined, {
        Authorization: `Api-Key ${owner.key}`,
      }),
      401,
      "not_authenticated",
    );
    expect(await rowsOf(owner.organizationId, "uploads")).toBe(0);
  });

  it("refuses the token of a contact deleted since (401), and signs nothing", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner, ON);
    const session = await startSession(chat.id);
    expect((await owner.fetch("DELETE", `/contacts/${session.contact.id}/`)).status).toBe(204);
    await expectError(
      await client().post(pub(chat.id, "uploads/"), { filename: "notes.txt", fileSize: NOTES.length }, session.token),
      401,
      "not_authenticated",
    );
    expect(await rowsOf(owner.organizationId, "uploads")).toBe(0);
  });
});
