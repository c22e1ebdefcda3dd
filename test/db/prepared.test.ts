import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { batch, client, preparedInsert, rowMapper } from "../../src/db/prepared";
import { messages } from "../../src/db/schema";
import { seedOwner, conversationData } from "../harness";
import { startedConversation } from "../support/conversation-search";

// Statements drizzle builds once per isolate (src/db/prepared.ts): they store and read what drizzle's own would.
describe("prepared statements", () => {
  it("an insert stores what drizzle's insert stores: defaults, JSON, booleans, and NULL for null", async () => {
    const owner = await seedOwner();
    const {
      conversationId,
      first: { message },
    } = await startedConversation(owner, "hi");
    const plane = await conversationData(owner.organizationId, conversationId);
    const [stored] = await plane.select().from(messages).where(eq(messages.id, message!.id));
    const values = {
      ...stored,
      id: crypto.randomUUID(),
      sequence: 100,
      contentPayload: null,
      canvas: null,
      metadata: { a: [1, { b: true }] },
      senderName: undefined,
      content: undefined,
    };
    const viaDrizzle = { ...values, id: crypto.randomUUID(), sequence: 101 };
    await batch(plane, [preparedInsert(messages)(plane, values)]);
    await plane.insert(messages).values(viaDrizzle);
    const raw = (id: string) =>
      client(plane).prepare("SELECT * FROM messages WHERE id = ?").bind(id).first<Record<string, unknown>>();
    const [ours, theirs] = [await raw(values.id), await raw(viaDrizzle.id)];
    expect({ ...ours, id: 0, sequence: 0 }).toEqual({ ...theirs, id: 0, sequence: 0 });
    expect(ours).toMatchObject({
      content_payload: null,
      canvas: null,
      metadata: '{"a":[1,{"b":true}]}',
      sender_name: "",
      content: "",
    });
    // Read back without the query builder, rows are drizzle's rows.
    const [drizzleRow] = await plane.select().from(messages).where(eq(messages.id, values.id));
    expect(rowMapper(messages)(ours)).toEqual(drizzleRow);
    expect(drizzleRow.conversationId).toBe(conversationId);
  });
});
