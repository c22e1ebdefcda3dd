import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { seedOwner, waitFor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { bodyOf } from "../support/api";
import { receivedAt } from "../support/received";

type Payload = {
  id: string;
  type: string;
  content: string;
  sender: { id: string; name: string; type: string };
  contact: { id: string; name: string; email: string | null } | null;
  conversation: { id: string; auto_reply_enabled: boolean };
};

const received = async (path: string) => (await receivedAt(path)).map((r): Payload => JSON.parse(r.body));

// The queue is shared with every test file of the project, some of whose receivers hang until the time-out: under a
// full run on two cores an event can take several seconds. Waiting longer costs nothing when it has arrived.
const waitForCount = (path: string, n: number) =>
  waitFor(
    () => received(path),
    (got) => got.length >= n,
    20_000,
  );

describe("every message path emits its event to the inbox's webhooks", () => {
  it("completions, the messages API, its asynchronous reply and a human agent's reply: incoming to incoming " +
    "hooks, outgoing to outgoing hooks", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const inbox = bot.defaultInbox!.id;
    const tag = crypto.randomUUID();
    for (const direction of ["incoming", "outgoing"]) {
      const res = await owner.fetch("POST", `/inboxes/${inbox}/webhooks/`, {
        name: direction,
        direction,
        url: `${env.TEST_RECEIVER_URL}/ok/${tag}/${direction}`,
      });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    const contactRes = await owner.fetch("POST", "/contacts/", {
      name: "Ming",
      email: "ming@example.com",
      inboxes: [{ id: inbox }],
    });
    expect(contactRes.status, await contactRes.clone().text()).toBe(201);
    const contact = await bodyOf<"POST /contacts/">(contactRes);

    // 1. A direct completion: the visitor's message, then the assistant's reply.
    const completion = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        message: { content: "first", sender: contact.id },
      }),
    );
    const conversation = completion.conversationId;

    // 2. The messages API: a receipt now, the reply asynchronously.
    const posted = await owner.fetch("POST", "/messages/", { conversation, content: "second" });
    expect(posted.status).toBe(201);
    const receipt = await bodyOf<"POST /messages/">(posted);
    const outgoingSoFar = await waitForCount(`/ok/${tag}/outgoing`, 2);
    expect(outgoingSoFar).toHaveLength(2);

    // 3. Handoff, then a human agent answers.
    expect(
      (await owner.fetch("PATCH", `/conversations/${conversation}/update-auto-reply/`, { autoReplyEnabled: false }))
        .status,
    ).toBe(200);
    const agent = await bodyOf<"POST /messages/outgoing/">(
      await owner.fetch("POST", "/messages/outgoing/", { conversation, content: "Sam here" }),
    );
    // 4. A visitor message while a human serves: an incoming event, and no reply.
    const third = await bodyOf<"POST /messages/">(
      await owner.fetch("POST", "/messages/", { conversation, content: "third" }),
    );

    const incoming = await waitForCount(`/ok/${tag}/incoming`, 3);
    const outgoing = await waitForCount(`/ok/${tag}/outgoing`, 3);
    await new Promise((r) => setTimeout(r, 500)); // nothing more may arrive
    expect(await received(`/ok/${tag}/incoming`)).toHaveLength(3);
    expect(await received(`/ok/${tag}/outgoing`)).toHaveLength(3);

    const byContent = (list: Payload[]) => list.map((p) => p.content).sort();
    expect(byContent(incoming)).toEqual(["first", "second", "third"]);
    for (const p of incoming) {
      expect(p).toMatchObject({
        type: "incoming",
        sender: { id: contact.id, name: "Ming", type: "contact" },
        contact: { id: contact.id, name: "Ming", email: "ming@example.com" },
      });
    }
    expect(incoming.map((p) => p.id)).toEqual(expect.arrayContaining([receipt.id, third.id]));

    const replies = outgoing.filter((p) => p.sender.type === "chatbot");
    expect(replies).toHaveLength(2);
    expect(replies.map((p) => p.id)).toContain(completion.message!.id);
    const human = outgoing.find((p) => p.sender.type === "user")!;
    expect(human).toMatchObject({
      id: agent.id,
      type: "outgoing",
      content: "Sam here",
      sender: { id: owner.userId },
      conversation: { id: conversation, auto_reply_enabled: false },
    });
  }, 90_000);
});
