// POST /knowledge-bases/{id}/files/ with JSON references to another knowledge base's file: by its storage key or by
// its record's `file` URL, only of a knowledge base the caller can see. References to uploads: files.test.ts.
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { db, expectError, seedMember, seedOwner, type Actor } from "../../harness";
import { knowledgeBaseFiles } from "../../../src/db/schema";
import { createKnowledgeBase, ingest, waitForFile } from "../../fixtures/knowledge";
import { bodyOf } from "../../support/api";

const addReference = (actor: Actor, kbId: string, file: string, filename = "copy.txt") =>
  actor.fetch("POST", `/knowledge-bases/${kbId}/files/`, { files: [{ file, filename }] });

const objectKeyOf = async (fileId: string) =>
  (await db().select().from(knowledgeBaseFiles).where(eq(knowledgeBaseFiles.id, fileId)))[0].objectKey;

describe("files added by reference to another knowledge base's file", () => {
  it("a file's own `file` URL names that object of ours (CONTRACT sections 9, 10), not a link to fetch", async () => {
    const owner = await seedOwner();
    const a = await createKnowledgeBase(owner);
    const b = await createKnowledgeBase(owner);
    const [file] = await ingest(owner, a.id, [{ name: "hours.txt", content: "Our office opens at nine." }]);
    // The record's `file` is the only address a client is given for the file; the older prefix names it too.
    for (const url of [file.file, file.file.replace("/api/v1/", "/api/")]) {
      const res = await addReference(owner, b.id, url, "hours.txt");
      expect(res.status, await res.clone().text()).toBe(201);
      const [copy] = await bodyOf<"POST /knowledge-bases/{knowledgeBaseId}/files/">(res);
      expect((await waitForFile(owner, b.id, copy.id)).status).toBe("done");
      const download = await owner.fetch("GET", `/knowledge-bases/${b.id}/files/${copy.id}/download/`);
      expect(new TextDecoder().decode(await download.arrayBuffer())).toBe("Our office opens at nine.");
    }
  });

  it("a member cannot copy (and so download) a file of a knowledge base hidden from them, by key or URL", async () => {
    const owner = await seedOwner();
    const hidden = await createKnowledgeBase(owner);
    const [secret] = await ingest(owner, hidden.id, [{ name: "vault.txt", content: "The vault code is 4711." }]);
    const member = await seedMember(owner, ["knowledge_base.manage", "knowledge_base.view"]);
    const mine = await createKnowledgeBase(member);
    expect((await member.fetch("GET", `/knowledge-bases/${hidden.id}/files/${secret.id}/`)).status).toBe(404);
    // knowledge-bases/<kb>/<file>/<name>: every part is in a reply's citationNodes (knowledgeBase, knowledgeBaseFile).
    const key = await objectKeyOf(secret.id);
    expect(key).toBe(`knowledge-bases/${hidden.id}/${secret.id}/vault.txt`);
    // Answered as a key of no object: nothing says the file exists.
    for (const file of [key, secret.file]) {
      const refused = await expectError(await addReference(member, mine.id, file), 400, "invalid");
      expect(refused.errors?.["files.0.file"]).toEqual(["No uploaded object with this key."]);
    }
    const listed = await bodyOf<"GET /knowledge-bases/{knowledgeBaseId}/files/">(
      await member.fetch("GET", `/knowledge-bases/${mine.id}/files/`),
    );
    expect(listed.count).toBe(0);
    // Once the base is given to one of their groups, they may copy it.
    await owner.fetch("PATCH", `/knowledge-bases/${hidden.id}/`, { groups: [{ id: member.groupId }] });
    const res = await addReference(member, mine.id, key);
    expect(res.status, await res.clone().text()).toBe(201);
  });
});
