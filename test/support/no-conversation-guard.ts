// A setup file of the "shared" project (vitest.config.ts): a test file of a folder the "two-parts" project leaves out
// (NO_CONVERSATION_FOLDERS) fails if it creates a conversation, since the two-parts run would not prove it finds the
// conversation's part (docs/decisions.md, "One organization over several parts"). Counted for the organizations made
// during the file, so a conversation an earlier file's background work creates meanwhile is not this file's.
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, expect } from "vitest";
import { countInParts } from "../harness";

const folders: string[] = JSON.parse(env.TEST_NO_CONVERSATION_FOLDERS);
const file = expect.getState().testPath ?? "";
const watched = folders.some((folder) => file.includes(`/${folder}`));
let since = 0;

if (watched) {
  beforeAll(() => {
    since = Date.now();
  });
  afterAll(async () => {
    const { results: made } = await env.DB.prepare("SELECT id FROM organizations WHERE created_at >= ?")
      .bind(since)
      .all<{ id: string }>();
    let conversations = 0;
    for (const { id } of made) conversations += await countInParts(id, "conversations", "organization_id = ?", id);
    expect(
      conversations,
      `${file} creates conversations: take its folder off NO_CONVERSATION_FOLDERS (vitest.config.ts) so that the ` +
        `"two-parts" project runs it`,
    ).toBe(0);
  });
}
