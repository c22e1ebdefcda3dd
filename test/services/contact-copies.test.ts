// A contact over an organization's parts (services/shards/contact-copies.ts; docs/decisions.md, "One organization over
// several parts"): kept in the organization's own shard, copied into a later part with the first conversation of it
// there, its changes written over the copy, and deleted only when no part holds a conversation of it.
import { describe, expect, it } from "vitest";
import { client } from "../../src/db/prepared";
import { seedOwner } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { bodyOf } from "../support/api";
import { secondPart } from "../support/parts";
import { seedWebChat } from "../routes/widget/fixtures";

const nameIn = async (d1: D1Database, id: string) =>
  (await d1.prepare("SELECT name FROM contacts WHERE id = ?1").bind(id).first<{ name: string }>())?.name ?? null;

describe("a contact over two parts", () => {
  it("is copied with its conversation, renamed in both, and deleted from both once it has none", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const { homeDb, otherDb } = await secondPart(owner.organizationId);
    const [home, other] = [client(homeDb), client(otherDb)];
    const contact = async (name: string) =>
      bodyOf<"POST /contacts/">(await owner.fetch("POST", "/contacts/", { name }));
    const ada = await contact("Ada");
    const grace = await contact("Grace");
    expect([await nameIn(home, ada.id), await nameIn(other, ada.id)]).toEqual(["Ada", null]);

    // A conversation of Ada through a completion, one of Grace created without a message: each in the second part,
    // with its contact copied there; the list shows their names from the copies.
    const talked = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      message: { content: "Where is my parcel?", sender: ada.id },
    });
    expect(talked.status, await talked.clone().text()).toBe(200);
    const { conversationId } = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(talked);
    const webChat = await seedWebChat(owner);
    const created = await owner.fetch("POST", "/conversations/", { webChat: webChat.id, contact: grace.id });
    expect(created.status, await created.clone().text()).toBe(201);
    const started = await bodyOf<"POST /conversations/">(created);
    for (const id of [conversationId, started.id])
      expect(await other.prepare("SELECT 1 AS n FROM conversations WHERE id = ?1").bind(id).first()).toEqual({ n: 1 });
    expect([await nameIn(other, ada.id), await nameIn(other, grace.id)]).toEqual(["Ada", "Grace"]);

    // A change is written over the copy; the list and one conversation show it.
    expect((await owner.fetch("PATCH", `/contacts/${ada.id}/`, { name: "Ada L." })).status).toBe(200);
    expect([await nameIn(home, ada.id), await nameIn(other, ada.id)]).toEqual(["Ada L.", "Ada L."]);
    const one = await bodyOf<"GET /conversations/{id}/">(await owner.fetch("GET", `/conversations/${conversationId}/`));
    expect(one.contact?.name).toBe("Ada L.");

    // Ada has a conversation in the second part: refused, and kept in both. A contact with none goes; one whose copy
    // is left where it has no conversation (its conversation's part another's) goes from both.
    const refused = await owner.fetch("DELETE", `/contacts/${ada.id}/`);
    expect(refused.status).toBe(400);
    expect([await nameIn(home, ada.id), await nameIn(other, ada.id)]).toEqual(["Ada L.", "Ada L."]);
    await other.prepare("DELETE FROM conversations WHERE id = ?1").bind(started.id).run();
    expect((await owner.fetch("DELETE", `/contacts/${grace.id}/`)).status).toBe(204);
    expect([await nameIn(home, grace.id), await nameIn(other, grace.id)]).toEqual([null, null]);
    const loner = await contact("Lin");
    expect((await owner.fetch("DELETE", `/contacts/${loner.id}/`)).status).toBe(204);
    expect(await nameIn(home, loner.id)).toBeNull();
  });
});
