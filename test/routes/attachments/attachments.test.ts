import { SELF, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { assert, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { attachments, uploads } from "../../../src/db/schema";
import { cleanupUploads } from "../../../src/services/uploads/cleanup";
import { signingCredentials } from "../../../src/services/uploads/settings";
import { presignUrl } from "../../../src/services/uploads/signing";
import { conversationObject } from "../../../src/services/conversations";
import { call, data, expectError, NO_SUCH_ID, PREFIXES, seedMember, seedOwner, type Actor } from "../../harness";
import { expectDenied, expectInvalid } from "../../support/refusals";
import { createChatbot } from "../../fixtures/chatbots";
import { createKnowledgeBase } from "../../fixtures/knowledge";
import { lastUpstreamRequest, upstreamModel } from "../chat-completions/fixtures";
import { PNG, requestsMultipart, uploadKey } from "./support";
import { bodyOf } from "../../support/api";
import type { Permission } from "../../../src/services/permissions";

async function conversationOf(owner: Actor) {
  const bot = await createChatbot(owner);
  const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "hello" } });
  expect(res.status, await res.clone().text()).toBe(200);
  return { bot, conversationId: (await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res)).conversationId };
}

async function directUpload(
  actor: Actor,
  filename: string,
  bytes: Uint8Array,
  contentType?: string,
  prefix = "/api/v1",
  fields: Record<string, string> = {},
) {
  const { body, contentType: ct } = requestsMultipart(fields, { filename, bytes, contentType });
  return SELF.fetch(`http://localhost${prefix}/attachments-upload/`, {
    method: "POST",
    body,
    headers: { "Content-Type": ct, Authorization: `Api-Key ${actor.key}`, "X-Organization-Id": actor.organizationId },
  });
}

