import { describe, expect, it } from "vitest";
import { endedWhen } from "../../src/services/sse";

/** A live stream with nothing to say (a quiet inbox): only the check can end it. */
const quiet = () => new ReadableStream<Uint8Array>({ start() {} });

describe("endedWhen: a live stream ends when its reader's access is lost", () => {
  it("a check D1 failed is asked again; the reason found next ends the stream with it", async () => {
    let asked = 0;
    const gone = { code: "permission_denied", detail: "You are no longer a member of this organization." };
    const stream = endedWhen(
      quiet(),
      async () => {
        asked++;
        if (asked === 1) throw new Error("D1_ERROR: Network connection lost.");
        return gone;
      },
      5,
    );
    expect(await new Response(stream).text()).toBe(`event: error\ndata: ${JSON.stringify(gone)}\n\n`);
    expect(asked).toBe(2);
  });

  it("a check failing otherwise (an error of our own code) ends the stream: it is not left unchecked", async () => {
    let asked = 0;
    const stream = endedWhen(
      quiet(),
      async () => {
        asked++;
        throw new TypeError("Cannot read properties of undefined (reading 'userId')");
      },
      5,
    );
    const text = await new Response(stream).text();
    expect(text).toMatch(/^event: error\ndata: /);
    expect(JSON.parse(text.split("data: ")[1])).toEqual({
      code: "server_error",
      detail: "Whether this stream may still be read could not be checked; open it again.",
    });
    expect(asked).toBe(1);
  });
});
