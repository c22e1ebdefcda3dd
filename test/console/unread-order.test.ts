import { describe, expect, it } from "vitest";
import {
  messageStateAfter,
  messageStateRead,
  type MessageState,
} from "../../console/src/pages/conversations/unread-order";

/** A conversation's message state as the API writes it: its timestamp in epoch milliseconds, as a string. */
const state = (lastMessage: string | null, second: number | null, unreadCount: number): MessageState => ({
  lastMessage,
  lastMessageCreatedAt: second === null ? null : String(Date.UTC(2026, 10, 29, 9, 0, second)),
  unreadCount,
});

describe("the console's unread count from live events is monotonic in the events' order", () => {
  it("a visitor's message event reaching the tab after the read's cannot raise the count again", () => {
    const read = state("Where is my order?", 1, 0); // the record read again after the read's event
    const late = state("Where is my order?", 1, 1); // that message's own event, published before the read
    expect(messageStateAfter(read, late)).toEqual(read);
  });

  it("an event older than what is shown changes neither the latest message nor the count", () => {
    const shown = state("Thanks!", 5, 2);
    expect(messageStateAfter(shown, state("Hello", 3, 1))).toEqual(shown);
    expect(messageStateAfter(shown, state("Hello", 3, 7))).toEqual(shown);
  });

  it("a newer message is taken with its count, up or down; the first message of a conversation too", () => {
    expect(messageStateAfter(state("Hello", 1, 0), state("Anyone?", 2, 1))).toEqual(state("Anyone?", 2, 1));
    expect(messageStateAfter(state("Hello", 1, 3), state("On it", 2, 0))).toEqual(state("On it", 2, 0));
    expect(messageStateAfter(state(null, null, 0), state("Hello", 1, 1))).toEqual(state("Hello", 1, 1));
  });

  it("a read of the message shown lowers the count; an event of the same message never raises it", () => {
    expect(messageStateAfter(state("Hi", 4, 2), state("Hi", 4, 0))).toEqual(state("Hi", 4, 0));
    expect(messageStateAfter(state("Hi", 4, 1), state("Hi", 4, 2))).toEqual(state("Hi", 4, 1));
  });

  it("a record read from the API never takes the row back to an older message; of the same message it is taken", () => {
    // The visitor's second message came live while a read of the conversation was on its way: its answer is older.
    const shown = state("hello?", 9, 2);
    expect(messageStateRead(shown, state("A person will be with you shortly.", 7, 1))).toEqual(shown);
    // The API's count of the message shown is the stored one: taken up or down, unlike an event's.
    expect(messageStateRead(shown, state("hello?", 9, 0))).toEqual(state("hello?", 9, 0));
    expect(messageStateRead(state("hello?", 9, 1), state("hello?", 9, 2))).toEqual(state("hello?", 9, 2));
    expect(messageStateRead(shown, state("Anyone there?", 12, 3))).toEqual(state("Anyone there?", 12, 3));
  });
});
