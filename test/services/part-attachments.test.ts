// Attachments of a conversation in an organization's later part (docs/decisions.md, "One organization over several
// parts"): their rows are in the organization's own shard, the conversation in another database. The sweep of
// attachments left behind keeps them while the conversation lives; once it is deleted, the pass that has its object
// forget its storage deletes them and their files.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { client } from "../../src/db/prepared";
import { forgetDeletedConversations } from "../../src/services/conversation/forget";
import { cleanupUploads } from "../../src/services/uploads/cleanup";
import { seedOwner } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { bodyOf } from "../support/api";
import { secondPart } from "../support/parts";
import { uploadKey } from "../routes/attachments/support";

describe("attachments of a conversation in a later part", () => {
  it("stay through the sweep while it lives, and go with their file once it is deleted", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const { homeDb, otherDb } = await secondPart(owner.organizationId);
    const talked = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      message: { content: "Here is the photo" },
    });
    expect(talked.status, await talked.clone().text()).toBe(200);
    const { conversationId } = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(talked);
    const key = await uploadKey(owner);
    const attached = await owner.fetch("POST", `/conversations/${conversationId}/attachments/`, {
      file: key,
      filename: "cat.png",
    });
    expect(attached.status, await attached.clone().text()).toBe(201);
    const rows = () =>
      client(homeDb)
        .prepare("SELECT count(*) AS n FROM attachments WHERE conversation_id = ?1")
        .bind(conversationId)
        .first("n");
    expect(
      await client(otherDb).prepare("SELECT 1 AS n FROM conversations WHERE id = ?1").bind(conversationId).first(),
    ).toEqual({ n: 1 });
    expect(await rows()).toBe(1);

    // The conversation is not in the attachment's database: the sweep leaves it, a day on.
    await cleanupUploads(env, Date.now() + 25 * 3_600_000);
    expect(await rows()).toBe(1);
    expect(await env.FILES.head(key)).not.toBeNull();

    // The assistant deleted with its inbox: its conversations are named to forget in each part; the pass over the
    // second part takes the attachments in the first, and the file.
    expect((await owner.fetch("DELETE", `/chatbots/${bot.id}/`)).status).toBe(204);
    await forgetDeletedConversations(env, otherDb);
    expect(await rows()).toBe(0);
    expect(await env.FILES.head(key)).toBeNull();
  });
});