describe("attachments", () => {
  it("create, get and delete (both prefixes); deleting removes the object", async () => {
    const owner = await seedOwner();
    for (const prefix of PREFIXES) {
      const key = await uploadKey(owner);
      const res = await owner.fetch("POST", "/attachments/", { file: key, filename: "cat.png" }, { prefix });
      expect(res.status, await res.clone().text()).toBe(201);
      const a = await bodyOf<"POST /attachments/">(res);
      expect(a).toMatchObject({ type: "image", filename: "cat.png", conversation: null });
      expect(a.expiresAt).not.toBeNull();
      const got = await owner.fetch("GET", `/attachments/${a.id}/`, undefined, { prefix });
      expect(got.status).toBe(200);
      expect((await bodyOf<"GET /attachments/{id}/">(got)).id).toBe(a.id);
      expect((await owner.fetch("DELETE", `/attachments/${a.id}/`, undefined, { prefix })).status).toBe(204);
      expect(await env.FILES.head(key)).toBeNull();
      await expectError(await owner.fetch("GET", `/attachments/${a.id}/`, undefined, { prefix }), 404);
    }
  });

  it("accepts our own URL of an object; a foreign URL or unknown key is 400, nothing fetched or written", async () => {
    const owner = await seedOwner();
    const key = await uploadKey(owner);
    const res = await owner.fetch("POST", "/attachments/", {
      file: `http://localhost/api/v1/uploads/${key}`,
      filename: "cat.png",
      type: "sticker",
    });
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await bodyOf<"POST /attachments/">(res)).type).toBe("sticker");
    for (const file of [
      "http://169.254.169.254/latest/meta-data",
      "https://example.com/cat.png",
      `uploads/${owner.organizationId}/attachment/${crypto.randomUUID()}/x.png`,
      "../etc/passwd",
    ]) {
      await expectError(await owner.fetch("POST", "/attachments/", { file, filename: "cat.png" }), 400);
    }
    await expectError(await owner.fetch("POST", "/attachments/", { file: key, filename: "" }), 400);
    await expectError(
      await owner.fetch("POST", "/attachments/", { file: key, filename: "cat.png", type: "hologram" }),
      400,
    );
    expect(
      await (await data(owner.organizationId))
        .select()
        .from(attachments)
        .where(eq(attachments.organizationId, owner.organizationId)),
    ).toHaveLength(1);
  });

  it(
    "401 without a key; 403 without the permission; another organization's attachment, key or conversation is " +
      "404/400",
    async () => {
      const owner = await seedOwner();
      const other = await seedOwner("other");
      const key = await uploadKey(owner);
      await expectError(await call("POST", "/api/v1/attachments/", { file: key, filename: "cat.png" }), 401);
      await expectError(await call("GET", `/api/v1/attachments/${NO_SUCH_ID}/`), 401);
      const viewer = await seedMember(owner, ["conversation.view"]);
      await expectDenied(await viewer.fetch("POST", "/attachments/", { file: key, filename: "cat.png" }));
      const created = await bodyOf<"POST /attachments/">(
        await owner.fetch("POST", "/attachments/", { file: key, filename: "cat.png" }),
      );
      expect((await viewer.fetch("GET", `/attachments/${created.id}/`)).status).toBe(200);
      await expectError(await viewer.fetch("DELETE", `/attachments/${created.id}/`), 403);
      await expectError(await other.fetch("GET", `/attachments/${created.id}/`), 404);
      await expectError(await other.fetch("DELETE", `/attachments/${created.id}/`), 404);
      await expectError(await other.fetch("POST", "/attachments/", { file: key, filename: "cat.png" }), 400);
      const { conversationId } = await conversationOf(owner);
      const otherKey = await uploadKey(other);
      await expectError(
        await other.fetch("POST", `/conversations/${conversationId}/attachments/`, {
          file: otherKey,
          filename: "cat.png",
        }),
        404,
      );
      await expectError(
        await other.fetch("POST", "/attachments/", {
          file: otherKey,
          filename: "cat.png",
          conversation: conversationId,
        }),
        404,
      );
    },
  );

  it("conversation attachments follow the conversation; bad input is 400", async () => {
    const owner = await seedOwner();
    const { conversationId } = await conversationOf(owner);
    const key = await uploadKey(owner);
    for (const prefix of PREFIXES) {
      const res = await owner.fetch(
        "POST",
        `/conversations/${conversationId}/attachments/`,
        { file: prefix === "/api" ? key : await uploadKey(owner), filename: "cat.png" },
        { prefix },
      );
      expect(res.status, await res.clone().text()).toBe(201);
      const a = await bodyOf<"POST /conversations/{conversationPk}/attachments/">(res);
      expect(a.conversation).toBe(conversationId);
      expect(a.expiresAt).toBeNull();
    }
    await expectError(
      await owner.fetch("POST", `/conversations/${conversationId}/attachments/`, { filename: "cat.png" }),
      400,
    );
    await expectError(
      await owner.fetch("POST", `/conversations/${NO_SUCH_ID}/attachments/`, { file: key, filename: "cat.png" }),
      404,
    );
    const member = await seedMember(owner, ["conversation.view"]);
    await expectError(
      await member.fetch("POST", `/conversations/${conversationId}/attachments/`, { file: key, filename: "cat.png" }),
      403,
    );
  });
});

