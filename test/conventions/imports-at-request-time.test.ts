// Once the test worker is loaded (test/setup.ts), no request, queue event or object asks the test pool's module service
// for a module: every module the worker imports on first use is imported once per isolate (src/lib/lazy.ts). In the
// pool, two `import()`s of one module at once share the first one's I/O, and the second request then resumes in the
// first one's context (docs/decisions.md, "In the test pool"): that is how full runs failed now and then.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createChatbot } from "../fixtures/chatbots";
import { createKnowledgeBase, ingest } from "../fixtures/knowledge";
import { seedOwner, waitFor } from "../harness";
import { bodyOf } from "../support/api";
import { createWebhook } from "../routes/webhooks/fixtures";

/** The pool's module runner (@cloudflare/vitest-plugin), whose transport asks the module service. */
declare const __vitest_mocker__: {
  moduleRunner: { transport: { invoke: (name: string, data: unknown[]) => Promise<unknown> } };
};

/** The modules asked for while `work` runs, but for the worker's entry, which the pool imports for every event. */
async function modulesAskedFor(work: () => Promise<void>): Promise<string[]> {
  const { transport } = __vitest_mocker__.moduleRunner;
  const invoke = transport.invoke;
  const asked: string[] = [];
  transport.invoke = (name, data) => {
    if (name === "fetchModule") asked.push(String(data[0]));
    return invoke.call(transport, name, data);
  };
  try {
    await work();
  } finally {
    transport.invoke = invoke;
  }
  return asked.filter((url) => !url.endsWith("/src/index.ts"));
}

describe("modules imported on first use", () => {
  it("are not imported again by requests, queue events or objects once loaded", async () => {
    const owner = await seedOwner();
    const asked = await modulesAskedFor(async () => {
      // A reply of the local model through its conversation object, delivered to a webhook by the queue.
      const bot = await createChatbot(owner);
      const hook = await createWebhook(owner, bot.defaultInbox!.id, { url: `${env.TEST_RECEIVER_URL}/ok/lazy` });
      const reply = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "Hello" } });
      expect(reply.status, await reply.clone().text()).toBe(200);
      const records = `/inboxes/${bot.defaultInbox!.id}/webhooks/${hook.id}/records/`;
      await waitFor(
        async () => bodyOf<"GET /inboxes/{inboxId}/webhooks/{webhookId}/records/">(await owner.fetch("GET", records)),
        (page) => page.results[0]?.status === "success",
      );
      // A file parsed by the ingestion queue, with a parser of its own module.
      const kb = await createKnowledgeBase(owner);
      await ingest(owner, kb.id, [{ name: "hours.csv", content: "day,hours\nMonday,9-17\n", type: "text/csv" }]);
      // The front ends' files.
      for (const path of ["/widget.js", "/console/", "/api/docs/"])
        expect((await SELF.fetch(`https://example.com${path}`)).status, path).toBe(200);
    });
    expect(asked).toEqual([]);
  });
});