describe("direct upload", () => {
  it("streams the file: 200, empty body, key in Location (both prefixes)", async () => {
    const owner = await seedOwner();
    for (const prefix of PREFIXES) {
      const res = await directUpload(owner, "cat.png", PNG, "image/png", prefix);
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await res.text()).toBe("");
      const key = res.headers.get("Location")!;
      expect(key).toMatch(new RegExp(`^uploads/${owner.organizationId}/attachment/`));
      expect(new Uint8Array(await (await env.FILES.get(key))!.arrayBuffer())).toEqual(PNG);
      expect((await owner.fetch("POST", "/attachments/", { file: key, filename: "cat.png" })).status).toBe(201);
    }
  });

  it(
    "any client's multipart ending works (workerd's FormData has no CRLF after the closing boundary), and a " +
      "file larger than one 8 MiB part goes up whole",
    async () => {
      const owner = await seedOwner();
      const form = new FormData();
      form.append("file", new File(["From a Worker's FormData."], "note.txt", { type: "text/plain" }));
      const res = await owner.fetch("POST", "/attachments-upload/", form);
      expect(res.status, await res.clone().text()).toBe(200);
      expect(await (await env.FILES.get(res.headers.get("Location")!))!.text()).toBe("From a Worker's FormData.");
      const big = new Uint8Array(9 * 1024 * 1024 + 123);
      for (let i = 0; i < big.length; i += 4096) big[i] = (i / 4096) % 251;
      const large = await directUpload(owner, "big.png", big, "image/png");
      expect(large.status, await large.clone().text()).toBe(200);
      const stored = await env.FILES.get(large.headers.get("Location")!);
      const bytes = new Uint8Array(await stored!.arrayBuffer());
      expect(bytes.length).toBe(big.length);
      expect(bytes.every((b, i) => b === big[i])).toBe(true);
    },
  );

  it("wrong type 415, too big 413, malformed 400, 401, 403; nothing stored", async () => {
    const owner = await seedOwner();
    await expectError(
      await directUpload(owner, "run.exe", PNG, "application/x-msdownload"),
      415,
      "unsupported_media_type",
    );
    const big = new Uint8Array(20 * 1024 * 1024 + 1);
    await expectError(await directUpload(owner, "big.png", big, "image/png"), 413, "payload_too_large");
    const small = await directUpload(owner, "big.png", big, "image/png");
    expect(small.status).toBe(413);
    await expectError(
      await SELF.fetch("http://localhost/api/v1/attachments-upload/", {
        method: "POST",
        body: "garbage",
        headers: { "Content-Type": "multipart/form-data; boundary=xyz", Authorization: `Api-Key ${owner.key}` },
      }),
      400,
    );
    await expectError(await owner.fetch("POST", "/attachments-upload/", { file: "x" }), 415);
    const listed = await env.FILES.list({ prefix: `uploads/${owner.organizationId}/` });
    expect(listed.objects).toHaveLength(0);
    await expectError(
      await SELF.fetch("http://localhost/api/v1/attachments-upload/", {
        method: "POST",
        body: requestsMultipart({}, { filename: "cat.png", bytes: PNG }).body,
      }),
      401,
    );
    const member = await seedMember(owner, ["conversation.view"]);
    await expectError(await directUpload(member, "cat.png", PNG, "image/png"), 403);
  });

  it("a fieldName or file extension named like an Object member is unknown (400/415), not a server error", async () => {
    const owner = await seedOwner();
    for (const fieldName of ["constructor", "__proto__"]) {
      const res = await directUpload(owner, "a.png", PNG, "image/png", undefined, { fieldName });
      expect((await expectError(res, 400, "invalid")).errors).toEqual({ fieldName: ["Unknown field."] });
    }
    await expectError(await directUpload(owner, "a.constructor", PNG), 415, "unsupported_media_type");
  });

  it("a knowledge document over its type's own limit is refused when sent, with or without a length", async () => {
    const owner = await seedOwner();
    const knowledge = { modelName: "knowledge-base-file", fieldName: "file" };
    const text = new Uint8Array(10 * 1024 * 1024 + 1).fill(0x61);
    const refused = await expectError(
      await directUpload(owner, "notes.txt", text, "text/plain", "/api", knowledge),
      413,
      "payload_too_large",
    );
    expect(refused.detail).toMatch(/at most 10485760 bytes are allowed for txt files/);
    expect(refused.errors).toEqual({ file: ["At most 10485760 bytes."] });
    // Streamed without Content-Length: the limit holds while the bytes arrive.
    const { body, contentType } = requestsMultipart(knowledge, { filename: "notes.md", bytes: text });
    const chunked = new ReadableStream<Uint8Array>({
      start(c) {
        for (let at = 0; at < body.length; at += 1_000_000) c.enqueue(body.slice(at, at + 1_000_000));
        c.close();
      },
    });
    const streamed = await SELF.fetch("http://localhost/api/v1/attachments-upload/", {
      method: "POST",
      body: chunked,
      headers: { "Content-Type": contentType, Authorization: `Api-Key ${owner.key}` },
    });
    expect((await expectError(streamed, 413)).errors).toEqual({ file: ["At most 10485760 bytes."] });
    expect((await env.FILES.list({ prefix: `uploads/${owner.organizationId}/` })).objects).toHaveLength(0);
    // A PDF of the same size is within its 20 MiB; so is the text file as a plain attachment.
    const pdf = await directUpload(owner, "manual.pdf", text, "application/pdf", "/api/v1", knowledge);
    expect(pdf.status, await pdf.clone().text()).toBe(200);
    expect((await directUpload(owner, "notes.txt", text, "text/plain")).status).toBe(200);
  });
});

describe("allowed-file-specs", () => {
  it("serves the spec's example limits with snake_case keys, configurable", async () => {
    const owner = await seedOwner();
    const res = await owner.fetch("GET", "/allowed-file-specs/");
    expect(res.status).toBe(200);
    const specs = await bodyOf<"GET /allowed-file-specs/">(res);
    expect(Object.keys(specs)).toEqual([
      "webChat",
      "organization",
      "attachment",
      "chatbotFile",
      "knowledgeBaseFile",
      "batchQa",
      "meetingRecord",
    ]);
    expect(specs.webChat.logo).toEqual({
      content_types: ["image/jpeg", "image/png", "image/gif"],
      extensions: [".jpg", ".jpeg", ".png", ".gif"],
      max_size: 5242880,
    });
    expect(specs.webChat.avatar.max_size).toBe(2097152);
    const settings = { ALLOWED_FILE_SPECS: JSON.stringify({ attachment: { file: { max_size: 10 } } }) };
    const configured = await bodyOf<"GET /allowed-file-specs/">(
      await owner.fetch("GET", "/allowed-file-specs/", undefined, { settings }),
    );
    expect(configured.attachment.file.max_size).toBe(10);
    await expectError(
      await owner.fetch(
        "POST",
        "/upload-presigned-url/",
        { filename: "cat.png", modelName: "attachment", fieldName: "file", fileSize: 11 },
        { settings },
      ),
      400,
    );
    await expectError(
      await owner.fetch("GET", "/allowed-file-specs/", undefined, { settings: { ALLOWED_FILE_SPECS: "{nope" } }),
      503,
      "not_configured",
    );
    await expectError(await call("GET", "/api/v1/allowed-file-specs/"), 401);
  });
});

describe("the assistant reads attachments", () => {
  it.each(["normal", "agent"])(
    "an image attachment reaches an OpenAI-compatible upstream as an image part (%s reply mode)",
    async (replyMode) => {
      const owner = await seedOwner();
      const model = await upstreamModel(owner);
      const bot = await createChatbot(owner, { largeLanguageModel: model.id, replyMode });
      const key = await uploadKey(owner);
      const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        message: { content: "What is in this picture?", attachments: [{ file: key, filename: "cat.png" }] },
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const reply = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res);
      const sent = await lastUpstreamRequest(model.modelName);
      const user = sent.body.messages.at(-1)!;
      expect(user.role).toBe("user");
      const parts = user.content;
      assert(Array.isArray(parts), "a message with an image is sent as parts");
      expect(parts[0]).toEqual({ type: "text", text: "What is in this picture?" });
      expect(parts[1].type).toBe("image_url");
      expect(parts[1].image_url!.url).toBe(`data:image/png;base64,${btoa(String.fromCharCode(...PNG))}`);
      // The message carries the attachment record, which joined the conversation.
      const list = await owner.fetch("GET", `/messages/?conversation=${reply.conversationId}`);
      const messages = await bodyOf<"GET /messages/">(list);
      const incoming = messages.results.find((m) => m.type === "incoming")!;
      expect(incoming.attachments[0]).toMatchObject({
        type: "image",
        filename: "cat.png",
        conversation: reply.conversationId,
      });
    },
  );

  it("a conversation's attachment goes into a knowledge base by key only with conversation.view", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const key = await uploadKey(owner, "contract.txt", new TextEncoder().encode("Contract 4711."), "text/plain");
    const sent = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      message: { content: "Here is my contract.", attachments: [{ file: key, filename: "contract.txt" }] },
    });
    expect(sent.status, await sent.clone().text()).toBe(200);
    const add = (actor: Actor, kbId: string, file: string) =>
      actor.fetch("POST", `/knowledge-bases/${kbId}/files/`, { files: [{ file, filename: "contract.txt" }] });
    const manager = await seedMember(owner, ["knowledge_base.manage", "knowledge_base.view"]);
    const hidden = await createKnowledgeBase(manager);
    for (const file of [key, `http://localhost/api/v1/uploads/${key}`]) {
      const refused = await expectError(await add(manager, hidden.id, file), 400, "invalid");
      expect(refused.errors?.["files.0.file"]).toEqual(["No uploaded object with this key."]);
    }
    expect(await env.FILES.head(key)).not.toBeNull();
    const reader = await seedMember(owner, ["knowledge_base.manage", "knowledge_base.view", "conversation.view"]);
    const res = await add(reader, (await createKnowledgeBase(reader)).id, key);
    expect(res.status, await res.clone().text()).toBe(201);
    // The attachment keeps its object: the file has a copy of its own.
    expect(await env.FILES.head(key)).not.toBeNull();
  });

  it("a conversation's attachment runs as a batch QA file by key only with conversation.view", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const csv = new TextEncoder().encode("Question\nWhat is my account number?\n");
    const key = await uploadKey(owner, "questions.csv", csv, "text/csv");
    const sent = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      message: { content: "Here are my questions.", attachments: [{ file: key, filename: "questions.csv" }] },
    });
    expect(sent.status, await sent.clone().text()).toBe(200);
    const inbox = await bodyOf<"POST /inboxes/">(
      await owner.fetch("POST", "/inboxes/", { name: "Site", channelType: "web", chatbot: { id: bot.id } }),
    );
    const run = (actor: Actor) => actor.fetch("POST", `/web-chats/${inbox.channel!.id}/batch-qas/`, { file: key });
    // Both given the assistant through their group: the attachment alone is what stands in the way.
    const member = async (permissions: Permission[]) => {
      const actor = await seedMember(owner, ["chatbot.manage", "chatbot.view", ...permissions]);
      const given = await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { groups: [{ id: actor.groupId }] });
      expect(given.status, await given.clone().text()).toBe(200);
      return actor;
    };
    const refused = await expectError(await run(await member([])), 400, "invalid");
    expect(refused.errors?.file).toEqual(["No uploaded object of your organization with this key."]);
    const res = await run(await member(["conversation.view"]));
    expect(res.status, await res.clone().text()).toBe(201);
  });

  it(
    "documents are read and answered from (local model, deterministic); waitForAttachments false answers " +
      "without them",
    async () => {
      const owner = await seedOwner();
      const bot = await createChatbot(owner);
      const text = new TextEncoder().encode("The warranty lasts 7 years for every kettle.\n");
      const key = await uploadKey(owner, "warranty.txt", text, "text/plain");
      let res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        message: { content: "How long is the warranty?", attachments: [{ file: key, filename: "warranty.txt" }] },
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const first = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res);
      expect(first.content).toBe(
        "I received your attachments: warranty.txt (document). The warranty lasts 7 years for every kettle.",
      );
      // Later turns keep the document as context.
      res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        conversation: first.conversationId,
        message: { content: "warranty for kettle?" },
      });
      expect((await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res)).content).toContain("7 years");

      const key2 = await uploadKey(
        owner,
        "notes.txt",
        new TextEncoder().encode("Secret code is 4242.\n"),
        "text/plain",
      );
      res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        waitForAttachments: false,
        message: { content: "What is the secret code?", attachments: [{ file: key2, filename: "notes.txt" }] },
      });
      expect(res.status).toBe(200);
      expect((await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res)).content).not.toContain("4242");
    },
  );

  it("a message naming another organization's attachment is 400, a foreign link stays a reference", async () => {
    const owner = await seedOwner();
    const other = await seedOwner("other");
    const bot = await createChatbot(owner);
    const theirs = await bodyOf<"POST /attachments/">(
      await other.fetch("POST", "/attachments/", { file: await uploadKey(other), filename: "cat.png" }),
    );
    await expectError(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        message: { content: "hi", attachments: [{ id: theirs.id, filename: "cat.png", file: theirs.file }] },
      }),
      400,
    );
    const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      message: { content: "hi", attachments: [{ filename: "card.png", file: "https://cdn.example.com/card.png" }] },
    });
    expect(res.status).toBe(200);
    // A link is http(s): the console and receivers open it.
    for (const file of ["javascript:alert(1)", "data:text/html,<script>alert(1)</script>", "card.png"]) {
      await expectInvalid(
        await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
          message: { content: "hi", attachments: [{ filename: "card.png", file }] },
        }),
        "message.attachments.0.file",
      );
    }
  });
});

describe("lifecycle", () => {
  it("the scheduled cleanup deletes uploads never attached after the TTL, and keeps attached ones", async () => {
    const owner = await seedOwner();
    const unused = await uploadKey(owner);
    const used = await uploadKey(owner);
    const { conversationId } = await conversationOf(owner);
    expect(
      (await owner.fetch("POST", `/conversations/${conversationId}/attachments/`, { file: used, filename: "cat.png" }))
        .status,
    ).toBe(201);
    const loose = await uploadKey(owner);
    const looseAttachment = await bodyOf<"POST /attachments/">(
      await owner.fetch("POST", "/attachments/", { file: loose, filename: "cat.png" }),
    );
    await cleanupUploads(env, Date.now());
    expect(await env.FILES.head(unused)).not.toBeNull();
    await cleanupUploads(env, Date.now() + 25 * 3_600_000);
    expect(await env.FILES.head(unused)).toBeNull();
    expect(await (await data(owner.organizationId)).select().from(uploads).where(eq(uploads.key, unused))).toHaveLength(
      0,
    );
    expect(await env.FILES.head(used)).not.toBeNull();
    expect(await env.FILES.head(loose)).toBeNull();
    await expectError(await owner.fetch("GET", `/attachments/${looseAttachment.id}/`), 404);
  });
});

describe("a message's attachment links", () => {
  it("open after the week the stored link lasts: a read signs it again, the file as sent", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const key = await uploadKey(owner);
    const { conversationId } = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        message: { content: "see", attachments: [{ file: key, filename: "cat.png" }] },
      }),
    );
    const listed = async () => {
      const page = await bodyOf<"GET /messages/">(
        await owner.fetch("GET", `/messages/?conversation=${conversationId}`),
      );
      return page.results.find((m) => m.attachments.length)!;
    };
    const linkOf = (m: { attachments: Record<string, unknown>[] }) => String(m.attachments[0].file);
    const sent = await listed();
    // Read within its week: the link as stored.
    expect(linkOf(await listed())).toBe(linkOf(sent));
    expect((await SELF.fetch(linkOf(sent))).status).toBe(200);

    // The message as stored eight days ago: its link has lapsed.
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000);
    const lapsed = await presignUrl(
      await signingCredentials(env),
      "GET",
      linkOf(sent).split("?")[0],
      604_800,
      {},
      eightDaysAgo,
    );
    expect((await SELF.fetch(lapsed)).status).toBe(403);
    await runInDurableObject(conversationObject(env, conversationId), (_object, state) => {
      const stored = [{ ...sent.attachments[0], file: lapsed }];
      state.storage.sql.exec("UPDATE messages SET attachments = ? WHERE id = ?", JSON.stringify(stored), sent.id);
    });
    const one = await bodyOf<"GET /messages/{id}/">(
      await owner.fetch("GET", `/messages/${sent.id}/?conversation=${conversationId}`),
    );
    for (const message of [await listed(), one]) {
      expect(linkOf(message)).not.toBe(lapsed);
      const res = await SELF.fetch(linkOf(message));
      expect(res.status).toBe(200);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
    }
  });
});
